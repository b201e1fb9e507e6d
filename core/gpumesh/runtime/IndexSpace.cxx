#include "gpumesh/runtime/IndexSpace.h"

#include "gpumesh/runtime/Error.h"

#include <limits>

namespace gpumesh
{

void checkIndexSpace(std::int64_t count, const std::string& what)
{
  constexpr std::int64_t maxIndex = std::numeric_limits<std::int32_t>::max();
  if (count < 0 || count > maxIndex)
  {
    throw Error("The mesh has " + std::to_string(count) + " " + what +
      ", more than the 2^31-1 that the device's 32-bit indices can address");
  }
}

} // namespace gpumesh
