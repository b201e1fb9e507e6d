#!/usr/bin/env bash
# Fifth session, one H200: before (.carry/before, main at ead0156) and after (this build) side by
# side: core matching, core smoothing, and the filters whose upload changed.
part=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc
mkdir -p /tmp/icd /tmp/x; echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
for v in a b; do
  mkdir -p /tmp/$v
  [[ -d /tmp/$v/gpumesh-filterbench/bin ]] || tar -C /tmp/$v -xJf .carry/filterbench/gpumesh-filterbench.tar.xz
done
cp .carry/before/libGPUMeshCore.so.0.1.0 /tmp/b/gpumesh-filterbench/lib/libGPUMeshCore.so.0
mkdir -p /tmp/blib; cp .carry/before/libGPUMeshCore.so.0.1.0 /tmp/blib/libGPUMeshCore.so.0
md5sum /tmp/?/gpumesh-filterbench/lib/libGPUMeshCore.so.0 .carry/core/lib/libGPUMeshCore.so.0.1.0
core() { OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=$1 "${@:2}"; }
bench() { # variant out cases [extra...]
  local v=$1 out=$2 cases=$3; shift 3
  TMPDIR=/tmp/$v timeout 250 bash .carry/filterbench/run.sh --device NVIDIA --runs 5 --out $OUT/$out --cases "$cases" \
    --mesh-cache /tmp/x/meshes "$@" > $OUT/$out.log 2>&1
  echo "== $out rc $?"; grep "^| gpu\|^| vtk" $OUT/$out/summary.md 2>/dev/null | cut -c1-250
}
case $part in
  one)
    core $PWD/.carry/core/lib timeout 150 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    for v in b a; do
      lib=$PWD/.carry/core/lib; [[ $v == b ]] && lib=/tmp/blib
      core $lib timeout 200 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 > $OUT/matching-$v.txt 2>&1
      echo "== matching $v rc $?"; grep -v "^    " $OUT/matching-$v.txt | grep "kernels" | cut -c1-120
    done
    for v in b a; do bench $v cr-$v gpu-cell-reduction@triangles --triangles 30000000 --point-type float; done ;;
  two)
    for v in b a; do bench $v cr2-$v gpu-cell-reduction@triangles --triangles 30000000 --point-type float; done
    for v in b a; do bench $v rn-$v gpu-refinement-marked@triangles,gpu-neighbor-distance@triangles --triangles 30000000 --point-type float; done
    core $PWD/.carry/core/lib timeout 150 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --reduce-size 0 --triangles 30000000 --smoothing-iterations 10 > $OUT/tri30m.txt 2>&1
    echo "== tri30m rc $?"; grep -i "smoothing.*per iteration\|^    barycentres\|^    relax\|unique edges" $OUT/tri30m.txt ;;
  three)
    core $PWD/.carry/core/lib timeout 150 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    core $PWD/.carry/core/lib timeout 200 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 > $OUT/matching-a.txt 2>&1
    echo "== matching a rc $?"; grep -v "^    " $OUT/matching-a.txt | grep "kernels" | cut -c1-120
    for v in b a; do bench $v all-$v gpu-refinement-all@triangles --triangles 30000000; done
    for v in b a; do bench $v sm-$v gpu-vertex-smoothing@triangles --triangles 30000000 --point-type float; done
    bench a tets gpu-refinement-marked@tetrahedra --tetrahedra 10000000 --marked-fractions 0.001 ;;
  four)
    core $PWD/.carry/core/lib timeout 150 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    for v in b a; do
      lib=$PWD/.carry/core/lib; [[ $v == b ]] && lib=/tmp/blib
      core $lib timeout 150 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --reduce-size 0 --triangles 30000000 --smoothing-iterations 10 > $OUT/tri30m-$v.txt 2>&1
      echo "== tri30m $v rc $?"; grep -i "smoothing.*per iteration\|^    barycentres\|^    relax" $OUT/tri30m-$v.txt
      core $lib timeout 150 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --reduce-size 0 --tetrahedra 10000000 --smoothing-iterations 10 > $OUT/tet10m-$v.txt 2>&1
      echo "== tet10m $v rc $?"; grep -i "smoothing.*per iteration\|^    barycentres\|^    relax" $OUT/tet10m-$v.txt
    done ;;
  five)
    core $PWD/.carry/core/lib timeout 150 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    for v in b a; do bench $v rn-$v gpu-refinement-marked@triangles,gpu-neighbor-distance@triangles --triangles 30000000 --point-type float; done
    for v in b a; do bench $v all-$v gpu-refinement-all@triangles --triangles 30000000; done
    bench a tets gpu-refinement-marked@tetrahedra --tetrahedra 10000000 --marked-fractions 0.001
    bench a cr gpu-cell-reduction@triangles,gpu-vertex-smoothing@triangles --triangles 30000000 --point-type float ;;
  six)
    core $PWD/.carry/core/lib timeout 150 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    core $PWD/.carry/core/lib timeout 150 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --reduce-size 0 --triangles 30000000 --smoothing-iterations 10 > $OUT/tri30m-a.txt 2>&1
    echo "== tri30m rc $?"; grep -i "smoothing.*per iteration\|^    barycentres\|^    relax" $OUT/tri30m-a.txt
    bench a fin gpu-cell-reduction@triangles,gpu-refinement-marked@triangles,gpu-neighbor-distance@triangles --triangles 30000000 --point-type float ;;
esac
tar -C $OUT -czf $OUT/s5-$part.tgz --exclude='*.tgz' . 2>/dev/null; ls $OUT
