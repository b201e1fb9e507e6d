#!/usr/bin/env bash
# Staging before/after side by side: the same filters, core library with the old (two 64 MiB
# chunks, 8 threads per chunk) or the new staging (per-worker 4 MiB chunk pairs).
part=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc
for v in a b; do
  mkdir -p /tmp/$v
  if [[ ! -d /tmp/$v/gpumesh-filterbench/bin ]]; then
    tar -C /tmp/$v -xJf .carry/filterbench/gpumesh-filterbench.tar.xz
  fi
done
cp .carry/stagingbefore/libGPUMeshCore.so.0.1.0 /tmp/b/gpumesh-filterbench/lib/libGPUMeshCore.so.0
touch /tmp/a/gpumesh-filterbench/bin /tmp/b/gpumesh-filterbench/bin
md5sum /tmp/?/gpumesh-filterbench/lib/libGPUMeshCore.so.0
mkdir -p /tmp/x
bench() { # variant out cases [extra...]
  local v=$1 out=$2 cases=$3; shift 3
  TMPDIR=/tmp/$v timeout 250 bash .carry/filterbench/run.sh --device NVIDIA --runs 5 --out $OUT/$out --cases "$cases" \
    --mesh-cache /tmp/x/meshes "$@" > $OUT/$out.log 2>&1
  echo "== $out rc $?"; grep "^| gpu\|^| vtk" $OUT/$out/summary.md 2>/dev/null | cut -c1-250
}
case $part in
  one)
    (mkdir -p /tmp/icd; echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
     OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=$PWD/.carry/core/lib \
       timeout 150 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests on the GPU rc $?")
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    for v in b a; do bench $v cr-$v gpu-cell-reduction@triangles,gpu-refinement-marked@triangles --triangles 30000000 --point-type float; done
    for v in b a; do bench $v cr2-$v gpu-cell-reduction@triangles --triangles 30000000 --point-type float; done ;;
  two)
    for v in b a; do bench $v nd-$v gpu-neighbor-distance@triangles,gpu-vertex-smoothing@triangles --triangles 30000000 --point-type float; done
    for v in b a; do bench $v all-$v gpu-refinement-all@triangles --triangles 30000000; done ;;
esac
tar -C $OUT -czf $OUT/staging-$part.tgz --exclude='*.tgz' . 2>/dev/null; ls $OUT
