#!/usr/bin/env bash
# Packs the filter benchmark for a machine without ParaView (the lent GPU machine, Ubuntu 24.04):
# gpumesh-filter-benchmark, the project's shared libraries and their ldd closure (ParaView's
# VTK from Debian, ...) without the C runtime that machine has (glibc's libraries, libstdc++,
# libgcc_s) and without the OpenCL loader (that machine's own; Debian's is packed apart as a
# fallback), plus the driver scripts, as one .tar.xz beside a run script:
#
#   testing/benchmark/pack_for_gpu_machine.sh [build dir (build)] [destination (.carry/filterbench)] [binary]
#
# binary: gpumesh-filter-benchmark (the default), gpumesh-benchmark (the core alone: there
# `bash .carry/corebench/run.sh hub ...`, bench_smoothing_hub.py's options) or
# gpumesh-mpi-benchmark. The MPI program is
# packed without MPI's libraries (libmpi, Open MPI's runtime, hwloc, libevent, ...), so that it
# runs with the GPU machine's own Open MPI 4.1 (the same ABI) and its mpirun:
#   bash .carry/mpibench/run.sh mpi --triangles 30000000     (run_mpi_benchmarks.sh's options)
#
# Then, on the GPU machine, from the repository root (the device tool's carry takes .carry/filterbench):
#   bash .carry/filterbench/run.sh devices                       # the OpenCL devices it sees
#   bash .carry/filterbench/run.sh --device NVIDIA --triangles 30000000 --tetrahedra 10000000
# run.sh takes run_filter_benchmarks.sh's options; results go where --out points (default
# $OUT/filter-benchmarks when $OUT is set). The default destination, .carry/, is ignored by git.
set -euo pipefail

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "${1:-$source_dir/build}" && pwd)
destination=${2:-$source_dir/.carry/filterbench}
binary_name=${3:-gpumesh-filter-benchmark}
binary=$build/bin/$binary_name
[[ -x $binary ]] || { echo "build $binary_name first: $binary is missing" >&2; exit 2; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
package=$stage/gpumesh-filterbench
mkdir -p "$package/bin" "$package/lib" "$package/opencl"
cp "$binary" "$package/bin/"
cp "$source_dir/testing/benchmark/run_filter_benchmarks.sh" \
  "$source_dir/testing/benchmark/aggregate_filter_benchmarks.py" \
  "$source_dir/testing/benchmark/run_mpi_benchmarks.sh" "$source_dir/testing/benchmark/bench_smoothing_hub.py" \
  "$source_dir/testing/benchmark/collect_first_use_programs.py" "$package/bin/"

# What the GPU machine provides itself: glibc (its parts must all come from one version),
# the C++ runtime, the OpenCL loader. Everything else the binary loads is packed.
provided='^(linux-vdso|ld-linux|libc|libm|libmvec|libdl|libpthread|librt|libresolv|libutil|libanl|libnss_[a-z]+|libstdc\+\+|libgcc_s|libOpenCL)\.so'
if [[ $binary_name == *mpi* ]]; then # MPI's own libraries must be the ones its mpirun goes with
  provided="${provided%)*}|libmpi[a-z_]*|libopen-rte|libopen-pal|libhwloc|libevent[a-z_-]*|libpmix|libfabric|libuc[pmstx]|libpsm[0-9_a-z]*|libibverbs|librdmacm|libnl-[a-z0-9-]*|libudev|libmunge|libnuma)[.-]"
fi
# The core tests go with the filter benchmark when they are built (`run.sh core-tests`: e.g.
# GPU Decimation's decisions against the host reference on that machine's device).
binaries=("$binary")
if [[ $binary_name == gpumesh-filter-benchmark && -x $build/bin/GPUMeshCoreTests ]]; then
  binaries+=("$build/bin/GPUMeshCoreTests")
  cp "$build/bin/GPUMeshCoreTests" "$package/bin/"
fi
count=0
for packed in "${binaries[@]}"; do
  missing=$(ldd "$packed" | grep 'not found' || true)
  [[ -z $missing ]] || { echo "unresolved libraries:" >&2; echo "$missing" >&2; exit 1; }
  while read -r name path; do
    [[ $name =~ $provided ]] && continue
    [[ -e $package/lib/$name ]] && continue
    cp -L "$path" "$package/lib/$name"
    count=$((count + 1))
  done < <(ldd "$packed" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }')
done
cp -L "$(ldconfig -p | awk '$1 == "libOpenCL.so.1" && /x86-64/ { print $NF; exit }')" "$package/opencl/libOpenCL.so.1"

mkdir -p "$destination"
tar -C "$stage" -cJf "$destination/gpumesh-filterbench.tar.xz" gpumesh-filterbench
cp "$source_dir/testing/benchmark/run_packed_filter_benchmarks.sh" "$destination/run.sh"
echo "packed $count libraries, $(du -sh "$package" | cut -f1) unpacked:" \
  "$destination/gpumesh-filterbench.tar.xz ($(du -h "$destination/gpumesh-filterbench.tar.xz" | cut -f1))"
