#!/usr/bin/env bash
# Packs the filter benchmark for a machine without ParaView (the lent GPU machine, Ubuntu 24.04):
# gpumesh-filter-benchmark, the project's shared libraries and their ldd closure (ParaView's
# VTK from Debian, ...) without the C runtime that machine has (glibc's libraries, libstdc++,
# libgcc_s) and without the OpenCL loader (that machine's own; Debian's is packed apart as a
# fallback), plus the driver scripts, as one .tar.xz beside a run script:
#
#   testing/benchmark/pack_for_gpu_machine.sh [build dir (build)] [destination (.carry/filterbench)]
#
# Then, on the GPU machine, from the repository root (the device tool's carry takes .carry/filterbench):
#   bash .carry/filterbench/run.sh devices                       # the OpenCL devices it sees
#   bash .carry/filterbench/run.sh --device NVIDIA --triangles 30000000 --tetrahedra 10000000
# run.sh takes run_filter_benchmarks.sh's options; results go to $OUT/filter-benchmarks unless --out.
set -euo pipefail

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "${1:-$source_dir/build}" && pwd)
destination=${2:-$source_dir/.carry/filterbench}
binary=$build/bin/gpumesh-filter-benchmark
[[ -x $binary ]] || { echo "build gpumesh-filter-benchmark first: $binary is missing" >&2; exit 2; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
package=$stage/gpumesh-filterbench
mkdir -p "$package/bin" "$package/lib" "$package/opencl"
cp "$binary" "$package/bin/"
cp "$source_dir/testing/benchmark/run_filter_benchmarks.sh" \
  "$source_dir/testing/benchmark/aggregate_filter_benchmarks.py" "$package/bin/"

# What the GPU machine provides itself: glibc (its parts must all come from one version),
# the C++ runtime, the OpenCL loader. Everything else the binary loads is packed.
provided='^(linux-vdso|ld-linux|libc|libm|libmvec|libdl|libpthread|librt|libresolv|libutil|libanl|libnss_[a-z]+|libstdc\+\+|libgcc_s|libOpenCL)\.so'
missing=$(ldd "$binary" | grep 'not found' || true)
[[ -z $missing ]] || { echo "unresolved libraries:" >&2; echo "$missing" >&2; exit 1; }
count=0
while read -r name path; do
  [[ $name =~ $provided ]] && continue
  cp -L "$path" "$package/lib/$name"
  count=$((count + 1))
done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }')
cp -L "$(ldconfig -p | awk '$1 == "libOpenCL.so.1" && /x86-64/ { print $NF; exit }')" "$package/opencl/libOpenCL.so.1"

mkdir -p "$destination"
tar -C "$stage" -cJf "$destination/gpumesh-filterbench.tar.xz" gpumesh-filterbench
cp "$source_dir/testing/benchmark/run_packed_filter_benchmarks.sh" "$destination/run.sh"
echo "packed $count libraries, $(du -sh "$package" | cut -f1) unpacked:" \
  "$destination/gpumesh-filterbench.tar.xz ($(du -h "$destination/gpumesh-filterbench.tar.xz" | cut -f1))"
