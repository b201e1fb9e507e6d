#!/usr/bin/env bash
# Streamed (non-temporal) stores into and out of the staging chunks: the same filters with the
# core library before (b) and after (a), side by side.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc
for v in a b; do
  mkdir -p /tmp/$v; tar -C /tmp/$v -xJf .carry/filterbench/gpumesh-filterbench.tar.xz
done
cp .carry/ntafter/libGPUMeshCore.so.0.1.0 /tmp/a/gpumesh-filterbench/lib/libGPUMeshCore.so.0
cp .carry/ntbefore/libGPUMeshCore.so.0.1.0 /tmp/b/gpumesh-filterbench/lib/libGPUMeshCore.so.0
touch /tmp/a/gpumesh-filterbench/bin /tmp/b/gpumesh-filterbench/bin
md5sum /tmp/?/gpumesh-filterbench/lib/libGPUMeshCore.so.0
mkdir -p /tmp/x
bench() { # variant out cases [extra...]
  local v=$1 out=$2 cases=$3; shift 3
  TMPDIR=/tmp/$v timeout 200 bash .carry/filterbench/run.sh --device NVIDIA --runs 5 --out $OUT/$out --cases "$cases" \
    --mesh-cache /tmp/x/meshes "$@" > $OUT/$out.log 2>&1
  echo "== $out rc $?"; grep "^| gpu" $OUT/$out/summary.md 2>/dev/null | cut -c1-200
}
for round in 1 2; do
  for v in b a; do bench $v up$round-$v gpu-cell-reduction@triangles,gpu-neighbor-distance@triangles,gpu-refinement-marked@triangles --triangles 30000000 --point-type float; done
done
for v in b a; do bench $v all-$v gpu-refinement-all@triangles --triangles 30000000; done
tar -C $OUT -czf $OUT/nt.tgz --exclude='*.tgz' . 2>/dev/null; ls $OUT | head -3
