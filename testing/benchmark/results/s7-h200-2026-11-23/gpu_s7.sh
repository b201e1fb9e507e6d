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
esac
tar -C $OUT -czf $OUT/s7-$part.tgz --exclude='*.tgz' . 2>/dev/null; ls $OUT
