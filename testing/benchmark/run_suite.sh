#!/usr/bin/env bash
# The benchmark suite behind BENCHMARKS.md: every core operation over a range of mesh sizes,
# on one device, one JSON file per size (named for the mesh and size), then the plots.
#   testing/benchmark/run_suite.sh <gpumesh-benchmark> <device spec> <output folder> [repeat]
# On the lent GPU machine (see SETUP.md for registering NVIDIA's OpenCL):
#   run_suite.sh build-core/bin/gpumesh-benchmark NVIDIA results/h200 10
#   run_suite.sh build-core/bin/gpumesh-benchmark 1 results/h200-pocl 3      # PoCL, same machine
set -euo pipefail
benchmark=$1 device=$2 out=$3 repeat=${4:-10}
mkdir -p "$out"
run() { # name size arguments...
  local name=$1 size=$2
  shift 2
  "$benchmark" --device "$device" --repeat "$repeat" --json "$out/${name}_${size}.json" "$@" > "$out/${name}_${size}.txt"
  grep -v '^    ' "$out/${name}_${size}.txt" | tail -n +3
}
run reduction 100000000 --reduce-size 100000000
for size in 1000000 4000000 16000000 30000000; do
  run triangles "$size" --reduce-size 0 --triangles "$size" --refine "$size"
done
run triangles-shuffled 30000000 --reduce-size 0 --triangles 30000000 --refine 30000000 --shuffle
for size in 1000000 4000000 10000000; do
  run tetrahedra "$size" --reduce-size 0 --tetrahedra "$size"
done
run tetrahedra-shuffled 10000000 --reduce-size 0 --tetrahedra 10000000 --shuffle
