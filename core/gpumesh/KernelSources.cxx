#include "gpumesh/KernelSources.h"

#include "gpumesh/Error.h"

#include <cstring>

namespace gpumesh
{

std::string kernelSource(const std::string& name)
{
  for (const auto* entry = detail::embeddedKernels; entry->name; ++entry)
  {
    if (name == entry->name)
    {
      return entry->source;
    }
  }
  throw Error("No kernel file kernels/" + name + ".cl was embedded in the GPUMesh core");
}

std::vector<std::string> kernelNames()
{
  std::vector<std::string> names;
  for (const auto* entry = detail::embeddedKernels; entry->name; ++entry)
  {
    names.emplace_back(entry->name);
  }
  return names;
}

} // namespace gpumesh
