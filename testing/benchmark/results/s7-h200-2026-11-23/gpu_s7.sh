#!/usr/bin/env bash
# Seventh session, one H200: buckets counted, filled and ranked per window of owner vertices.
part=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc
mkdir -p /tmp/icd; echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
core() { OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=$PWD/.carry/core/lib "$@"; }
matching() { # out grouping [env...]
  local out=$1 grouping=$2; shift 2
  env "$@" OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=$PWD/.carry/core/lib \
    timeout 200 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 --matching-grouping $grouping > $OUT/$out.txt 2>&1
  echo "== $out ($*) rc $?"; grep -v "^    " $OUT/$out.txt | grep "unique edges.*kernels" | cut -c1-150
  grep -A30 "no high degree (random order): unique edges, windows (kernels)" $OUT/$out.txt | grep -E "^    " | head -28
}
case $part in
  one)
    core timeout 240 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching w4096-i8-g256 all
    matching w2048-i8-g256 windows GPUMESH_KEY_WINDOWS=2048
    matching w8192-i8-g256 windows GPUMESH_KEY_WINDOWS=8192
    matching w4096-i4-g256 windows GPUMESH_KEY_ITEMS=4
    matching w4096-i16-g256 windows GPUMESH_KEY_ITEMS=16
    matching w4096-i8-g512 windows GPUMESH_KEY_WG=512 ;;
  two)
    core timeout 240 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching subwindows all ;;
  three)
    core timeout 240 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching s256-c2048 all
    matching s128-c2048 windows GPUMESH_SORT_WG=128
    matching s512-c2048 windows GPUMESH_SORT_WG=512
    matching s256-c1024 windows GPUMESH_CAPACITY=1024
    matching s128-c1024 windows GPUMESH_SORT_WG=128 GPUMESH_CAPACITY=1024 ;;
  four)
    core timeout 240 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching c1024-r2048 all
    matching c1024-r1024 windows GPUMESH_RUN_CAPACITY=1024
    matching c512-r2048 windows GPUMESH_CAPACITY=512 ;;
  five)
    matching b9-c1024-g256 all
    matching b9-c1024-g128 windows GPUMESH_SORT_WG=128
    matching b8-c1024-g256 windows GPUMESH_SUB_BITS=8
    matching b9-c2048-g256 windows GPUMESH_CAPACITY=2048
    matching b10-c1024-g256 windows GPUMESH_SUB_BITS=10 ;;
  six)
    core timeout 240 .carry/core/bin/GPUMeshCoreTests --gtest_filter='CellEntities*:*Neighbor*:*Refine*' > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching emit-fold all ;;
  seven)
    core timeout 240 .carry/core/bin/GPUMeshCoreTests --gtest_filter='CellEntities*:*Neighbor*:*Refine*' > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching c2048-g256 all
    matching c2048-g512 windows GPUMESH_SORT_WG=512
    matching c4096-g512 windows GPUMESH_SORT_WG=512 GPUMESH_CAPACITY=4096
    matching c2048-g256-s3 windows GPUMESH_SORT_SHARE=3
    matching c4096-g256 windows GPUMESH_CAPACITY=4096 ;;
  eight)
    # Final: the submitted core library against main before this session (ca62e00), side by side.
    core timeout 240 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    md5sum .carry/core/lib/libGPUMeshCore.so.0.1.0 .carry/before7/libGPUMeshCore.so.0.1.0
    for round in 1 2; do
      matching after-$round all
      mkdir -p /tmp/before/lib; cp .carry/before7/libGPUMeshCore.so.0.1.0 /tmp/before/lib/libGPUMeshCore.so.0
      env OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=/tmp/before/lib \
        timeout 200 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 --matching-grouping all > $OUT/before-$round.txt 2>&1
      echo "== before-$round rc $?"; grep -v "^    " $OUT/before-$round.txt | grep "unique edges.*kernels" | cut -c1-150
      grep -c "sort sub-window" $OUT/before-$round.txt
    done ;;
  nine)
    core timeout 240 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching fused-1 all
    matching fused-2 all ;;
  ten)
    core timeout 240 .carry/core/bin/GPUMeshCoreTests --gtest_filter='CellEntities*:*Neighbor*:*Refine*:*Smooth*' > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching grid-emit-1 all
    matching grid-emit-2 all ;;
  eleven)
    core timeout 240 .carry/core/bin/GPUMeshCoreTests --gtest_filter='CellEntities*:*Neighbor*:*Refine*:*Smooth*' > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching edges-staged-8-1 all
    matching edges-staged-8-2 all ;;
  twelve)
    # The submitted core library against main before this session (ca62e00), side by side (run
    # twice: at f971ad9, whose run bounds were binary-searched, and after their fix).
    core timeout 240 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    md5sum .carry/core/lib/libGPUMeshCore.so.0.1.0 .carry/before7/libGPUMeshCore.so.0.1.0
    mkdir -p /tmp/before/lib; cp .carry/before7/libGPUMeshCore.so.0.1.0 /tmp/before/lib/libGPUMeshCore.so.0
    for round in 1 2; do
      matching after-$round all
      env OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=/tmp/before/lib \
        timeout 200 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 --matching-grouping all > $OUT/before-$round.txt 2>&1
      echo "== before-$round rc $?"; grep -v "^    " $OUT/before-$round.txt | grep "unique edges.*kernels" | cut -c1-150
    done
    for v in after before; do
      lib=$PWD/.carry/core/lib; [[ $v == before ]] && lib=/tmp/before/lib
      OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=$lib timeout 200 \
        .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --reduce-size 0 --tetrahedra 10000000 --shuffle \
        --smoothing-iterations 1 > $OUT/tets-shuffled-$v.txt 2>&1
      echo "== tets shuffled $v rc $?"; grep -v "^    " $OUT/tets-shuffled-$v.txt | grep -i "neighbo.*kernels\|smoothing.*kernels" | cut -c1-150
    done ;;
  thirteen)
    # The submitted library (17c471a): core tests, matching; then through the filters: the same pack, its core library swapped for main's before this
    # session (ca62e00; no public interface changed) in the before tree.
    core timeout 240 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching after-final all
    mkdir -p /tmp/a /tmp/b /tmp/x
    for v in a b; do tar -C /tmp/$v -xJf .carry/filterbench/gpumesh-filterbench.tar.xz; done
    cp .carry/before7/libGPUMeshCore.so.0.1.0 /tmp/b/gpumesh-filterbench/lib/libGPUMeshCore.so.0
    # run.sh unpacks again when the archive is newer than the unpacked bin/: mark both newer.
    touch /tmp/a/gpumesh-filterbench/bin /tmp/b/gpumesh-filterbench/bin
    md5sum /tmp/?/gpumesh-filterbench/lib/libGPUMeshCore.so.0
    bench() { # variant out cases [extra...]
      local v=$1 out=$2 cases=$3; shift 3
      TMPDIR=/tmp/$v timeout 280 bash .carry/filterbench/run.sh --device NVIDIA --runs 5 --out $OUT/$out --cases "$cases" \
        --mesh-cache /tmp/x/meshes "$@" > $OUT/$out.log 2>&1
      echo "== $out rc $?"; grep "^| gpu\|^| vtk" $OUT/$out/summary.md 2>/dev/null | cut -c1-250
    }
    for v in b a; do bench $v shuf-$v gpu-neighbor-distance@triangles-shuffled,gpu-refinement-marked@triangles-shuffled --triangles 30000000 --point-type float; done
    for v in b a; do bench $v tets-$v gpu-neighbor-distance@tetrahedra-shuffled --tetrahedra 10000000; done
    grep -l "sort sub-window" $OUT/*-b/logs/*.out && echo "== WRONG: before ran the new library"
    grep -L "sort sub-window" $OUT/shuf-a/logs/gpu-neighbor*.out && echo "== after did not go through sub-windows" ;;
  fourteen)
    # The submitted head (f6ecc0c, then after the review): core tests and matching, on a fresh instance.
    core timeout 240 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    matching submitted all ;;
esac
tar -C $OUT -czf $OUT/s7-$part.tgz --exclude='*.tgz' . 2>/dev/null; ls $OUT
