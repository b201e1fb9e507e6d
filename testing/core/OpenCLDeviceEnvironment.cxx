// Every core test needs an OpenCL device. Without one (no ICD loads, e.g. OCL_ICD_VENDORS
// pointing nowhere) the run stops before the first test with one message saying so, instead
// of every test failing, or crashing, on its own. It exits rather than failing the set-up:
// GoogleTest would then report each test as skipped, which ctest does not count as failed.
#include "gpumesh/runtime/Devices.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

namespace
{
class OpenCLDeviceEnvironment : public ::testing::Environment
{
public:
  void SetUp() override
  {
    if (gpumesh::listDevices().empty())
    {
      std::cerr << "No OpenCL device was found, so no core test can run.\n"
                << gpumesh::describeDevices({}) << std::flush;
      std::exit(EXIT_FAILURE);
    }
  }
};

// Registered before gtest_main's main() runs the tests; GoogleTest owns the object.
[[maybe_unused]] ::testing::Environment* const environment =
  ::testing::AddGlobalTestEnvironment(new OpenCLDeviceEnvironment);
} // namespace
