#!/usr/bin/env bash
# Sixth session, one H200: matching straight to the buckets and through windows, side by side.
part=$1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc
mkdir -p /tmp/icd; echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
core() { OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=$PWD/.carry/core/lib "$@"; }
case $part in
  one)
    core timeout 200 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    core timeout 300 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 --matching-grouping all > $OUT/matching.txt 2>&1
    echo "== matching rc $?"; grep -v "^    " $OUT/matching.txt | grep "kernels" | cut -c1-150 ;;
  two)
    for t in 1024 2048; do for w in 128 256 512; do
      GPUMESH_WINDOWS=$w GPUMESH_TILE=$t core timeout 200 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 --hub-degree 64 --matching-grouping windows > $OUT/matching-w$w-t$t.txt 2>&1
      echo "== w $w t $t rc $?"; grep -A22 "no high degree (random order): unique edges, windows (kernels)" $OUT/matching-w$w-t$t.txt | grep "kernels\|group\|count key\|place\|fill buckets\|bucket counts"
      grep "no high degree (row order): unique edges, windows (kernels)" $OUT/matching-w$w-t$t.txt
    done; done ;;
  three)
    core timeout 200 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    for n in 30000000 1500000 5000000; do
      core timeout 300 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching $n --matching-grouping all > $OUT/matching-$n.txt 2>&1
      echo "== matching $n rc $?"; grep -v "^    " $OUT/matching-$n.txt | grep "unique edges.*kernels" | cut -c1-150
    done
    grep -A24 "no high degree (random order): unique edges, windows (kernels)" $OUT/matching-30000000.txt
    grep -A14 "no high degree (row order): unique edges, direct (kernels)" $OUT/matching-30000000.txt ;;
  four)
    for v in a b; do
      mkdir -p /tmp/$v
      [[ -d /tmp/$v/gpumesh-filterbench/bin ]] || tar -C /tmp/$v -xJf .carry/filterbench/gpumesh-filterbench.tar.xz
    done
    cp .carry/before6/libGPUMeshCore.so.0.1.0 /tmp/b/gpumesh-filterbench/lib/libGPUMeshCore.so.0
    # run.sh unpacks again when the archive is newer than the unpacked bin/ (a copied working tree
    # makes it so), which would put the new library back: mark both unpacked trees newer.
    touch /tmp/a/gpumesh-filterbench/bin /tmp/b/gpumesh-filterbench/bin
    md5sum /tmp/?/gpumesh-filterbench/lib/libGPUMeshCore.so.0 .carry/core/lib/libGPUMeshCore.so.0.1.0
    bench() { # variant out cases [extra...]
      local v=$1 out=$2 cases=$3; shift 3
      TMPDIR=/tmp/$v timeout 280 bash .carry/filterbench/run.sh --device NVIDIA --runs 5 --out $OUT/$out --cases "$cases" \
        --mesh-cache /tmp/x/meshes "$@" > $OUT/$out.log 2>&1
      echo "== $out rc $?"; grep "^| gpu\|^| vtk" $OUT/$out/summary.md 2>/dev/null | cut -c1-250
    }
    core timeout 200 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    core timeout 300 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 --matching-grouping all > $OUT/matching.txt 2>&1
    echo "== matching rc $?"; grep -v "^    " $OUT/matching.txt | grep "kernels" | cut -c1-150
    for v in b a; do bench $v shuf-$v gpu-neighbor-distance@triangles-shuffled,gpu-refinement-marked@triangles-shuffled --triangles 30000000 --point-type float; done
    for v in b a; do bench $v rows-$v gpu-neighbor-distance@triangles,gpu-refinement-marked@triangles --triangles 30000000 --point-type float; done ;;
  five)
    for v in a b; do
      mkdir -p /tmp/$v
      [[ -d /tmp/$v/gpumesh-filterbench/bin ]] || tar -C /tmp/$v -xJf .carry/filterbench/gpumesh-filterbench.tar.xz
    done
    cp .carry/before6/libGPUMeshCore.so.0.1.0 /tmp/b/gpumesh-filterbench/lib/libGPUMeshCore.so.0
    # run.sh unpacks again when the archive is newer than the unpacked bin/ (a copied working tree
    # makes it so), which would put the new library back: mark both unpacked trees newer.
    touch /tmp/a/gpumesh-filterbench/bin /tmp/b/gpumesh-filterbench/bin
    md5sum /tmp/?/gpumesh-filterbench/lib/libGPUMeshCore.so.0 .carry/core/lib/libGPUMeshCore.so.0.1.0
    bench() { # variant out cases [extra...]
      local v=$1 out=$2 cases=$3; shift 3
      TMPDIR=/tmp/$v timeout 280 bash .carry/filterbench/run.sh --device NVIDIA --runs 5 --out $OUT/$out --cases "$cases" \
        --mesh-cache /tmp/x/meshes "$@" > $OUT/$out.log 2>&1
      echo "== $out rc $?"; grep "^| gpu\|^| vtk" $OUT/$out/summary.md 2>/dev/null | cut -c1-250
    }
    core timeout 200 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    core timeout 300 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 --matching-grouping all > $OUT/matching.txt 2>&1
    echo "== matching rc $?"; grep -v "^    " $OUT/matching.txt | grep "kernels" | cut -c1-150
    for v in b a; do bench $v shuf-$v gpu-neighbor-distance@triangles-shuffled,gpu-refinement-marked@triangles-shuffled --triangles 30000000 --point-type float; done
    for v in b a; do bench $v rows-$v gpu-neighbor-distance@triangles,gpu-refinement-marked@triangles --triangles 30000000 --point-type float; done
    for v in b a; do bench $v tets-$v gpu-neighbor-distance@tetrahedra-shuffled --tetrahedra 10000000; done
    # The before runs must not have run this session's library.
    grep -l "group_keys_by_window" $OUT/*-b/logs/*.out && echo "== WRONG: before ran the new library" ;;
  six)
    # Before: main at 0a4f42d packed whole (the filters call the new CellEntities constructor,
    # so the core library alone cannot be swapped).
    bench() { # variant out cases [extra...]
      local v=$1 out=$2 cases=$3; shift 3
      local pack=.carry/filterbench; [[ $v == b ]] && pack=.carry/filterbefore
      TMPDIR=/tmp/$v timeout 280 bash $pack/run.sh --device NVIDIA --runs 5 --out $OUT/$out --cases "$cases" \
        --mesh-cache /tmp/x/meshes "$@" > $OUT/$out.log 2>&1
      echo "== $out rc $?"; grep "^| gpu\|^| vtk" $OUT/$out/summary.md 2>/dev/null | cut -c1-250
    }
    mkdir -p /tmp/a /tmp/b /tmp/x
    for v in b a; do bench $v shuf-$v gpu-neighbor-distance@triangles-shuffled,gpu-refinement-marked@triangles-shuffled --triangles 30000000 --point-type float; done
    for v in b a; do bench $v tets-$v gpu-neighbor-distance@tetrahedra-shuffled --tetrahedra 10000000; done
    for v in b a; do bench $v rows-$v gpu-neighbor-distance@triangles,gpu-refinement-marked@triangles --triangles 30000000 --point-type float; done
    grep -l "group_keys_by_window" $OUT/*-b/logs/*.out && echo "== WRONG: before ran the new library"
    # (As run, this line was `grep -L ... && echo`, which printed its message with no file listed:
    # grep -L succeeds either way. Every after run went through windows: see the logs.)
    [[ -n $(grep -L "group_keys_by_window" $OUT/shuf-a/logs/gpu-neighbor*.out $OUT/tets-a/logs/*.out) ]] && echo "== after did not go through windows" ;;
  seven)
    # Small buckets up to 64 slots (a) or 256 (b) ranked in place; larger ones radix-sorted.
    mkdir -p /tmp/sb; cp .carry/sb256/libGPUMeshCore.so.0.1.0 /tmp/sb/libGPUMeshCore.so.0
    for v in a b; do
      lib=$PWD/.carry/core/lib; [[ $v == b ]] && lib=/tmp/sb
      for order in "" --shuffle; do
        OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=$lib timeout 200 \
          .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --reduce-size 0 --tetrahedra 10000000 $order \
          --smoothing-iterations 1 > $OUT/tet10m-$v$order.txt 2>&1
        echo "== tets $v $order rc $?"; grep -v "^    " $OUT/tet10m-$v$order.txt | grep -i "neighbo.*kernels\|smoothing.*kernels" | cut -c1-150
        grep -A40 "neighbo.*(kernels)" $OUT/tet10m-$v$order.txt | grep "sort large\|sort small" | head -2
      done
      OCL_ICD_VENDORS=/tmp/icd LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1 LD_LIBRARY_PATH=$lib timeout 200 \
        .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 > $OUT/matching-$v.txt 2>&1
      echo "== matching $v rc $?"; grep -v "^    " $OUT/matching-$v.txt | grep "unique edges.*kernels" | cut -c1-150
    done ;;
  eight)
    # The final main on a fresh instance: core tests, matching, tetrahedra topology.
    core timeout 200 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    core timeout 300 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 --matching-grouping all > $OUT/matching.txt 2>&1
    echo "== matching rc $?"; grep -v "^    " $OUT/matching.txt | grep "unique edges.*kernels" | cut -c1-150
    for order in "" --shuffle; do
      core timeout 200 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --reduce-size 0 --tetrahedra 10000000 $order \
        --smoothing-iterations 1 > $OUT/tet10m$order.txt 2>&1
      echo "== tets $order rc $?"; grep -v "^    " $OUT/tet10m$order.txt | grep -i "sides.*kernels\|topology.*kernels" | cut -c1-150
    done ;;
  nine)
    # Tiles sized by the device's local memory (cb31beb): the same figures expected as part eight.
    core .carry/core/bin/gpumesh-benchmark --list-devices | head -5
    core timeout 200 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    core timeout 300 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 --matching-grouping all > $OUT/matching.txt 2>&1
    echo "== matching rc $?"; grep -v "^    " $OUT/matching.txt | grep "unique edges.*kernels" | cut -c1-150 ;;
  ten)
    # After the review (1924231): one tile-counting function, one slot-to-cell rule.
    core timeout 200 .carry/core/bin/GPUMeshCoreTests > $OUT/core-tests.txt 2>&1; echo "== core tests rc $?"
    grep -E "PASSED|FAILED|tests ran" $OUT/core-tests.txt | head -10
    core timeout 300 .carry/core/bin/gpumesh-benchmark --device NVIDIA --repeat 5 --matching 30000000 > $OUT/matching.txt 2>&1
    echo "== matching rc $?"; grep -v "^    " $OUT/matching.txt | grep "unique edges.*kernels" | cut -c1-150 ;;
esac
tar -C $OUT -czf $OUT/s6-$part.tgz --exclude='*.tgz' . 2>/dev/null; ls $OUT
