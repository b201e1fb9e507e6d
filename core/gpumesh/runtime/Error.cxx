#include "gpumesh/runtime/Error.h"

#include "gpumesh/runtime/OpenCL.h"

#include <charconv>
#include <cmath>

namespace gpumesh
{

namespace
{
std::string composeMessage(const std::string& message, int code, const std::string& log)
{
  std::string text = message;
  if (code != CL_SUCCESS)
  {
    text += " (" + clErrorName(code) + ")";
  }
  if (!log.empty())
  {
    text += "\nBuild log:\n" + log;
  }
  return text;
}
} // namespace

Error::Error(const std::string& message, int clCode, std::string buildLog)
  : std::runtime_error(composeMessage(message, clCode, buildLog))
  , ClCode(clCode)
  , ClName(clCode == CL_SUCCESS ? std::string() : clErrorName(clCode))
  , BuildLog(std::move(buildLog))
{
}

std::string clErrorName(int code)
{
  switch (code)
  {
#define GPUMESH_CL_NAME(c)                                                                          \
  case c:                                                                                           \
    return #c;
    GPUMESH_CL_NAME(CL_SUCCESS)
    GPUMESH_CL_NAME(CL_DEVICE_NOT_FOUND)
    GPUMESH_CL_NAME(CL_DEVICE_NOT_AVAILABLE)
    GPUMESH_CL_NAME(CL_COMPILER_NOT_AVAILABLE)
    GPUMESH_CL_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    GPUMESH_CL_NAME(CL_OUT_OF_RESOURCES)
    GPUMESH_CL_NAME(CL_OUT_OF_HOST_MEMORY)
    GPUMESH_CL_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    GPUMESH_CL_NAME(CL_MEM_COPY_OVERLAP)
    GPUMESH_CL_NAME(CL_IMAGE_FORMAT_MISMATCH)
    GPUMESH_CL_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    GPUMESH_CL_NAME(CL_BUILD_PROGRAM_FAILURE)
    GPUMESH_CL_NAME(CL_MAP_FAILURE)
    GPUMESH_CL_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    GPUMESH_CL_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    GPUMESH_CL_NAME(CL_COMPILE_PROGRAM_FAILURE)
    GPUMESH_CL_NAME(CL_LINKER_NOT_AVAILABLE)
    GPUMESH_CL_NAME(CL_LINK_PROGRAM_FAILURE)
    GPUMESH_CL_NAME(CL_DEVICE_PARTITION_FAILED)
    GPUMESH_CL_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    GPUMESH_CL_NAME(CL_INVALID_VALUE)
    GPUMESH_CL_NAME(CL_INVALID_DEVICE_TYPE)
    GPUMESH_CL_NAME(CL_INVALID_PLATFORM)
    GPUMESH_CL_NAME(CL_INVALID_DEVICE)
    GPUMESH_CL_NAME(CL_INVALID_CONTEXT)
    GPUMESH_CL_NAME(CL_INVALID_QUEUE_PROPERTIES)
    GPUMESH_CL_NAME(CL_INVALID_COMMAND_QUEUE)
    GPUMESH_CL_NAME(CL_INVALID_HOST_PTR)
    GPUMESH_CL_NAME(CL_INVALID_MEM_OBJECT)
    GPUMESH_CL_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    GPUMESH_CL_NAME(CL_INVALID_IMAGE_SIZE)
    GPUMESH_CL_NAME(CL_INVALID_SAMPLER)
    GPUMESH_CL_NAME(CL_INVALID_BINARY)
    GPUMESH_CL_NAME(CL_INVALID_BUILD_OPTIONS)
    GPUMESH_CL_NAME(CL_INVALID_PROGRAM)
    GPUMESH_CL_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    GPUMESH_CL_NAME(CL_INVALID_KERNEL_NAME)
    GPUMESH_CL_NAME(CL_INVALID_KERNEL_DEFINITION)
    GPUMESH_CL_NAME(CL_INVALID_KERNEL)
    GPUMESH_CL_NAME(CL_INVALID_ARG_INDEX)
    GPUMESH_CL_NAME(CL_INVALID_ARG_VALUE)
    GPUMESH_CL_NAME(CL_INVALID_ARG_SIZE)
    GPUMESH_CL_NAME(CL_INVALID_KERNEL_ARGS)
    GPUMESH_CL_NAME(CL_INVALID_WORK_DIMENSION)
    GPUMESH_CL_NAME(CL_INVALID_WORK_GROUP_SIZE)
    GPUMESH_CL_NAME(CL_INVALID_WORK_ITEM_SIZE)
    GPUMESH_CL_NAME(CL_INVALID_GLOBAL_OFFSET)
    GPUMESH_CL_NAME(CL_INVALID_EVENT_WAIT_LIST)
    GPUMESH_CL_NAME(CL_INVALID_EVENT)
    GPUMESH_CL_NAME(CL_INVALID_OPERATION)
    GPUMESH_CL_NAME(CL_INVALID_GL_OBJECT)
    GPUMESH_CL_NAME(CL_INVALID_BUFFER_SIZE)
    GPUMESH_CL_NAME(CL_INVALID_MIP_LEVEL)
    GPUMESH_CL_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    GPUMESH_CL_NAME(CL_INVALID_PROPERTY)
    GPUMESH_CL_NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    GPUMESH_CL_NAME(CL_INVALID_COMPILER_OPTIONS)
    GPUMESH_CL_NAME(CL_INVALID_LINKER_OPTIONS)
    GPUMESH_CL_NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef GPUMESH_CL_NAME
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "CL_ERROR(" + std::to_string(code) + ")";
  }
}

void check(int status, const std::string& doing)
{
  if (status != CL_SUCCESS)
  {
    throw Error(doing, status);
  }
}

std::string formatNumber(double value)
{
  if (std::isnan(value))
  {
    return "nan";
  }
  char text[32]; // the shortest round-trip form of a double needs at most 24 characters
  const std::to_chars_result written = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, written.ptr);
}

} // namespace gpumesh
