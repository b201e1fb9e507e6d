#include "gpumesh/algorithms/MeshKernel.h"

#include "gpumesh/mesh/RepeatedPoints.h"
#include "gpumesh/runtime/KernelSources.h"
#include "gpumesh/topology/CellNeighborLists.h"
#include "gpumesh/topology/VertexLinks.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <optional>
#include <regex>
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

// The variables of the other domain, with what they mean, for the "link the domain does not
// have" error.
struct ForeignVariable
{
  const char* name;
  const char* meaning;
};

void rejectForeignVariables(MeshEntity domain, const std::set<std::string>& identifiers,
  const std::vector<std::pair<std::string, std::string>>& accessors)
{
  static const ForeignVariable ofCells[] = { { "point_count", "the number of a cell's points" },
    { "point_id", "the ids of a cell's points" } };
  static const ForeignVariable ofPoints[] = { { "cell_count", "the number of cells around a point" },
    { "cell_id", "the ids of the cells around a point" } };
  const bool points = domain == MeshEntity::Points;
  for (const ForeignVariable& variable : points ? ofCells : ofPoints)
  {
    if (identifiers.count(variable.name))
    {
      throw Error(std::string("The Kernel uses '") + variable.name + "' (" + variable.meaning +
        "), a link the " + (points ? "Points" : "Cells") + " domain does not have: set Domain to " +
        (points ? "Cells" : "Points") + " or see the variables of the " + (points ? "Points" : "Cells") +
        " domain in the Kernel's documentation");
    }
  }
  for (const auto& accessor : accessors)
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

// One chosen array as the kernel sees it.
struct ArrayPlan
{
  const KernelArray* array;
  std::string identifier;
  std::string pointer; // where its tuples start
};

std::string readTuple(const ArrayPlan& plan, const std::string& index)
{
  const int n = plan.array->components;
  return n <= 4 ? "MK_READ_" + std::to_string(n) + "(" + plan.pointer + ", " + index + ")"
                : std::string();
}

// "line L, column C: error: message" for each error of the build log in the user's text
// (clang writes "Kernel:3:5: error: ...", PoCL "error: Kernel:3:5: ..."; NVIDIA ignores #line
// and writes "<kernel>:145:5: error: ...", the line in the whole program).
std::string userErrors(const std::string& log, const GeneratedMeshKernel& generated)
{
  static const std::regex located(R"((error: )?(Kernel|<kernel>):(\d+):(\d+): (error: )?([^\n]*))");
  std::string errors;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), located); it != std::sregex_iterator(); ++it)
  {
    if (!(*it)[1].matched && !(*it)[5].matched)
      continue;
    int line = std::stoi((*it)[3].str());
    if ((*it)[2].str() == "<kernel>")
    {
      line -= generated.userFirstLine - 1;
      if (line < 1 || line > generated.userLineCount)
        continue; // in the generated part
    }
    errors += "\n  line " + std::to_string(line) + ", column " + (*it)[4].str() + ": error: " + (*it)[6].str();
  }
  return errors;
}

