#include "gpumesh/runtime/KernelSources.h"

#include "gpumesh/runtime/Error.h"

#include <set>
#include <sstream>

namespace gpumesh
{

namespace
{
const detail::EmbeddedKernel& embeddedKernel(const std::string& name)
{
  for (const auto* entry = detail::embeddedKernels; entry->name; ++entry)
  {
    if (name == entry->name)
    {
      return *entry;
    }
  }
  throw Error("No kernel file " + name + ".cl (kernels/<layer>/) was embedded in the GPUMesh core");
}
} // namespace

std::string kernelSource(const std::string& name)
{
  return embeddedKernel(name).source;
}

std::string kernelPath(const std::string& name)
{
  return embeddedKernel(name).path;
}

namespace
{
void appendExpanded(const std::string& name, std::set<std::string>& included, std::string& out)
{
  if (!included.insert(name).second)
  {
    return;
  }
  std::istringstream lines(kernelSource(name));
  const std::string directive = "#include \"";
  for (std::string line; std::getline(lines, line);)
  {
    const std::size_t end = line.rfind(".cl\"");
    if (line.compare(0, directive.size(), directive) == 0 && end != std::string::npos && end > directive.size())
    {
      appendExpanded(line.substr(directive.size(), end - directive.size()), included, out);
    }
    else
    {
      out += line;
      out += '\n';
    }
  }
}
} // namespace

std::string programSource(const std::string& name)
{
  std::set<std::string> included;
  std::string source;
  appendExpanded("common", included, source);
  appendExpanded(name, included, source);
  return source;
}

} // namespace gpumesh
