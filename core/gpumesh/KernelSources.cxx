#include "gpumesh/KernelSources.h"

#include "gpumesh/Error.h"

#include <set>
#include <sstream>

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