int countLines(const std::string& text)
{
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
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

GeneratedMeshKernel generateMeshKernel(const MeshKernelDefinition& definition)
{
  const bool pointsDomain = definition.domain == MeshEntity::Points;
  const std::string code = withoutComments(definition.body);
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

  // The arrays: unique identifiers that are not contextual variables.
  std::vector<ArrayPlan> plans;
  std::map<std::string, std::size_t> byIdentifier;
  for (const KernelArray& array : definition.inputs)
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
    if (byIdentifier.count(identifier))
    {
      throw Error("Input arrays '" + plans[byIdentifier[identifier]].array->name + "' and '" + array.name +
        "' are both '" + identifier + "' in the Kernel: choose one of them, or rename one");
    }
    byIdentifier[identifier] = plans.size();
    plans.push_back({ &array, identifier, {} });
  }

  // The result: new, the coordinates, or an input fed back between iterations.
  GeneratedMeshKernel generated;
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

  // What the text uses: links and accessors.
  std::set<std::string> identifiers;
  static const std::regex word(R"([A-Za-z_][A-Za-z0-9_]*)");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), word); it != std::sregex_iterator(); ++it)
    identifiers.insert(it->str());
  std::vector<std::pair<std::string, std::string>> accessors; // (link, array identifier)
  static const std::regex accessor(R"(\b(points|cells|neighbours)_([A-Za-z0-9_]+)\s*\()");
  for (auto it = std::sregex_iterator(code.begin(), code.end(), accessor); it != std::sregex_iterator(); ++it)
    accessors.emplace_back((*it)[1].str(), (*it)[2].str());
  rejectForeignVariables(definition.domain, identifiers, accessors);
  const MeshEntity neighbourEntity = definition.domain;
  for (const auto& [link, name] : accessors)
  {
    const MeshEntity wanted = link == "points" ? MeshEntity::Points
      : link == "cells"                        ? MeshEntity::Cells
                                               : neighbourEntity;
    if (name == "x" && wanted == MeshEntity::Points)
      continue;
    const auto found = byIdentifier.find(name);
    if (found == byIdentifier.end())
    {
      throw Error("The Kernel reads '" + link + "_" + name + "(k)', but no chosen array is '" + name + "' (" +
        listInputs(definition.inputs) + "): add the " + meshEntityName(wanted) + " array to InputArrays");
    }
    const KernelArray& array = *plans[found->second].array;
    if (array.entity != wanted)
    {
      throw Error("The Kernel reads '" + link + "_" + name + "(k)', but '" + array.name + "' is a " +
        meshEntityName(array.entity) + " array and " + link + "_ reads " + meshEntityName(wanted) +
        " arrays" + (link == "neighbours" ? " (neighbours are of the domain's own entity)" : ""));
    }
  }
  const auto uses = [&](const char* count, const char* id, const char* link) {
    if (identifiers.count(count) || identifiers.count(id))
      return true;
    return std::any_of(accessors.begin(), accessors.end(), [&](const auto& a) { return a.first == link; });
  };
  generated.usesCells = pointsDomain && uses("cell_count", "cell_id", "cells");
  generated.usesNeighbours = uses("neighbour_count", "neighbour_id", "neighbours");

  // The #define lines.
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
  // Packed arrays: each entity's chosen arrays one after the other (the fed-back one is
  // `previous` instead), so the kernel's arguments do not depend on how many are chosen.
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
    const bool ofPoints = plan.array->entity == MeshEntity::Points;
    std::size_t& offset = ofPoints ? pointComponents : cellComponents;
    plan.pointer = "mk_array_" + plan.identifier;
    defines << "#define " << plan.pointer << " (" << (ofPoints ? "point_arrays" : "cell_arrays") << " + (size_t)"
            << offset << " * " << (ofPoints ? "point_total" : "cell_total") << ")\n";
    offset += static_cast<std::size_t>(plan.array->components);
  }
  std::string variables;
  for (const ArrayPlan& plan : plans)
  {
    const int n = plan.array->components;
    const std::string& name = plan.identifier;
    if (plan.array->entity == definition.domain)
    {
      variables += n <= 4 ? "const " + typeOf(n) + " " + name + " = " + readTuple(plan, "id") + "; "
                          : "REAL " + name + "[" + std::to_string(n) + "]; for (int mk_c = 0; mk_c < " +
            std::to_string(n) + "; ++mk_c) " + name + "[mk_c] = MK_READ_N(" + plan.pointer + ", " +
            std::to_string(n) + ", id, mk_c); ";
    }
    // Accessors at linked entities: a tuple, or one component of a wide one.
    std::vector<std::pair<std::string, std::string>> links; // (accessor prefix, id macro)
    if (plan.array->entity == MeshEntity::Points)
    {
      links.emplace_back(pointsDomain ? "neighbours" : "points", pointsDomain ? "neighbour_id" : "point_id");
    }
    else
    {
      links.emplace_back(pointsDomain ? "cells" : "neighbours", pointsDomain ? "cell_id" : "neighbour_id");
    }
    for (const auto& [prefix, idMacro] : links)
    {
      if (n <= 4)
        defines << "#define " << prefix << "_" << name << "(k) " << readTuple(plan, idMacro + "(k)") << "\n";
      else
        defines << "#define " << prefix << "_" << name << "(k, c) MK_READ_N(" << plan.pointer << ", " << n << ", "
                << idMacro << "(k), c)\n";
    }
  }
  defines << "#define INPUT_VARIABLES " << variables << "\n";
  const int m = definition.resultComponents;
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

  // The program: the template with the user's text at its marker, under its own line numbers.
  const std::string templateText = kernelSource(pointsDomain ? "mesh_kernel_points" : "mesh_kernel_cells");
  const std::size_t marker = templateText.find(userMarker);
  if (marker == std::string::npos)
  {
    throw Error("kernels/mesh_kernel_*.cl lacks the marker " + std::string(userMarker));
  }
  std::string before = kernelSource("common") + "\n" + defines.str() + kernelSource("mesh_kernel_access") +
    "\n" + templateText.substr(0, marker);
  std::string after = templateText.substr(marker + std::string(userMarker).size());
  const std::string user = definition.body + (definition.body.empty() || definition.body.back() != '\n' ? "\n" : "");
  // Lines: before, the #line directive, the user's text, the second directive, then `after`.
  const int afterLine = countLines(before) + 1 + countLines(user) + 1 + 1;
  generated.userFirstLine = countLines(before) + 2;
  generated.userLineCount = countLines(user);
  generated.source = before + "#line 1 \"Kernel\"\n" + user + "#line " + std::to_string(afterLine) +
    " \"GeneratedSource\"\n" + after;
  return generated;
}

