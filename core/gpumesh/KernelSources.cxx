#include "gpumesh/KernelSources.h"

#include "gpumesh/Error.h"


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

} // namespace gpumesh
