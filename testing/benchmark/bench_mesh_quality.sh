#!/usr/bin/env bash
# GPU Mesh Quality beside vtkMeshQuality (ParaView's Mesh Quality), Radius Ratio of triangles and
# of tetrahedra, end to end through the filters (gpumesh-filter-benchmark's gpu-mesh-quality and
# vtk-mesh-quality cases), N fresh processes each, via run_filter_benchmarks.sh; VTK's filter on
# --threads threads (STDThread). Raw runs and the summary go under --out.
#
#   bench_mesh_quality.sh --binary PATH --out DIR [--runs 5] [--device SPEC]
#       [--triangles 1000000] [--tetrahedra 1000000] [--threads 2] [--point-type double]
#
# Here (PoCL, 2 cores):
#   testing/benchmark/bench_mesh_quality.sh --binary build/bin/gpumesh-filter-benchmark \
#     --out /work/bench-results/mesh-quality-cpu --device cpu --threads 2
# GPU machine (NVIDIA, 16 threads for VTK):
#   bench_mesh_quality.sh --binary .../gpumesh-filter-benchmark --out DIR --device NVIDIA \
#     --triangles 30000000 --tetrahedra 10000000 --threads 16 --runs 5
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
binary="" out="" runs=5 device=auto triangles=1000000 tetrahedra=1000000 threads=2 point_type=double
while [[ $# -gt 0 ]]; do
  case $1 in
    --binary) binary=$2 ;;
    --out) out=$2 ;;
    --runs) runs=$2 ;;
    --device) device=$2 ;;
    --triangles) triangles=$2 ;;
    --tetrahedra) tetrahedra=$2 ;;
    --threads) threads=$2 ;;
    --point-type) point_type=$2 ;;
    *) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
  shift 2
done
[[ -n $binary && -n $out ]] || { echo "--binary and --out are required" >&2; exit 2; }
export VTK_SMP_BACKEND_IN_USE=STDThread VTK_SMP_MAX_THREADS=$threads
exec "$here/run_filter_benchmarks.sh" --binary "$binary" --out "$out" --runs "$runs" --device "$device" \
  --triangles "$triangles" --tetrahedra "$tetrahedra" --point-type "$point_type" --mesh-cache "$out/meshes" \
  --cases gpu-mesh-quality@triangles,vtk-mesh-quality@triangles,gpu-mesh-quality@tetrahedra,vtk-mesh-quality@tetrahedra
