#include "gpumesh/algorithms/MeshKernel.h"

#include "gpumesh/mesh/RepeatedPoints.h"
#include "gpumesh/runtime/KernelSources.h"
#include "gpumesh/topology/CellNeighborLists.h"
#include "gpumesh/topology/VertexLinks.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace gpumesh
{

namespace
{
const char* const userMarker = "//@USER_KERNEL@";
constexpr int maximumResultComponents = 9;

// Names the templates and the generator give meaning to: no array may take them.
const std::set<std::string>& contextualNames()
{
  static const std::set<std::string> names{ "id", "x", "result", "kind", "point_count", "point_id",
    "cell_count", "cell_id", "neighbour_count", "neighbour_id", "previous", "result_out", "points",
    "point_total", "cell_total", "point_arrays", "cell_arrays", "count", "connectivity", "offsets",
    "per_cell", "cell_ids", "first", "i" };
  return names;
}

// The text without its comments, so that a comment naming cell_count builds no link.
std::string withoutComments(const std::string& text)
{
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i)
  {
    if (text.compare(i, 2, "//") == 0)
    {
      while (i < text.size() && text[i] != '\n')
        ++i;
      out += '\n';
    }
    else if (text.compare(i, 2, "/*") == 0)
    {
      const std::size_t end = text.find("*/", i + 2);
      i = end == std::string::npos ? text.size() : end + 1;
      out += ' ';
    }
    else
    {
      out += text[i];
    }
  }
  return out;
}

std::string typeOf(int components)
{
  return components == 1 ? "REAL" : "REAL" + std::to_string(components);
}

std::string listInputs(const std::vector<KernelArray>& inputs)
{
  if (inputs.empty())
    return "no InputArrays are chosen";
  std::string list = "InputArrays: ";
  for (std::size_t a = 0; a < inputs.size(); ++a)
  {
    list += (a ? ", " : "") + inputs[a].name + " (" + meshEntityName(inputs[a].entity) + ", " +
      std::to_string(inputs[a].components) + " components)";
  }
  return list;
}

bool isWordCharacter(char c)
{
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The digits at `at` (advanced past them), or -1 when there are none or too many for an int.
long long digitsAt(const std::string& text, std::size_t& at)
{
  const std::size_t first = at;
  long long value = 0;
  while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])) && at - first < 9)
    value = 10 * value + (text[at++] - '0');
  return at > first ? value : -1;
}

// One located error of a build log line: where "<name>:L:C: " starts at `at`, preceded or
// followed by "error: ".
struct LocatedError
{
  bool isKernelLine = false; // "<kernel>": the line is in the whole program
  long long line = 0;
  long long column = 0;
  std::string message;
};

bool locateError(const std::string& text, std::size_t at, std::size_t nameLength, LocatedError& error)
{
  const std::string prefix = "error: ";
  const bool before = at >= prefix.size() && text.compare(at - prefix.size(), prefix.size(), prefix) == 0;
  std::size_t k = at + nameLength;
  if (k >= text.size() || text[k++] != ':' || (error.line = digitsAt(text, k)) < 0 || k >= text.size() ||
    text[k++] != ':' || (error.column = digitsAt(text, k)) < 0 || text.compare(k, 2, ": ") != 0)
  {
    return false;
  }
  k += 2;
  const bool after = text.compare(k, prefix.size(), prefix) == 0;
  if (after)
    k += prefix.size();
  error.message = text.substr(k);
  return before || after;
}

// "line L, column C: error: message" for each error of the build log in the user's text
// (clang writes "Kernel:3:5: error: ...", PoCL "error: Kernel:3:5: ..."; NVIDIA ignores #line
// and writes "<kernel>:145:5: error: ...", the line in the whole program). Read line by line
// without regular expressions: a log line can be as long as the user's text.
std::string userErrors(const std::string& log, const GeneratedMeshKernel& generated)
{
  std::string errors;
  std::size_t start = 0;
  while (start < log.size())
  {
    const std::size_t end = std::min(log.find('\n', start), log.size());
    const std::string text = log.substr(start, end - start);
    start = end + 1;
    for (std::size_t at = 0; at < text.size(); ++at)
    {
      const bool kernel = text.compare(at, 6, "Kernel") == 0;
      const bool whole = text.compare(at, 8, "<kernel>") == 0;
      LocatedError error;
      if (!(kernel || whole) || !locateError(text, at, kernel ? 6 : 8, error))
        continue;
      long long line = error.line;
      if (whole)
      {
        line -= generated.userFirstLine - 1;
        if (line < 1 || line > generated.userLineCount)
          break; // in the generated part
      }
      errors += "\n  line " + std::to_string(line) + ", column " + std::to_string(error.column) +
        ": error: " + error.message;
      break;
    }
  }
  return errors;
}

