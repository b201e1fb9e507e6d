# Installs GPUMesh to a fresh prefix, builds examples/cxx against it as a separate CMake
# project (find_package(GPUMesh), GPUMesh::Filters), and runs the application.
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
    "include/gpumesh-core/gpumesh/Reduce.h")
  if(NOT EXISTS "${WORK_DIR}/prefix/${expected}")
    file(GLOB_RECURSE installed RELATIVE "${WORK_DIR}/prefix" "${WORK_DIR}/prefix/*")
    message(FATAL_ERROR "not installed: ${expected}\ninstalled:\n${installed}")
  endif()
endforeach()

run_step("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/cxx" -B "${WORK_DIR}/app" -G Ninja
  "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
run_step("${CMAKE_COMMAND}" --build "${WORK_DIR}/app")
run_step("${WORK_DIR}/app/gpumesh_filter" cell-reduction "${SOURCE_DIR}/data/hex_block.vtu"
  "${WORK_DIR}/hex_block_reduced.vtu" --quantity volume)
message("${step_output}")
if(NOT step_output MATCHES "Count 480\n" OR NOT step_output MATCHES "Sum 3\n")
  message(FATAL_ERROR "unexpected result:\n${step_output}")
endif()
if(NOT EXISTS "${WORK_DIR}/hex_block_reduced.vtu")
  message(FATAL_ERROR "the application wrote no output")
endif()
