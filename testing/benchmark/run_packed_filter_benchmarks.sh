#!/usr/bin/env bash
# Runs the filter benchmarks packed by pack_for_gpu_machine.sh (copied beside the archive as
# run.sh) on a machine without ParaView: unpacks once, puts the packed libraries first on the
# library path, registers NVIDIA's OpenCL driver (and PoCL when installed) with the ocl-icd
# loader, and runs run_filter_benchmarks.sh.
#
#   bash run.sh devices                     # the OpenCL devices the filters see
#   GPUMESH_DEVICE=NVIDIA bash run.sh core-tests --gtest_filter='DecimationDeterminism.*'
#                                           # core tests packed beside the benchmark
#   bash run.sh first-use --device NVIDIA   # the rows of vtkGPUMeshFirstUsePrograms.cxx for this
#                                           # device's kind (collect_first_use_programs.py)
#   bash run.sh [run_filter_benchmarks.sh options]   (--out defaults to $OUT/filter-benchmarks when
#                                                     $OUT is set, else it is required;
#                                                     --mesh-cache to $TMPDIR/gpumesh-filterbench-meshes)
#   bash run.sh hub [bench_smoothing_hub.py options]  (packed with gpumesh-benchmark: smoothing
#                                                     with a hub, fresh processes; JSON under --out)
#   bash run.sh mpi [run_mpi_benchmarks.sh options]  (packed with gpumesh-mpi-benchmark; the
#                                                     machine's mpirun, the environment sent to every rank;
#                                                     --out as above, $OUT/mpi-benchmarks)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
unpacked=${TMPDIR:-/tmp}/gpumesh-filterbench
if [[ ! -d $unpacked/bin || $here/gpumesh-filterbench.tar.xz -nt $unpacked/bin ]]; then
  rm -rf "$unpacked"
  tar -C "$(dirname "$unpacked")" -xJf "$here/gpumesh-filterbench.tar.xz"
fi
export LD_LIBRARY_PATH=$unpacked/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# NVIDIA's driver there has no ICD file: name it (and PoCL) in a folder of our own, and load
# the ocl-icd loader, which reads OCL_ICD_VENDORS exactly (CUDA's loader, first on the path
# there, does not). Packed Debian's loader stands in if the machine has none.
vendors=$(mktemp -d)
nvidia=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
[[ -e $nvidia ]] || nvidia=$(ldconfig -p | awk '$1 == "libnvidia-opencl.so.1" { print $NF; exit }')
if [[ -n $nvidia && -e $nvidia ]]; then
  echo "$nvidia" > "$vendors/nvidia.icd"
else
  echo "run.sh: no NVIDIA OpenCL driver (libnvidia-opencl.so.1) found" >&2
fi
[[ -e /etc/OpenCL/vendors/pocl.icd ]] && cp /etc/OpenCL/vendors/pocl.icd "$vendors/"
export OCL_ICD_VENDORS=$vendors
loader=/lib/x86_64-linux-gnu/libOpenCL.so.1
if [[ ! -e $loader ]]; then
  echo "run.sh: $loader is missing; using the packed ocl-icd loader" >&2
  loader=$unpacked/opencl/libOpenCL.so.1
fi
export LD_PRELOAD=$loader${LD_PRELOAD:+:$LD_PRELOAD}
export VTK_SMP_BACKEND_IN_USE=${VTK_SMP_BACKEND_IN_USE:-STDThread}

if [[ ${1:-} == mpi ]]; then
  shift
  # The machine's Open MPI (left out of the package): its libraries where mpirun's are.
  if ! ldconfig -p | grep -q 'libmpi\.so\.40 '; then
    export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$(dirname "$(command -v mpirun)")/../lib
  fi
  { date -u; uname -srm; nvidia-smi -L 2>/dev/null || true; echo "$(nproc) cores"; mpirun --version | head -1; } | sed 's/^/run.sh: /'
  exec "$unpacked/bin/run_mpi_benchmarks.sh" --binary "$unpacked/bin/gpumesh-mpi-benchmark" \
    --mpirun "mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x LD_PRELOAD -x OCL_ICD_VENDORS -x VTK_SMP_BACKEND_IN_USE" \
    ${OUT:+--out "$OUT/mpi-benchmarks"} "$@"
fi
if [[ ${1:-} == hub ]]; then
  shift
  { date -u; uname -srm; nvidia-smi -L 2>/dev/null || true; echo "$(nproc) cores"; } | sed 's/^/run.sh: /'
  exec python3 "$unpacked/bin/bench_smoothing_hub.py" --binary "$unpacked/bin/gpumesh-benchmark" \
    ${OUT:+--out "$OUT/smoothing-hub"} "$@"
fi
if [[ ${1:-} == first-use ]]; then
  shift
  exec python3 "$unpacked/bin/collect_first_use_programs.py" --binary "$unpacked/bin/gpumesh-filter-benchmark" "$@"
fi
if [[ ${1:-} == core-tests ]]; then
  # The core tests (packed beside the filter benchmark), GoogleTest's options after it; the
  # device from GPUMESH_DEVICE where a test reads it (GPU Decimation's determinism tests).
  shift
  exec "$unpacked/bin/GPUMeshCoreTests" "$@"
fi
if [[ ${1:-} == devices ]]; then
  exec "$unpacked/bin/gpumesh-filter-benchmark" --devices
fi
command -v python3 > /dev/null || { echo "run.sh: python3 is needed to aggregate the runs" >&2; exit 2; }
# The machine, for the record (the device itself is named in every result line).
{ date -u; uname -srm; nvidia-smi -L 2>/dev/null || true; echo "$(nproc) cores"; } | sed 's/^/run.sh: /'
if [[ " $* " != *" --out "* && -n ${OUT:-} ]]; then
  set -- --out "$OUT/filter-benchmarks" "$@"
fi
# Meshes are generated once and kept outside $OUT (they are large and need not come back).
if [[ " $* " != *" --mesh-cache "* ]]; then
  set -- --mesh-cache "${TMPDIR:-/tmp}/gpumesh-filterbench-meshes" "$@"
fi
exec "$unpacked/bin/run_filter_benchmarks.sh" --binary "$unpacked/bin/gpumesh-filter-benchmark" "$@"