int countLines(const std::string& text)
{
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// What the text uses: every identifier, and each accessor as (link, array identifier).
struct TextUses
{
  std::set<std::string> identifiers;
  std::vector<std::pair<std::string, std::string>> accessors;

  // Whether the text uses a link: its count, its ids, or an accessor through it.
  bool usesLink(const char* count, const char* id, const char* link) const
  {
    if (identifiers.count(count) || identifiers.count(id))
      return true;
    return std::any_of(accessors.begin(), accessors.end(), [&](const auto& a) { return a.first == link; });
  }
};

// Every identifier of the text, and each "<link>_<array>(" accessor. A plain scan, no regular
// expressions: their matching recursed once per character and overflowed the stack on an
// identifier of 50,000 characters.
TextUses scanText(const std::string& code)
{
  TextUses uses;
  for (std::size_t i = 0; i < code.size();)
  {
    const char c = code[i];
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_'))
    {
      ++i;
      continue;
    }
    const bool atBoundary = i == 0 || !isWordCharacter(code[i - 1]); // not "1points_x("
    std::size_t end = i;
    while (end < code.size() && isWordCharacter(code[end]))
      ++end;
    const std::string word = code.substr(i, end - i);
    uses.identifiers.insert(word);
    std::size_t next = end;
    while (next < code.size() && std::isspace(static_cast<unsigned char>(code[next])))
      ++next;
    if (atBoundary && next < code.size() && code[next] == '(')
    {
      for (const char* link : { "points", "cells", "neighbours" })
      {
        const std::size_t length = std::strlen(link);
        if (word.size() > length + 1 && word.compare(0, length, link) == 0 && word[length] == '_')
          uses.accessors.emplace_back(link, word.substr(length + 1));
      }
    }
    i = end;
  }
  return uses;
}

// The variables of the other domain, with what they mean, for the "link the domain does not
// have" error.
struct ForeignVariable
{
  const char* name;
  const char* meaning;
};

void rejectForeignVariables(MeshEntity domain, const TextUses& uses)
{
  static const ForeignVariable ofCells[] = { { "point_count", "the number of a cell's points" },
    { "point_id", "the ids of a cell's points" } };
  static const ForeignVariable ofPoints[] = { { "cell_count", "the number of cells around a point" },
    { "cell_id", "the ids of the cells around a point" } };
  const bool points = domain == MeshEntity::Points;
  for (const ForeignVariable& variable : points ? ofCells : ofPoints)
  {
    if (uses.identifiers.count(variable.name))
    {
      throw Error(std::string("The Kernel uses '") + variable.name + "' (" + variable.meaning +
        "), a link the " + (points ? "Points" : "Cells") + " domain does not have: set Domain to " +
        (points ? "Cells" : "Points") + " or see the variables of the " + (points ? "Points" : "Cells") +
        " domain in the Kernel's documentation");
    }
  }
  for (const auto& accessor : uses.accessors)
  {
    const std::string& link = accessor.first;
    if ((points && link == "points") || (!points && link == "cells"))
    {
      throw Error("The Kernel uses '" + link + "_" + accessor.second + "(k)' (" +
        (points ? "an array read at a cell's points" : "an array read at the cells around a point") +
        "), a link the " + (points ? "Points" : "Cells") + " domain does not have: set Domain to " +
        (points ? "Cells" : "Points"));
    }
  }
}

// Refuses an #include directive (after line splicing, as the preprocessor sees it): it would
// read files of the machine that builds the kernel (a server, for a client's text) and echo
// their words in the compile errors sent back.
void rejectIncludes(const std::string& code)
{
  std::string spliced;
  for (std::size_t i = 0; i < code.size(); ++i)
  {
    const std::size_t continuation = code.compare(i, 2, "\\\n") == 0 ? 2 : code.compare(i, 3, "\\\r\n") == 0 ? 3 : 0;
    if (continuation)
      i += continuation - 1;
    else
      spliced += code[i];
  }
  std::size_t start = 0;
  while (start < spliced.size())
  {
    const std::size_t end = std::min(spliced.find('\n', start), spliced.size());
    std::size_t k = spliced.find_first_not_of(" \t\r\f\v", start);
    if (k < end && spliced[k] == '#')
    {
      k = spliced.find_first_not_of(" \t\f\v", k + 1);
      if (k < end && spliced.compare(k, 7, "include") == 0)
      {
        throw Error("The Kernel may not use #include: a kernel reads only the mesh and its arrays, "
                    "never files of the machine that runs it ('" +
          spliced.substr(start, std::min<std::size_t>(end - start, 80)) + "')");
      }
    }
    start = end + 1;
  }
}

// The body and the result, checked before anything is planned.
void requireKernelText(const MeshKernelDefinition& definition, const std::string& code)
{
  const bool pointsDomain = definition.domain == MeshEntity::Points;
  if (code.find_first_not_of(" \t\r\n") == std::string::npos)
  {
    throw Error("The Kernel is empty: write the body of the loop over " +
      std::string(pointsDomain ? "points" : "cells") + ", e.g. 'result = " +
      (pointsDomain ? "length(x);" : "point_count;") + "'");
  }
  if (definition.resultComponents < 1 || definition.resultComponents > maximumResultComponents)
  {
    throw Error("ResultComponents must be 1 to 9, not " + std::to_string(definition.resultComponents));
  }
  if (definition.resultName.empty())
  {
    throw Error("ResultArrayName is empty: name the array the Kernel writes");
  }
  rejectIncludes(code);
}

// One chosen array as the kernel sees it.
struct ArrayPlan
{
  const KernelArray* array = nullptr;
  std::string identifier;
  bool packed = false;   // in point_arrays or cell_arrays; else the fed-back `previous`
  std::size_t first = 0; // packed: its first component among its entity's packed arrays
  std::string pointer;   // where its tuples start
};

const ArrayPlan* findPlan(const std::vector<ArrayPlan>& plans, const std::string& identifier)
{
  const auto found = std::find_if(
    plans.begin(), plans.end(), [&](const ArrayPlan& plan) { return plan.identifier == identifier; });
  return found == plans.end() ? nullptr : &*found;
}

// The arrays: unique identifiers that are not contextual variables.
std::vector<ArrayPlan> planArrays(const std::vector<KernelArray>& inputs)
{
  std::vector<ArrayPlan> plans;
  for (const KernelArray& array : inputs)
  {
    if (array.name.empty())
      throw Error("An input array has no name: the Kernel could not refer to it");
    if (array.components < 1)
      throw Error("Input array '" + array.name + "' has " + std::to_string(array.components) + " components");
    const std::string identifier = kernelIdentifier(array.name);
    if (contextualNames().count(identifier))
    {
      throw Error("Input array '" + array.name + "' would be the variable '" + identifier +
        "', which the Kernel already defines: rename the array (e.g. with the Pass Arrays or Calculator filter)");
    }
    if (const ArrayPlan* same = findPlan(plans, identifier))
    {
      throw Error("Input arrays '" + same->array->name + "' and '" + array.name + "' are both '" + identifier +
        "' in the Kernel: choose one of them, or rename one");
    }
    ArrayPlan plan;
    plan.array = &array;
    plan.identifier = identifier;
    plans.push_back(std::move(plan));
  }
  return plans;
}

// The result: new, the coordinates, or an input fed back between iterations.
void planFeedback(const MeshKernelDefinition& definition, GeneratedMeshKernel& generated)
{
  const bool pointsDomain = definition.domain == MeshEntity::Points;
  if (definition.resultName == MeshKernelDefinition::coordinatesName)
  {
    if (!pointsDomain || definition.resultComponents != 3)
    {
      throw Error(std::string("ResultArrayName '") + MeshKernelDefinition::coordinatesName +
        "' means the points' coordinates: it needs Domain Points and ResultComponents 3, not Domain " +
        (pointsDomain ? "Points" : "Cells") + " and " + std::to_string(definition.resultComponents) +
        " components");
    }
    generated.feedback = GeneratedMeshKernel::Feedback::Coordinates;
  }
  for (std::size_t a = 0; a < definition.inputs.size(); ++a)
  {
    const KernelArray& input = definition.inputs[a];
    if (input.name != definition.resultName)
      continue;
    if (input.entity != definition.domain || input.components != definition.resultComponents)
    {
      throw Error("ResultArrayName '" + definition.resultName + "' is an input " + meshEntityName(input.entity) +
        " array of " + std::to_string(input.components) + " components, but the Kernel writes a " +
        meshEntityName(definition.domain) + " array of " + std::to_string(definition.resultComponents) +
        ": a result that replaces an input must have its entity and components (or give the result another name)");
    }
    generated.feedback = GeneratedMeshKernel::Feedback::Input;
    generated.feedbackInput = a;
  }
}

// Every accessor reads a chosen array of the entity its link reaches (neighbours are of the
// domain's own entity; points_x and neighbours_x read the coordinates).
void requireAccessedArrays(
  const MeshKernelDefinition& definition, const std::vector<ArrayPlan>& plans, const TextUses& uses)
{
  for (const auto& [link, name] : uses.accessors)
  {
    const MeshEntity wanted = link == "points" ? MeshEntity::Points
      : link == "cells"                        ? MeshEntity::Cells
                                               : definition.domain;
    if (name == "x" && wanted == MeshEntity::Points)
      continue;
    const ArrayPlan* plan = findPlan(plans, name);
    if (!plan)
    {
      throw Error("The Kernel reads '" + link + "_" + name + "(k)', but no chosen array is '" + name + "' (" +
        listInputs(definition.inputs) + "): add the " + meshEntityName(wanted) + " array to InputArrays");
    }
    const KernelArray& array = *plan->array;
    if (array.entity != wanted)
    {
      throw Error("The Kernel reads '" + link + "_" + name + "(k)', but '" + array.name + "' is a " +
        meshEntityName(array.entity) + " array and " + link + "_ reads " + meshEntityName(wanted) +
        " arrays" + (link == "neighbours" ? " (neighbours are of the domain's own entity)" : ""));
    }
  }
}

// Packed arrays: each entity's chosen arrays one after the other (the fed-back one is
// `previous` instead), so the kernel's arguments do not depend on how many are chosen.
void packArrays(std::vector<ArrayPlan>& plans, const GeneratedMeshKernel& generated)
{
  std::size_t pointComponents = 0;
  std::size_t cellComponents = 0;
  for (std::size_t a = 0; a < plans.size(); ++a)
  {
    ArrayPlan& plan = plans[a];
    if (generated.feedback == GeneratedMeshKernel::Feedback::Input && a == generated.feedbackInput)
    {
      plan.pointer = "previous";
      continue;
    }
    std::size_t& components = plan.array->entity == MeshEntity::Points ? pointComponents : cellComponents;
    plan.packed = true;
    plan.first = components;
    plan.pointer = "mk_array_" + plan.identifier;
    components += static_cast<std::size_t>(plan.array->components);
  }
}

std::string readTuple(const ArrayPlan& plan, const std::string& index)
{
  const int n = plan.array->components;
  return n <= 4 ? "MK_READ_" + std::to_string(n) + "(" + plan.pointer + ", " + index + ")"
                : std::string();
}

// What the loop is: the arguments of a step, the coordinates `x` reads (Points) or the kinds
// `kind` compares with (Cells), and the links the text uses.
std::string loopDefines(const MeshKernelDefinition& definition, const GeneratedMeshKernel& generated)
{
  const bool pointsDomain = definition.domain == MeshEntity::Points;
  std::ostringstream defines;
  defines << "// Generated by core/gpumesh/algorithms/MeshKernel.cxx for a loop over "
          << (pointsDomain ? "points" : "cells") << ".\n";
  const bool fedBack = generated.feedback != GeneratedMeshKernel::Feedback::None;
  defines << "#define STEP_ARGUMENTS "
          << (fedBack ? "__global const REAL* previous, __global REAL* result_out" : "__global REAL* result_out")
          << "\n";
  if (pointsDomain)
  {
    defines << "#define POINTS "
            << (generated.feedback == GeneratedMeshKernel::Feedback::Coordinates ? "previous" : "points") << "\n";
    defines << "#define USES_CELLS " << int(generated.usesCells) << "\n";
  }
  else
  {
    for (int k = 0; k < cellKindCount; ++k)
    {
      std::string name = cellKindName(static_cast<CellKind>(k));
      std::transform(name.begin(), name.end(), name.begin(),
        [](char c) { return c == ' ' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
      defines << "#define CELL_" << name << " " << k << "\n";
    }
  }
  defines << "#define USES_NEIGHBOURS " << int(generated.usesNeighbours) << "\n";
  return defines.str();
}

// Where each packed array's tuples start.
std::string pointerDefines(const std::vector<ArrayPlan>& plans)
{
  std::ostringstream defines;
  for (const ArrayPlan& plan : plans)
  {
    if (!plan.packed)
      continue;
    const bool ofPoints = plan.array->entity == MeshEntity::Points;
    defines << "#define " << plan.pointer << " (" << (ofPoints ? "point_arrays" : "cell_arrays") << " + (size_t)"
            << plan.first << " * " << (ofPoints ? "point_total" : "cell_total") << ")\n";
  }
  return defines.str();
}

// The array read at the entities its link reaches (the points or cells around, the
// neighbours): a tuple, or one component of a wide one.
std::string accessorDefine(const ArrayPlan& plan, MeshEntity domain)
{
  const bool pointsDomain = domain == MeshEntity::Points;
  const bool ofPoints = plan.array->entity == MeshEntity::Points;
  const std::string prefix =
    ofPoints ? (pointsDomain ? "neighbours" : "points") : (pointsDomain ? "cells" : "neighbours");
  const std::string idMacro =
    ofPoints ? (pointsDomain ? "neighbour_id" : "point_id") : (pointsDomain ? "cell_id" : "neighbour_id");
  const int n = plan.array->components;
  if (n <= 4)
    return "#define " + prefix + "_" + plan.identifier + "(k) " + readTuple(plan, idMacro + "(k)") + "\n";
  return "#define " + prefix + "_" + plan.identifier + "(k, c) MK_READ_N(" + plan.pointer + ", " +
    std::to_string(n) + ", " + idMacro + "(k), c)\n";
}

// An array of the domain's own entity as a variable of the work-item (part of INPUT_VARIABLES).
std::string inputVariable(const ArrayPlan& plan)
{
  const int n = plan.array->components;
  const std::string& name = plan.identifier;
  return n <= 4 ? "const " + typeOf(n) + " " + name + " = " + readTuple(plan, "id") + "; "
                : "REAL " + name + "[" + std::to_string(n) + "]; for (int mk_c = 0; mk_c < " +
      std::to_string(n) + "; ++mk_c) " + name + "[mk_c] = MK_READ_N(" + plan.pointer + ", " +
      std::to_string(n) + ", id, mk_c); ";
}

// The result variable, starting as the previous iterate of a fed-back result (else 0), and how
// it is stored.
std::string resultDefines(const MeshKernelDefinition& definition, const GeneratedMeshKernel& generated)
{
  const bool fedBack = generated.feedback != GeneratedMeshKernel::Feedback::None;
  const int m = definition.resultComponents;
  std::ostringstream defines;
  const std::string previous = generated.feedback == GeneratedMeshKernel::Feedback::Coordinates ? "x"
    : fedBack && m <= 4 ? "MK_READ_" + std::to_string(m) + "(previous, id)"
                        : "(" + typeOf(std::min(m, 4)) + ")(0)";
  if (m <= 4)
  {
    defines << "#define RESULT_DECLARATION " << typeOf(m) << " result = " << previous << ";\n";
    defines << "#define RESULT_STORE MK_STORE_" << m << "(result, result_out, id);\n";
  }
  else
  {
    defines << "#define RESULT_DECLARATION REAL result[" << m << "]; for (int mk_c = 0; mk_c < " << m
            << "; ++mk_c) result[mk_c] = " << (fedBack ? "MK_READ_N(previous, " + std::to_string(m) + ", id, mk_c)" : "0")
            << ";\n";
    defines << "#define RESULT_STORE for (int mk_c = 0; mk_c < " << m << "; ++mk_c) result_out[(size_t)id * " << m
            << " + mk_c] = result[mk_c];\n";
  }
  return defines.str();
}

// The #define lines the templates read (kernels/algorithms/mesh_kernel_*.cl say which).
std::string writeDefines(
  const MeshKernelDefinition& definition, const GeneratedMeshKernel& generated, const std::vector<ArrayPlan>& plans)
{
  std::string defines = loopDefines(definition, generated) + pointerDefines(plans);
  std::string variables;
  for (const ArrayPlan& plan : plans)
  {
    defines += accessorDefine(plan, definition.domain);
    if (plan.array->entity == definition.domain)
      variables += inputVariable(plan);
  }
  return defines + "#define INPUT_VARIABLES " + variables + "\n" + resultDefines(definition, generated);
}

// The program: the template with the user's text at its marker, under its own line numbers.
void spliceIntoTemplate(
  const MeshKernelDefinition& definition, const std::string& defines, GeneratedMeshKernel& generated)
{
  const bool pointsDomain = definition.domain == MeshEntity::Points;
  const std::string templateText = kernelSource(pointsDomain ? "mesh_kernel_points" : "mesh_kernel_cells");
  const std::size_t marker = templateText.find(userMarker);
  if (marker == std::string::npos)
  {
    throw Error("kernels/mesh_kernel_*.cl lacks the marker " + std::string(userMarker));
  }
  const std::string before = kernelSource("common") + "\n" + defines + kernelSource("mesh_kernel_access") + "\n" +
    templateText.substr(0, marker);
  const std::string after = templateText.substr(marker + std::string(userMarker).size());
  const std::string user = definition.body + (definition.body.empty() || definition.body.back() != '\n' ? "\n" : "");
  // Lines: before, the #line directive, the user's text, the second directive, then `after`.
  const int afterLine = countLines(before) + 1 + countLines(user) + 1 + 1;
  generated.userFirstLine = countLines(before) + 2;
  generated.userLineCount = countLines(user);
  generated.source = before + "#line 1 \"Kernel\"\n" + user + "#line " + std::to_string(afterLine) +
    " \"GeneratedSource\"\n" + after;
}
} // namespace

const char* meshEntityName(MeshEntity entity)
{
  return entity == MeshEntity::Points ? "point" : "cell";
}

std::string kernelIdentifier(const std::string& arrayName)
{
  std::string identifier;
  for (const char c : arrayName)
  {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    identifier += allowed ? c : '_';
  }
  if (!identifier.empty() && identifier[0] >= '0' && identifier[0] <= '9')
  {
    identifier = "_" + identifier;
  }
  return identifier;
}

// Every check before anything is written, in the order of the errors the header lists; then
// the #define lines and the splice.
GeneratedMeshKernel generateMeshKernel(const MeshKernelDefinition& definition)
{
  const std::string code = withoutComments(definition.body);
  requireKernelText(definition, code);
  std::vector<ArrayPlan> plans = planArrays(definition.inputs);
  GeneratedMeshKernel generated;
  planFeedback(definition, generated);
  const TextUses uses = scanText(code);
  rejectForeignVariables(definition.domain, uses);
  requireAccessedArrays(definition, plans, uses);
  generated.usesCells =
    definition.domain == MeshEntity::Points && uses.usesLink("cell_count", "cell_id", "cells");
  generated.usesNeighbours = uses.usesLink("neighbour_count", "neighbour_id", "neighbours");
  packArrays(plans, generated);
  spliceIntoTemplate(definition, writeDefines(definition, generated, plans), generated);
  return generated;
}

struct MeshKernel::Internals
{
  Internals(const DeviceMesh& kernelMesh, const MeshKernelDefinition& kernelDefinition,
    GeneratedMeshKernel kernelGenerated)
    : mesh(kernelMesh)
    , definition(kernelDefinition)
    , generated(std::move(kernelGenerated))
  {
  }

  const DeviceMesh& mesh;
  MeshKernelDefinition definition;
  GeneratedMeshKernel generated;
  bool compiled = false;
  double compileMilliseconds = 0.0;
  std::optional<VertexTable> cellsAround;
  std::optional<VertexTable> neighbourPoints;
  std::optional<CellNeighborLists> neighbourCells;
  RealBuffer pointArrays;
  RealBuffer cellArrays;
  std::vector<BoundKernel> launches; // one per point loop, or per cell group
  std::vector<std::size_t> sizes;

  std::size_t tuples(MeshEntity entity) const
  {
    return static_cast<std::size_t>(entity == MeshEntity::Points ? mesh.pointCount() : mesh.cellCount());
  }

  bool isFedBack(std::size_t input) const
  {
    return generated.feedback == GeneratedMeshKernel::Feedback::Input && input == generated.feedbackInput;
  }

  // The arguments that change between iterations: `previous` of a fed-back result, `result_out`.
  cl_uint stepArguments() const { return generated.feedback == GeneratedMeshKernel::Feedback::None ? 1 : 2; }

  cl::Program compile(DeviceRun& run, const std::string& options);
  std::vector<cl::Program> compilePrograms(DeviceRun& run);
  void allocatePackedArrays(DeviceRun& run);
  void bindPointLoop(DeviceRun& run, const cl::Program& program);
  void bindCellLoops(DeviceRun& run, const std::vector<cl::Program>& programs);
  void packInputs(DeviceRun& run, const std::vector<const RealBuffer*>& inputs);
};

// The generated program built with `options`, through the device's cache; a compile error
// names the lines of the user's text.
cl::Program MeshKernel::Internals::compile(DeviceRun& run, const std::string& options)
{
  const auto begin = std::chrono::steady_clock::now();
  bool built = false;
  try
  {
    cl::Program program = run.generatedProgram(generated.source, "the GPU Mesh Kernel", &built, options);
    if (built)
    {
      compiled = true;
      compileMilliseconds +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    }
    return program;
  }
  catch (const Error& error)
  {
    if (error.buildLog().empty())
      throw;
    const std::string errors = userErrors(error.buildLog(), generated);
    throw Error("The Kernel does not compile on device '" + run.info().label() + "'" +
        (errors.empty() ? std::string(" (see the build log and the GeneratedSource)") : ":" + errors),
      error.clCode(), error.buildLog());
  }
}

// One program for the points; for the cells one per kind of the mesh, fixed-size kinds
// specialised (cellKindOptions: point_count and the strides become constants, so loops over a
// cell's points unroll).
std::vector<cl::Program> MeshKernel::Internals::compilePrograms(DeviceRun& run)
{
  std::vector<cl::Program> programs;
  if (definition.domain == MeshEntity::Points)
    programs.push_back(compile(run, {}));
  else
    for (const DeviceCellGroup& group : mesh.groups())
      programs.push_back(compile(run, cellKindOptions(group)));
  return programs;
}

// point_arrays and cell_arrays: the chosen arrays but a fed-back one, in packArrays' order.
void MeshKernel::Internals::allocatePackedArrays(DeviceRun& run)
{
  std::size_t pointComponents = 0;
  std::size_t cellComponents = 0;
  for (std::size_t a = 0; a < definition.inputs.size(); ++a)
  {
    if (isFedBack(a))
      continue;
    (definition.inputs[a].entity == MeshEntity::Points ? pointComponents : cellComponents) +=
      static_cast<std::size_t>(definition.inputs[a].components);
  }
  pointArrays = run.allocateReal(pointComponents * tuples(MeshEntity::Points), "GPU Mesh Kernel point arrays");
  cellArrays = run.allocateReal(cellComponents * tuples(MeshEntity::Cells), "GPU Mesh Kernel cell arrays");
}

// The loop over points, with the links the text uses: the cells around each point, the points
// joined to it by an edge.
void MeshKernel::Internals::bindPointLoop(DeviceRun& run, const cl::Program& program)
{
  if (generated.usesCells)
    cellsAround.emplace(vertexCells(run, mesh));
  if (generated.usesNeighbours)
  {
    const CellEntities edges(run, mesh, EntityType::Edges);
    neighbourPoints.emplace(vertexNeighbors(run, mesh, edges));
  }
  const auto pointTotal = static_cast<cl_int>(tuples(MeshEntity::Points));
  const auto cellTotal = static_cast<cl_int>(tuples(MeshEntity::Cells));
  const auto bind = [&](const auto&... links) {
    return run.bind(program, "mesh_kernel", stepArguments(), mesh.points(), pointTotal, cellTotal, pointArrays,
      cellArrays, links...);
  };
  const VertexTable* around = cellsAround ? &*cellsAround : nullptr;
  const VertexTable* joined = neighbourPoints ? &*neighbourPoints : nullptr;
  if (around && joined)
    launches.push_back(bind(around->entries(), around->rowStart(), around->degree(), joined->entries(),
      joined->rowStart(), joined->degree()));
  else if (around)
    launches.push_back(bind(around->entries(), around->rowStart(), around->degree()));
  else if (joined)
    launches.push_back(bind(joined->entries(), joined->rowStart(), joined->degree()));
  else
    launches.push_back(bind());
  sizes.push_back(tuples(MeshEntity::Points));
}

// One loop per cell group, with the cells across each cell's sides if the text uses them.
void MeshKernel::Internals::bindCellLoops(DeviceRun& run, const std::vector<cl::Program>& programs)
{
  if (generated.usesNeighbours)
  {
    // A cell (5, 5, 7) would list its neighbour across (5, 7) twice, and be listed twice by it.
    rejectRepeatedPoints(run, mesh, "the GPU Mesh Kernel's neighbours");
    const CellEntities sides(run, mesh, EntityType::Sides);
    neighbourCells.emplace(cellNeighborLists(run, mesh, sides));
  }
  const auto pointTotal = static_cast<cl_int>(tuples(MeshEntity::Points));
  const auto cellTotal = static_cast<cl_int>(tuples(MeshEntity::Cells));
  for (std::size_t g = 0; g < mesh.groups().size(); ++g)
  {
    const DeviceCellGroup& group = mesh.groups()[g];
    const cl::Program& program = programs[g];
    const auto kind = static_cast<cl_int>(group.kind);
    if (neighbourCells)
      launches.push_back(run.bind(program, "mesh_kernel", stepArguments(), CellArgs{ group }, kind, mesh.points(),
        pointTotal, cellTotal, pointArrays, cellArrays, neighbourCells->offsets, neighbourCells->ids));
    else
      launches.push_back(run.bind(program, "mesh_kernel", stepArguments(), CellArgs{ group }, kind, mesh.points(),
        pointTotal, cellTotal, pointArrays, cellArrays));
    sizes.push_back(group.count);
  }
}

// The inputs checked, and copied (all but a fed-back one) where packArrays placed them.
void MeshKernel::Internals::packInputs(DeviceRun& run, const std::vector<const RealBuffer*>& inputs)
{
  if (inputs.size() != definition.inputs.size())
  {
    throw Error("the GPU Mesh Kernel was given " + std::to_string(inputs.size()) + " arrays for " +
      std::to_string(definition.inputs.size()) + " inputs");
  }
  std::size_t pointOffset = 0;
  std::size_t cellOffset = 0;
  for (std::size_t a = 0; a < inputs.size(); ++a)
  {
    const KernelArray& array = definition.inputs[a];
    const std::size_t values = tuples(array.entity) * static_cast<std::size_t>(array.components);
    if (!inputs[a] || inputs[a]->size() != values || inputs[a]->precision() != run.precision())
    {
      throw Error("input array '" + array.name + "' should hold " + std::to_string(values) + " values of the run's precision");
    }
    if (isFedBack(a))
      continue;
    const bool ofPoints = array.entity == MeshEntity::Points;
    run.copyReal(*inputs[a], ofPoints ? pointArrays : cellArrays, values, "input array " + array.name,
      ofPoints ? pointOffset : cellOffset);
    (ofPoints ? pointOffset : cellOffset) += values;
  }
}

MeshKernel::MeshKernel(DeviceRun& run, const DeviceMesh& mesh, const MeshKernelDefinition& definition)
  : MeshKernel(run, mesh, definition, generateMeshKernel(definition))
{
}

MeshKernel::MeshKernel(
  DeviceRun& run, const DeviceMesh& mesh, const MeshKernelDefinition& definition, GeneratedMeshKernel generated)
  : State(std::make_unique<Internals>(mesh, definition, std::move(generated)))
{
  Internals& s = *State;
  // All programs are compiled before any link is built.
  const std::vector<cl::Program> programs = s.compilePrograms(run);
  s.allocatePackedArrays(run);
  if (definition.domain == MeshEntity::Points)
    s.bindPointLoop(run, programs.front());
  else
    s.bindCellLoops(run, programs);
}

MeshKernel::~MeshKernel() = default;

const GeneratedMeshKernel& MeshKernel::generated() const
{
  return State->generated;
}

bool MeshKernel::compiled() const
{
  return State->compiled;
}

double MeshKernel::compileMilliseconds() const
{
  return State->compileMilliseconds;
}

RealBuffer MeshKernel::execute(DeviceRun& run, const std::vector<const RealBuffer*>& inputs, int iterations,
  const MeshKernelObserver& observer)
{
  Internals& s = *State;
  const MeshKernelDefinition& definition = s.definition;
  if (iterations < 1)
  {
    throw Error("Iterations must be 1 or more, not " + std::to_string(iterations));
  }
  s.packInputs(run, inputs);

  const std::size_t resultValues = s.tuples(definition.domain) * static_cast<std::size_t>(definition.resultComponents);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  RealBuffer current = run.allocateReal(resultValues, definition.resultName);
  run.fillReal(current, nan, definition.resultName);
  RealBuffer other;
  const RealBuffer* initial = nullptr;
  switch (s.generated.feedback)
  {
    case GeneratedMeshKernel::Feedback::Coordinates:
      initial = &s.mesh.points();
      break;
    case GeneratedMeshKernel::Feedback::Input:
      initial = inputs[s.generated.feedbackInput];
      break;
    case GeneratedMeshKernel::Feedback::None:
      break;
  }
  if (initial && iterations > 1)
  {
    other = run.allocateReal(resultValues, definition.resultName + " (previous iterate)");
    run.fillReal(other, nan, definition.resultName);
  }
  // Jacobi: iteration k reads iterate k-1 (`initial` for the first) and writes iterate k;
  // the two buffers swap by rebinding the step arguments.
  const RealBuffer* previous = initial;
  for (int iteration = 1; iteration <= iterations; ++iteration)
  {
    for (std::size_t l = 0; l < s.launches.size(); ++l)
    {
      if (initial)
        run.call(s.launches[l], s.sizes[l], "mesh kernel", *previous, current);
      else
        run.call(s.launches[l], s.sizes[l], "mesh kernel", current);
    }
    if (observer && !observer(iteration, iterations))
      break;
    if (initial && iteration < iterations)
    {
      std::swap(current, other);
      previous = &other;
    }
  }
  return current;
}

} // namespace gpumesh
