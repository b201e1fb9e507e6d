#!/usr/bin/env bash
# The core benchmark suite of docs/benchmarks.md: every core operation over a range of mesh
# sizes, on one device, one JSON file per size (<mesh>_<size>.json) in the output folder, which
# plot_benchmarks.py turns into plots.
#   testing/benchmark/run_suite.sh <gpumesh-benchmark> <device spec> <output folder> [repeat]
# e.g. (the output folder outside the checkout):
#   run_suite.sh build/bin/gpumesh-benchmark NVIDIA /tmp/gpumesh-suite/gpu 10
#   run_suite.sh build/bin/gpumesh-benchmark cpu /tmp/gpumesh-suite/cpu 3      # PoCL
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
# Smoothing with a hub: the grid beside a fan of 16384 triangles against beside a strip.
run smoothing-hub 30000000 --reduce-size 0 --smoothing-hub 30000000 --hub-degree 16384
