# Installs GPUMesh to a fresh prefix, builds examples/cxx against it as a separate CMake
# project (find_package(GPUMesh), GPUMesh::Filters), and runs the application with each filter
# and with bad input.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P TestInstalledPackage.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGN}\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

run_step("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
foreach(expected
    "lib/paraview-5.11/plugins/GPUMesh/GPUMesh.so"
    "lib/cmake/GPUMesh/GPUMeshConfig.cmake"
    "include/GPUMeshPlugins/vtkGPUCellReduction.h"
    "include/gpumesh-core/gpumesh/primitives/Reduce.h")
  if(NOT EXISTS "${WORK_DIR}/prefix/${expected}")
    file(GLOB_RECURSE installed RELATIVE "${WORK_DIR}/prefix" "${WORK_DIR}/prefix/*")
    message(FATAL_ERROR "not installed: ${expected}\ninstalled:\n${installed}")
  endif()
endforeach()

# A project without the C language: find_package(GPUMesh) says that C is needed, instead of
# failing inside ParaView's lookup of MPI's C bindings.
file(WRITE "${WORK_DIR}/cxx-only/CMakeLists.txt"
  "cmake_minimum_required(VERSION 3.16)\nproject(app CXX)\nfind_package(GPUMesh REQUIRED)\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${WORK_DIR}/cxx-only" -B "${WORK_DIR}/cxx-only/build"
  "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
# CMake wraps long messages: any run of blanks may be a line break.
if(result EQUAL 0 OR NOT err MATCHES "need[ \n]+the[ \n]+C[ \n]+language"
    OR NOT err MATCHES "project\\(app[ \n]+C[ \n]+CXX\\)" OR err MATCHES "FindMPI|;")
  message(FATAL_ERROR "project(app CXX): status ${result}, expected a failure saying that C is needed:\n${out}\n${err}")
endif()
message("project(app CXX): ok\n${err}")

run_step("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/cxx" -B "${WORK_DIR}/app" -G Ninja
  "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
run_step("${CMAKE_COMMAND}" --build "${WORK_DIR}/app")
set(app "${WORK_DIR}/app/gpumesh_filter")
set(data "${SOURCE_DIR}/data")

# expect_output(<name> <regex>...): the last step's output matches every regex.
function(expect_output name)
  foreach(regex IN LISTS ARGN)
    if(NOT step_output MATCHES "${regex}")
      message(FATAL_ERROR "${name}: no match for '${regex}' in:\n${step_output}")
    endif()
  endforeach()
  message("${name}: ok\n${step_output}")
endfunction()

run_step("${app}" cell-reduction "${data}/hex_block.vtu" "${WORK_DIR}/hex_block_reduced.vtu" --quantity volume)
expect_output(cell-reduction "Count 480\n" "Sum 3\n" "Device 0: ")

# hex_block: 10 x 8 x 6 hexahedra, 1252 interior faces, each counted by its two cells.
run_step("${app}" neighbor-distance "${data}/hex_block.vtu" "${WORK_DIR}/hex_block_neighbors.vtu" --centroids)
expect_output(neighbor-distance "NeighborCountSum 2504\n" "Centroid yes\n")

run_step("${app}" longest-edge-refinement "${data}/plate_with_holes.vtu" "${WORK_DIR}/plate_refined.vtu"
  --refine-all --passes 2)
expect_output(longest-edge-refinement "MarkedCells 3475\n" "CreatedCells [1-9][0-9]*\n")
run_step("${app}" longest-edge-refinement "${data}/ball_tets.vtu" "${WORK_DIR}/ball_refined.vtu" --refine-all)
expect_output(longest-edge-refinement "CreatedCells [1-9][0-9]*\n")

foreach(output hex_block_reduced hex_block_neighbors plate_refined ball_refined)
  if(NOT EXISTS "${WORK_DIR}/${output}.vtu")
    message(FATAL_ERROR "the application wrote no ${output}.vtu")
  endif()
endforeach()

# vertex-smoothing is compiled in when the installed package has its header.
run_step("${app}" --help)
if(EXISTS "${WORK_DIR}/prefix/include/GPUMeshPlugins/vtkGPUVertexSmoothing.h")
  expect_output(help "vertex-smoothing")
  run_step("${app}" vertex-smoothing "${data}/plate_with_holes.vtu" "${WORK_DIR}/plate_smoothed.vtu"
    --method taubin --iterations 20 --boundary fixed)
  expect_output(vertex-smoothing "MovedPoints [1-9][0-9]*\n")
elseif(step_output MATCHES "vertex-smoothing")
  message(FATAL_ERROR "--help lists vertex-smoothing but the package has no vtkGPUVertexSmoothing.h")
endif()

# Errors: a filter error is exit status 1 with the filter's message, a bad option 2.
execute_process(COMMAND "${app}" longest-edge-refinement "${data}/hex_block.vtu" "${WORK_DIR}/no.vtu"
  --refine-all RESULT_VARIABLE result ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT result EQUAL 1 OR NOT err MATCHES "refines triangles .* or tetrahedra" OR EXISTS "${WORK_DIR}/no.vtu")
  message(FATAL_ERROR "hexahedra through longest-edge-refinement: status ${result}, expected 1 and the error:\n${err}")
endif()
execute_process(COMMAND "${app}" cell-reduction "${data}/hex_block.vtu" "${WORK_DIR}/no.vtu" --quantity nonsense
  RESULT_VARIABLE result ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT result EQUAL 2 OR NOT err MATCHES "unknown value for --quantity")
  message(FATAL_ERROR "--quantity nonsense: status ${result}, expected 2 and a usage message:\n${err}")
endif()
