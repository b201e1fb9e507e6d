#!/usr/bin/env bash
# The filter benchmarks behind docs/benchmarks.md: each (filter, mesh, size) case of
# gpumesh-filter-benchmark in N fresh processes, every run written to <out>/runs.jsonl (started
# afresh unless --append), and after each case the median, min and max of each figure in
# <out>/summary.md and <out>/summary.json (so a run cut short still leaves a table).
#
#   run_filter_benchmarks.sh --binary PATH --out DIR [--runs 5] [--device SPEC]
#       [--triangles N] [--tetrahedra N] [--filters a,b,...] [--meshes a,b,...]
#       [--cases filter@mesh,...] [--warmup full|small|none] [--vtk-warmup none|small|full]
#       [--fan-degree D] [--mesh-cache DIR] [--timeout SECONDS] [--append] [--dry-run]
#       [--marked-fractions F,F,...] [--point-type float|double] [--cell-arrays none|three]
#
# Everything is written under --out (required; choose a folder outside the checkout).
# Here (PoCL):       run_filter_benchmarks.sh --binary build/bin/gpumesh-filter-benchmark --out /tmp/gpumesh-bench/cpu --device cpu
# GPU machine:       run_filter_benchmarks.sh ... --device NVIDIA --triangles 30000000 --tetrahedra 10000000
# User-written Laplacian beside the built-in one (step_kernel_ms: device time per iteration):
#   run_filter_benchmarks.sh ... --device NVIDIA --triangles 30000000 \
#     --cases gpu-vertex-smoothing@triangles,gpu-kernel-laplacian@triangles
# WindowedSinc, 20 iterations, beside vtkWindowedSincPolyDataFilter with the same options (issue 27):
#   run_filter_benchmarks.sh ... --cases gpu-windowed-sinc@triangles,vtk-windowed-sinc-20@triangles
# Tetrahedron refinement, 0.1% and 10% marked:
#   run_filter_benchmarks.sh ... --device NVIDIA --tetrahedra 10000000 \
#     --cases gpu-refinement-marked@tetrahedra --marked-fractions 0.001,0.1
#
# --marked-fractions (default 0.001): gpu-refinement-marked runs once per fraction of marked cells.
# --point-type (default double): the generated points' type; the filters' Precision is Auto, so
# float points run Single kernels and double points Double kernels.
# --cell-arrays three (default none): every input carries an int, a float and a 3-component
# double cell array (what a refinement gives each child from its parent).
#
# --warmup applies to GPUMesh's filters (default full: an identical input first, so kernel
# compilation and buffers sized for the input stay out of the timed run); VTK's own compile
# nothing and run without a warm-up unless --vtk-warmup says otherwise (it would double their
# time, the longest of the set). Without --cases, every case of the default matrix below whose
# filter is in --filters and whose mesh is in --meshes (both default to all).
# `gpumesh-filter-benchmark --list` names filters and meshes. --mesh-cache keeps each generated
# mesh in DIR for the later processes (at 30M triangles, generating takes longer than most filters).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
binary="" out="" runs=5 device=auto triangles=2000000 tetrahedra=1000000
point_type=double marked_fractions=0.001 filters="" meshes="" cases="" warmup=full vtk_warmup=none fan_degree=16384 timeout_s=900 dry_run=0 append=0 mesh_cache="" cell_arrays=none

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --binary) binary=$2 ;;
    --out) out=$2 ;;
    --runs) runs=$2 ;;
    --device) device=$2 ;;
    --triangles) triangles=$2 ;;
    --tetrahedra) tetrahedra=$2 ;;
    --filters) filters=$2 ;;
    --meshes) meshes=$2 ;;
    --cases) cases=$2 ;;
    --warmup) warmup=$2 ;;
    --vtk-warmup) vtk_warmup=$2 ;;
    --fan-degree) fan_degree=$2 ;;
    --point-type) point_type=$2 ;;
    --marked-fractions) marked_fractions=$2 ;;
    --mesh-cache) mesh_cache=$2 ;;
    --cell-arrays) cell_arrays=$2 ;;
    --timeout) timeout_s=$2 ;;
    --dry-run) dry_run=1; shift; continue ;;
    --append) append=1; shift; continue ;;
    -h|--help) usage 0 ;;
    *) echo "unknown option $1" >&2; usage ;;
  esac
  [[ $# -ge 2 ]] || { echo "missing value after $1" >&2; exit 2; }
  shift 2
done
[[ -n $binary && -n $out ]] || { echo "--binary and --out are required" >&2; usage; }
[[ -x $binary ]] || { echo "not an executable: $binary" >&2; exit 2; }
[[ $runs =~ ^[0-9]+$ && $runs -ge 1 ]] || { echo "--runs must be a positive number" >&2; exit 2; }

# The default matrix: VTK's own filters beside ours on the row-order triangles; the
# topology-building filters on the hostile meshes (random numbering, a high-degree vertex).
gpu_all="gpu-cell-reduction gpu-neighbor-distance gpu-vertex-smoothing gpu-refinement-marked gpu-refinement-all"
matrix=""
for f in $gpu_all gpu-kernel-laplacian gpu-windowed-sinc vtk-cell-size vtk-smooth vtk-windowed-sinc vtk-windowed-sinc-20; do matrix+=" $f@triangles"; done
for f in $gpu_all; do matrix+=" $f@triangles-shuffled"; done
for f in gpu-neighbor-distance gpu-vertex-smoothing gpu-refinement-marked; do matrix+=" $f@triangles-fan"; done
for f in gpu-cell-reduction gpu-neighbor-distance gpu-vertex-smoothing gpu-refinement-marked vtk-cell-size; do matrix+=" $f@tetrahedra"; done

in_list() { # word comma-list: true when the list is empty or holds the word
  [[ -z $2 ]] || [[ ",$2," == *",$1,"* ]]
}
selected=()
if [[ -n $cases ]]; then
  IFS=, read -r -a selected <<< "$cases"
else
  for c in $matrix; do
    in_list "${c%@*}" "$filters" && in_list "${c#*@}" "$meshes" && selected+=("$c")
  done
fi
[[ ${#selected[@]} -gt 0 ]] || { echo "no case selected" >&2; exit 2; }

mkdir -p "$out/logs"
if [[ -n $mesh_cache ]]; then
  # One folder per binary: meshes of another build (another generator) are never read back.
  mesh_cache=$mesh_cache/$(cksum < "$binary" | cut -d' ' -f1)
  [[ $dry_run -eq 1 ]] || mkdir -p "$mesh_cache"
fi
[[ $append -eq 1 || $dry_run -eq 1 ]] || : > "$out/runs.jsonl"
export VTK_SMP_BACKEND_IN_USE=${VTK_SMP_BACKEND_IN_USE:-STDThread}
summarize() {
  python3 "$here/aggregate_filter_benchmarks.py" "$out/runs.jsonl" \
    --markdown "$out/summary.md" --json "$out/summary.json"
}

failures=0
for c in "${selected[@]}"; do
  filter=${c%@*} mesh=${c#*@}
  case $mesh in
    tetrahedra*) cells=$tetrahedra ;;
    *) cells=$triangles ;;
  esac
  case $filter in
    vtk-*) filter_warmup=$vtk_warmup ;;
    *) filter_warmup=$warmup ;;
  esac
  fractions=(0.001)
  [[ $filter != gpu-refinement-marked ]] || IFS=, read -r -a fractions <<< "$marked_fractions"
  for fraction in "${fractions[@]}"; do
    command=("$binary" --filter "$filter" --mesh "$mesh" --cells "$cells" --device "$device"
      --warmup "$filter_warmup" --fan-degree "$fan_degree" --point-type "$point_type"
      --cell-arrays "$cell_arrays")
    tag=""
    [[ $filter != gpu-refinement-marked ]] || { command+=(--marked-fraction "$fraction"); tag="_$fraction"; }
    [[ -z $mesh_cache ]] || command+=(--mesh-cache "$mesh_cache")
    if [[ $dry_run -eq 1 ]]; then
      echo "${command[*]}   (x$runs)"
      continue
    fi
    for ((r = 1; r <= runs; ++r)); do
      log="$out/logs/${filter}_${mesh}_${cells}${tag}_$r"
      status=0
      timeout "$timeout_s" "${command[@]}" > "$log.out" 2> "$log.err" || status=$?
      if [[ $status -eq 0 ]] && [[ -s $log.out ]]; then
        tail -n 1 "$log.out" >> "$out/runs.jsonl"
        echo "$filter $mesh $cells run $r: $(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print("wall %.1f ms, kernels %.1f ms" % (r["wall_ms"], r["kernel_ms"]))' "$(tail -n 1 "$log.out")")"
      else
        failures=$((failures + 1))
        reason=$( (tail -n 3 "$log.err"; [[ $status -eq 124 ]] && echo "timed out after ${timeout_s} s") | tr '\n' ' ')
        python3 -c 'import json,sys; print(json.dumps({"filter": sys.argv[1], "mesh": sys.argv[2], "cells_requested": int(sys.argv[3]), "error": "exit %s: %s" % (sys.argv[4], sys.argv[5])}))' \
          "$filter" "$mesh" "$cells" "$status" "$reason" >> "$out/runs.jsonl"
        echo "$filter $mesh $cells run $r FAILED (exit $status): $reason" >&2
      fi
    done
    summarize > /dev/null
  done
done
[[ $dry_run -eq 1 ]] && exit 0
cat "$out/summary.md"
[[ $failures -eq 0 ]] || { echo "$failures run(s) failed: see $out/logs" >&2; exit 1; }
