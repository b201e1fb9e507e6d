#!/usr/bin/env bash
# End-of-session runs on one H200: core tests on the GPU, the filters at 30M triangles and 10M tetrahedra.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc
mkdir -p /tmp/x /tmp/icd; echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
(OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=$PWD/.carry/core/lib \
   timeout 150 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests on the GPU rc $?")
grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
bench() { # out cases [extra...]
  local out=$1 cases=$2; shift 2
  TMPDIR=/tmp/x timeout 200 bash .carry/filterbench/run.sh --device NVIDIA --runs 5 --out $OUT/$out --cases "$cases" \
    --mesh-cache /tmp/x/meshes "$@" > $OUT/$out.log 2>&1
  echo "== $out rc $?"; grep "^| gpu\|^| vtk\|step kernels" $OUT/$out/summary.md 2>/dev/null | cut -c1-250
}
bench float gpu-refinement-marked@triangles,gpu-cell-reduction@triangles,gpu-neighbor-distance@triangles,gpu-vertex-smoothing@triangles --triangles 30000000 --point-type float
bench all gpu-refinement-all@triangles --triangles 30000000
bench tets gpu-refinement-marked@tetrahedra --tetrahedra 10000000 --marked-fractions 0.001
tar -C $OUT -czf $OUT/end.tgz --exclude='*.tgz' float all tets float.log all.log tets.log 2>/dev/null; ls $OUT
