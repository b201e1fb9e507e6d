# Runs the core test binary with no OpenCL platform loadable: it must fail (exit status 1, not a
# crash) with the message of OpenCLDeviceEnvironment.cxx, and run no test.
#   cmake -DTESTS=<GPUMeshCoreTests> -P RunWithoutOpenCL.cmake
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env OCL_ICD_VENDORS=/nonexistent OCL_ICD_FILENAMES=
    "${TESTS}" --gtest_filter=Devices.*
  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(output "${out}${err}")
if(NOT result EQUAL 1)
  message(FATAL_ERROR "exit status '${result}', expected 1 (a failure, not a crash):\n${output}")
endif()
if(NOT output MATCHES "No OpenCL device was found, so no core test can run"
    OR NOT output MATCHES "install an ICD such as pocl-opencl-icd")
  message(FATAL_ERROR "the run does not say that no OpenCL device was found:\n${output}")
endif()
if(output MATCHES "\\[ RUN      \\]|SKIPPED")
  message(FATAL_ERROR "tests ran without an OpenCL device:\n${output}")
endif()
message("ok:\n${output}")