struct MeshKernel::Internals
{
  Internals(const DeviceMesh& kernelMesh, const MeshKernelDefinition& kernelDefinition)
    : mesh(kernelMesh)
    , definition(kernelDefinition)
    , generated(generateMeshKernel(kernelDefinition))
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
};

MeshKernel::MeshKernel(DeviceRun& run, const DeviceMesh& mesh, const MeshKernelDefinition& definition)
  : State(std::make_unique<Internals>(mesh, definition))
{
  Internals& s = *State;
  // One program for the points; for the cells one per kind of the mesh, fixed-size kinds
  // specialised (cellKindOptions: point_count and the strides become constants, so loops over
  // a cell's points unroll). All are compiled before any link is built.
  const auto compile = [&](const std::string& options) {
    const auto begin = std::chrono::steady_clock::now();
    bool compiled = false;
    try
    {
      cl::Program program = run.generatedProgram(s.generated.source, "the GPU Mesh Kernel", &compiled, options);
      if (compiled)
      {
        s.compiled = true;
        s.compileMilliseconds +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
      }
      return program;
    }
    catch (const Error& error)
    {
      if (error.buildLog().empty())
        throw;
      const std::string errors = userErrors(error.buildLog(), s.generated);
      throw Error("The Kernel does not compile on device '" + run.info().label() + "'" +
          (errors.empty() ? std::string(" (see the build log and the GeneratedSource)") : ":" + errors),
        error.clCode(), error.buildLog());
    }
  };
  std::vector<cl::Program> programs;
  if (definition.domain == MeshEntity::Points)
    programs.push_back(compile({}));
  else
    for (const DeviceCellGroup& group : mesh.groups())
      programs.push_back(compile(cellKindOptions(group)));

  std::size_t pointComponents = 0;
  std::size_t cellComponents = 0;
  for (std::size_t a = 0; a < definition.inputs.size(); ++a)
  {
    if (s.generated.feedback == GeneratedMeshKernel::Feedback::Input && a == s.generated.feedbackInput)
      continue;
    (definition.inputs[a].entity == MeshEntity::Points ? pointComponents : cellComponents) +=
      static_cast<std::size_t>(definition.inputs[a].components);
  }
  const std::size_t points = s.tuples(MeshEntity::Points);
  const std::size_t cells = s.tuples(MeshEntity::Cells);
  s.pointArrays = run.allocateReal(pointComponents * points, "GPU Mesh Kernel point arrays");
  s.cellArrays = run.allocateReal(cellComponents * cells, "GPU Mesh Kernel cell arrays");
  const cl_uint step = s.generated.feedback == GeneratedMeshKernel::Feedback::None ? 1 : 2;
  const auto pointTotal = static_cast<cl_int>(points);
  const auto cellTotal = static_cast<cl_int>(cells);

  if (definition.domain == MeshEntity::Points)
  {
    if (s.generated.usesCells)
      s.cellsAround.emplace(vertexCells(run, mesh));
    if (s.generated.usesNeighbours)
    {
      const CellEntities edges(run, mesh, EntityType::Edges);
      s.neighbourPoints.emplace(vertexNeighbors(run, mesh, edges));
    }
    const auto bind = [&](const auto&... links) {
      return run.bind(programs.front(), "mesh_kernel", step, mesh.points(), pointTotal, cellTotal, s.pointArrays,
        s.cellArrays, links...);
    };
    const VertexTable* around = s.cellsAround ? &*s.cellsAround : nullptr;
    const VertexTable* joined = s.neighbourPoints ? &*s.neighbourPoints : nullptr;
    if (around && joined)
      s.launches.push_back(bind(around->entries(), around->rowStart(), around->degree(), joined->entries(),
        joined->rowStart(), joined->degree()));
    else if (around)
      s.launches.push_back(bind(around->entries(), around->rowStart(), around->degree()));
    else if (joined)
      s.launches.push_back(bind(joined->entries(), joined->rowStart(), joined->degree()));
    else
      s.launches.push_back(bind());
    s.sizes.push_back(points);
    return;
  }

  if (s.generated.usesNeighbours)
  {
    // A cell (5, 5, 7) would list its neighbour across (5, 7) twice, and be listed twice by it.
    rejectRepeatedPoints(run, mesh, "the GPU Mesh Kernel's neighbours");
    const CellEntities sides(run, mesh, EntityType::Sides);
    s.neighbourCells.emplace(cellNeighborLists(run, mesh, sides));
  }
  for (std::size_t g = 0; g < mesh.groups().size(); ++g)
  {
    const DeviceCellGroup& group = mesh.groups()[g];
    const cl::Program& program = programs[g];
    const auto kind = static_cast<cl_int>(group.kind);
    if (s.neighbourCells)
      s.launches.push_back(run.bind(program, "mesh_kernel", step, CellArgs{ group }, kind, mesh.points(),
        pointTotal, cellTotal, s.pointArrays, s.cellArrays, s.neighbourCells->offsets, s.neighbourCells->ids));
    else
      s.launches.push_back(run.bind(program, "mesh_kernel", step, CellArgs{ group }, kind, mesh.points(),
        pointTotal, cellTotal, s.pointArrays, s.cellArrays));
    s.sizes.push_back(group.count);
  }
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
  if (inputs.size() != definition.inputs.size())
  {
    throw Error("the GPU Mesh Kernel was given " + std::to_string(inputs.size()) + " arrays for " +
      std::to_string(definition.inputs.size()) + " inputs");
  }
  // Pack the inputs (all but a fed-back one) in the order the generator gave them offsets.
  std::size_t pointOffset = 0;
  std::size_t cellOffset = 0;
  for (std::size_t a = 0; a < inputs.size(); ++a)
  {
    const KernelArray& array = definition.inputs[a];
    const std::size_t values = s.tuples(array.entity) * static_cast<std::size_t>(array.components);
    if (!inputs[a] || inputs[a]->size() != values || inputs[a]->precision() != run.precision())
    {
      throw Error("input array '" + array.name + "' should hold " + std::to_string(values) + " values of the run's precision");
    }
    if (s.generated.feedback == GeneratedMeshKernel::Feedback::Input && a == s.generated.feedbackInput)
      continue;
    const bool ofPoints = array.entity == MeshEntity::Points;
    run.copyReal(*inputs[a], ofPoints ? s.pointArrays : s.cellArrays, values, "input array " + array.name,
      ofPoints ? pointOffset : cellOffset);
    (ofPoints ? pointOffset : cellOffset) += values;
  }

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
