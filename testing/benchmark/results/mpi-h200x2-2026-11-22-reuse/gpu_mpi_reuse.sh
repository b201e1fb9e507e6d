#!/usr/bin/env bash
# Under MPI on 2 H200s: Neighbor Distance and Vertex Smoothing, a new filter per run (builds the
# ghosted piece) against re-executions of one filter (reuses it), 30M triangles.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc
export TMPDIR=/tmp/m; mkdir -p /tmp/m
for mode in 0 1; do
  timeout 280 bash .carry/mpibench/run.sh mpi --triangles 30000000 --runs 3 --processes "1 2" \
    --filters "neighbor-distance vertex-smoothing" --reexecute $mode --out $OUT/reexecute-$mode > $OUT/reexecute-$mode.log 2>&1
  echo "== reexecute $mode rc $?"; grep "^| " $OUT/reexecute-$mode.log | cut -c1-200
done
tar -C $OUT -czf $OUT/mpi-reuse.tgz --exclude='*.tgz' . 2>/dev/null; ls $OUT
