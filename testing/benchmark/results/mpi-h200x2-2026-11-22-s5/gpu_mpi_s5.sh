#!/usr/bin/env bash
# Under MPI on 2 H200s, re-executions of Neighbor Distance and Vertex Smoothing (the ghosted
# piece reused), 30M triangles: the MPI benchmark packed before (.carry/mpibefore, main at
# 21:05) and after this session's parallel loops back to the input's layout.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc
for v in before after; do
  dir=.carry/mpibench; [[ $v == before ]] && dir=.carry/mpibefore
  processes="1 2"; [[ $v == before ]] && processes=2
  mkdir -p /tmp/$v
  TMPDIR=/tmp/$v timeout 260 bash $dir/run.sh mpi --triangles 30000000 --runs 3 --processes "$processes" \
    --filters "neighbor-distance vertex-smoothing" --reexecute 1 --out $OUT/reexecute-$v > $OUT/reexecute-$v.log 2>&1
  echo "== $v rc $?"; grep "^| " $OUT/reexecute-$v.log | cut -c1-200
done
tar -C $OUT -czf $OUT/mpi-s5.tgz --exclude='*.tgz' . 2>/dev/null; ls $OUT
