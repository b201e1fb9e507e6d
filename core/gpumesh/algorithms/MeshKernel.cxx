#include "gpumesh/algorithms/MeshKernel.h"

#include "gpumesh/mesh/RepeatedPoints.h"
#include "gpumesh/runtime/KernelSources.h"
#include "gpumesh/topology/CellNeighborLists.h"
#include "gpumesh/topology/VertexLinks.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
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
    "per_cell", "cell_ids", "first", "i", "mk_error" };
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
      // Its line breaks stay, so that lines counted in the result are the text's.
      const std::size_t end = std::min(text.find("*/", i + 2), text.size());
      out += ' ';
      out.append(static_cast<std::size_t>(std::count(text.begin() + i, text.begin() + end, '\n')), '\n');
      i = end + 1;
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

// The column of the user's text for `column` of `line` as compiled (after checkSubscripts).
long long userColumn(const GeneratedMeshKernel& generated, long long line, long long column)
{
  long long shift = 0;
  for (const SourceInsertion& insertion : generated.insertions)
  {
    if (insertion.line != line || insertion.column >= column)
      continue;
    shift += std::min<long long>(insertion.length, column - insertion.column);
  }
  return column - shift;
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
      errors += "\n  line " + std::to_string(line) + ", column " +
        std::to_string(userColumn(generated, line, error.column)) +
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

// A token of the declarations scan: a run of word characters (identifier or number), "<<",
// ">>" or one other character, with its line in the user's text.
struct Token
{
  std::string text;
  int line = 0;
};

// Where a comment, string or character literal that starts at `i` ends (i itself when none
// does): their words are not code.
std::size_t skipNonCode(const std::string& text, std::size_t i)
{
  if (text.compare(i, 2, "//") == 0)
    return std::min(text.find('\n', i), text.size());
  if (text.compare(i, 2, "/*") == 0)
    return std::min(text.find("*/", i + 2), text.size() - 2) + 2;
  if (text[i] == '"' || text[i] == '\'')
  {
    std::size_t k = i + 1;
    while (k < text.size() && text[k] != text[i] && text[k] != '\n')
      k += text[k] == '\\' ? 2 : 1;
    return std::min(k + 1, text.size());
  }
  return i;
}

// The tokens of `code` (comments removed, lines kept), and its object-like #define constants
// by name (their text).
std::vector<Token> tokenize(const std::string& code, std::map<std::string, std::string>* macros)
{
  std::vector<Token> tokens;
  int line = 1;
  bool lineStart = true;
  for (std::size_t i = 0; i < code.size();)
  {
    const char c = code[i];
    if (c == '\n' || std::isspace(static_cast<unsigned char>(c)))
    {
      line += c == '\n';
      lineStart = lineStart || c == '\n';
      ++i;
      continue;
    }
    const std::size_t skipped = skipNonCode(code, i);
    if (skipped != i)
    {
      i = skipped;
      continue;
    }
    if (c == '#' && lineStart && macros)
    {
      // A directive is not code; "#define NAME value" is remembered for array sizes. (Its
      // words are read without directives: "# # # ..." does not recurse.)
      const std::size_t end = std::min(code.find('\n', i), code.size());
      const std::vector<Token> words = tokenize(code.substr(i + 1, end - i - 1), nullptr);
      if (macros && words.size() >= 2 && words[0].text == "define" && isWordCharacter(words[1].text[0]))
      {
        const std::size_t name = code.find(words[1].text, i);
        const std::size_t after = name + words[1].text.size();
        if (after >= end || code[after] != '(')
          (*macros)[words[1].text] = code.substr(after, end - after);
      }
      i = end;
      continue;
    }
    lineStart = false;
    std::size_t end = i + 1;
    if (isWordCharacter(c))
      while (end < code.size() && isWordCharacter(code[end]))
        ++end;
    else if ((c == '<' || c == '>') && i + 1 < code.size() && code[i + 1] == c)
      end = i + 2;
    tokens.push_back({ code.substr(i, end - i), line });
    i = end;
  }
  return tokens;
}

// The value of an array size: integer literals, the text's #define constants, + - * / % << >>
// and parentheses. Anything else (or nesting deeper than a stack may take) leaves it unknown.
class SizeExpression
{
public:
  /// The text's constants, and their values once evaluated (each is evaluated once: constants
  /// defined from one another do not multiply the work).
  struct Constants
  {
    std::map<std::string, std::string> text;
    std::map<std::string, std::optional<double>> values;
  };

  SizeExpression(Constants& constants, int depth)
    : Defined(constants)
    , Depth(depth)
  {
  }

  std::optional<double> evaluate(const std::vector<Token>& tokens, std::size_t begin, std::size_t end)
  {
    Tokens = &tokens;
    At = begin;
    End = end;
    const double value = shift(0);
    if (!Known || At != End || !(value >= 0) || value > 1e18 || value != std::floor(value))
      return std::nullopt;
    return value;
  }

private:
  static constexpr int maximumNesting = 32;

  bool next(const char* text) const { return At < End && (*Tokens)[At].text == text; }

  double shift(int nesting)
  {
    double value = sum(nesting);
    while (Known && (next("<<") || next(">>")))
    {
      const bool left = (*Tokens)[At++].text == "<<";
      const double by = sum(nesting);
      Known = Known && by >= 0 && by < 63;
      if (Known)
        value = left ? std::ldexp(value, static_cast<int>(by)) : std::floor(std::ldexp(value, -static_cast<int>(by)));
    }
    return value;
  }

  double sum(int nesting)
  {
    double value = product(nesting);
    while (Known && (next("+") || next("-")))
    {
      const bool plus = (*Tokens)[At++].text == "+";
      const double term = product(nesting);
      value = plus ? value + term : value - term;
    }
    return value;
  }

  double product(int nesting)
  {
    double value = factor(nesting);
    while (Known && (next("*") || next("/") || next("%")))
    {
      const char op = (*Tokens)[At++].text[0];
      const double by = factor(nesting);
      Known = Known && (op == '*' || by != 0);
      if (Known)
        value = op == '*' ? value * by : op == '/' ? std::trunc(value / by) : std::fmod(value, by);
    }
    return value;
  }

  double factor(int nesting)
  {
    if (At >= End || nesting > maximumNesting)
    {
      Known = false;
      return 0;
    }
    const std::string& text = (*Tokens)[At++].text;
    if (text == "-" || text == "+")
      return (text == "-" ? -1 : 1) * factor(nesting + 1);
    if (text == "(")
    {
      const double value = shift(nesting + 1);
      Known = Known && next(")");
      ++At;
      return value;
    }
    if (std::isdigit(static_cast<unsigned char>(text[0])))
      return literal(text);
    const auto macro = Defined.text.find(text);
    if (macro != Defined.text.end() && Depth < maximumNesting)
    {
      auto value = Defined.values.find(text);
      if (value == Defined.values.end())
      {
        const std::vector<Token> expansion = tokenize(macro->second, nullptr);
        Defined.values[text] = std::nullopt; // while it is evaluated: a constant defined by itself is unknown
        const std::optional<double> evaluated =
          SizeExpression(Defined, Depth + 1).evaluate(expansion, 0, expansion.size());
        value = Defined.values.insert_or_assign(text, evaluated).first;
      }
      Known = Known && value->second.has_value();
      return value->second.value_or(0);
    }
    Known = false;
    return 0;
  }

  // 10000, 0x2710, 10000u, 10000UL.
  double literal(const std::string& text)
  {
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    double value = 0;
    std::size_t k = hex ? 2 : 0;
    for (; k < text.size() && std::isxdigit(static_cast<unsigned char>(text[k])); ++k)
    {
      if (!hex && !std::isdigit(static_cast<unsigned char>(text[k])))
        break;
      const int digit = std::isdigit(static_cast<unsigned char>(text[k])) ? text[k] - '0'
                                                                          : std::tolower(text[k]) - 'a' + 10;
      value = value * (hex ? 16 : 10) + digit;
    }
    for (; k < text.size(); ++k)
      Known = Known && std::strchr("uUlL", text[k]) != nullptr;
    return value;
  }

  Constants& Defined;
  int Depth;
  const std::vector<Token>* Tokens = nullptr;
  std::size_t At = 0;
  std::size_t End = 0;
  bool Known = true;
};

// Bytes of one element of a private type, when REAL is float and when it is double; 0 for a
// word that is not a type. Vectors of 3 take the room of 4.
std::pair<std::uint64_t, std::uint64_t> elementBytes(const std::string& word)
{
  static const std::map<std::string, std::uint64_t> scalars{ { "char", 1 }, { "uchar", 1 }, { "bool", 1 },
    { "short", 2 }, { "ushort", 2 }, { "half", 2 }, { "int", 4 }, { "uint", 4 }, { "float", 4 }, { "long", 8 },
    { "ulong", 8 }, { "double", 8 }, { "size_t", 8 }, { "ptrdiff_t", 8 }, { "intptr_t", 8 }, { "uintptr_t", 8 } };
  std::size_t digits = word.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(word[digits - 1])))
    --digits;
  const std::string base = word.substr(0, digits);
  const std::string width = word.substr(digits);
  std::uint64_t lanes = 1;
  if (!width.empty())
  {
    if (width != "2" && width != "3" && width != "4" && width != "8" && width != "16")
      return { 0, 0 };
    lanes = width == "3" ? 4 : std::stoull(width);
  }
  if (base == "REAL")
    return { 4 * lanes, 8 * lanes };
  const auto found = scalars.find(base);
  if (found == scalars.end() || (base == "bool" && lanes > 1))
    return { 0, 0 };
  return { found->second * lanes, found->second * lanes };
}

// The private arrays `code` (comments removed) declares, "TYPE name[N][M], *p[K] = ...;",
// whose sizes are known. Arrays of the local, global and constant spaces are not private.
std::vector<PrivateArray> declaredPrivateArrays(const std::string& code)
{
  static const std::set<std::string> otherSpaces{ "__local", "local", "__global", "global", "__constant",
    "constant" };
  SizeExpression::Constants constants;
  const std::vector<Token> tokens = tokenize(code, &constants.text);
  const auto at = [&](std::size_t k) -> const std::string& {
    static const std::string none;
    return k < tokens.size() ? tokens[k].text : none;
  };
  std::vector<PrivateArray> arrays;
  for (std::size_t t = 0; t < tokens.size(); ++t)
  {
    const auto bytes = elementBytes(tokens[t].text);
    if (bytes.first == 0 || (t > 0 && otherSpaces.count(at(t - 1))) || (t > 1 && otherSpaces.count(at(t - 2))))
      continue;
    std::size_t k = t + 1;
    while (true) // one declarator after another
    {
      bool pointer = false;
      for (; at(k) == "*"; ++k)
        pointer = true;
      if (at(k).empty() || !(std::isalpha(static_cast<unsigned char>(at(k)[0])) || at(k)[0] == '_'))
        break;
      PrivateArray array;
      array.name = at(k);
      array.line = tokens[k].line;
      ++k;
      double elements = 1;
      bool subscripted = false;
      while (at(k) == "[")
      {
        std::size_t close = k + 1;
        for (int depth = 1; close < tokens.size(); ++close)
        {
          depth += at(close) == "[" ? 1 : at(close) == "]" ? -1 : 0;
          if (depth == 0)
            break;
        }
        const std::optional<double> size = SizeExpression(constants, 0).evaluate(tokens, k + 1, close);
        elements = size ? elements * *size : std::numeric_limits<double>::quiet_NaN();
        subscripted = true;
        k = close + 1;
      }
      if (subscripted && elements == elements && elements * 8 * 4 < 1e18)
      {
        array.singleBytes = static_cast<std::uint64_t>(elements) * (pointer ? 8 : bytes.first);
        array.doubleBytes = static_cast<std::uint64_t>(elements) * (pointer ? 8 : bytes.second);
        arrays.push_back(array);
      }
      if (at(k) == "=") // the initializer, to the next declarator or the end
      {
        for (int depth = 0; k < tokens.size() && !(depth == 0 && (at(k) == "," || at(k) == ";")); ++k)
        {
          const std::string& token = at(k);
          depth += (token == "(" || token == "[" || token == "{") ? 1
            : (token == ")" || token == "]" || token == "}")      ? -1
                                                                  : 0;
        }
      }
      if (at(k) != ",")
        break;
      ++k;
    }
  }
  return arrays;
}

// Each subscript of an array the generator declares and checks (`checked`: identifier ->
// size, variable number), result[c] beyond 4 components and wide arrays of the domain's
// entity, wrapped as [MK_INDEX(c, size, variable)]; where the text was inserted goes to
// `insertions`.
std::string checkSubscripts(const std::string& body, const std::map<std::string, std::pair<int, int>>& checked,
  std::vector<SourceInsertion>& insertions)
{
  std::vector<std::pair<std::size_t, std::string>> inserts; // before body[first], in order
  for (std::size_t i = 0; i < body.size();)
  {
    const std::size_t skipped = skipNonCode(body, i);
    if (skipped != i || !isWordCharacter(body[i]))
    {
      i = std::max(skipped, i + 1);
      continue;
    }
    std::size_t end = i;
    while (end < body.size() && isWordCharacter(body[end]))
      ++end;
    const auto found = checked.find(body.substr(i, end - i));
    std::size_t open = end;
    while (open < body.size() && std::isspace(static_cast<unsigned char>(body[open])))
      ++open;
    const bool member = i > 0 && (body[i - 1] == '.' || (body[i - 1] == '>' && i > 1 && body[i - 2] == '-'));
    if (found != checked.end() && !member && open < body.size() && body[open] == '[')
    {
      std::size_t close = open + 1;
      for (int depth = 1; close < body.size();)
      {
        const std::size_t past = skipNonCode(body, close);
        if (past != close)
        {
          close = past;
          continue;
        }
        depth += body[close] == '[' ? 1 : body[close] == ']' ? -1 : 0;
        if (depth == 0)
          break;
        ++close;
      }
      if (close < body.size())
      {
        inserts.emplace_back(open + 1, "MK_INDEX(");
        inserts.emplace_back(close, ", " + std::to_string(found->second.first) + ", " +
            std::to_string(found->second.second) + ")");
      }
    }
    i = end;
  }
  std::stable_sort(inserts.begin(), inserts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  int line = 1;
  std::size_t lineStart = 0; // in out
  std::size_t from = 0;
  const auto copyTo = [&](std::size_t to) {
    for (; from < to; ++from)
    {
      out += body[from];
      if (body[from] == '\n')
      {
        ++line;
        lineStart = out.size();
      }
    }
  };
  for (const auto& [position, text] : inserts)
  {
    copyTo(position);
    insertions.push_back({ line, static_cast<int>(out.size() - lineStart) + 1, static_cast<int>(text.size()) });
    out += text;
  }
  copyTo(body.size());
  return out;
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

// A checked index's number in the program, for what it is: "neighbours_x(k) with k".
int checkedVariable(GeneratedMeshKernel& generated, const std::string& what)
{
  generated.checkedNames.push_back(what);
  return static_cast<int>(generated.checkedNames.size()) - 1;
}

// The array read at the entities its link reaches (the points or cells around, the
// neighbours): a tuple, or one component of a wide one. The templates define the link
// macros (MK_CELL, MK_POINT, MK_NEIGHBOUR), which check k.
std::string accessorDefine(const ArrayPlan& plan, MeshEntity domain, GeneratedMeshKernel& generated)
{
  const bool pointsDomain = domain == MeshEntity::Points;
  const bool ofPoints = plan.array->entity == MeshEntity::Points;
  const std::string prefix =
    ofPoints ? (pointsDomain ? "neighbours" : "points") : (pointsDomain ? "cells" : "neighbours");
  const std::string link =
    ofPoints ? (pointsDomain ? "MK_NEIGHBOUR" : "MK_POINT") : (pointsDomain ? "MK_CELL" : "MK_NEIGHBOUR");
  const std::string accessor = prefix + "_" + plan.identifier;
  const int n = plan.array->components;
  if (n <= 4)
  {
    const int k = checkedVariable(generated, accessor + "(k) with k");
    return "#define " + accessor + "(k) " + readTuple(plan, link + "(k, " + std::to_string(k) + ")") + "\n";
  }
  const int k = checkedVariable(generated, accessor + "(k, c) with k");
  const int c = checkedVariable(generated, accessor + "(k, c) with c");
  return "#define " + accessor + "(k, c) MK_READ_N(" + plan.pointer + ", " + std::to_string(n) + ", " + link + "(k, " +
    std::to_string(k) + "), MK_INDEX(c, " + std::to_string(n) + ", " + std::to_string(c) + "))\n";
}

// Whether the index checks are on, and the numbers of the checked link variables the
// templates define (kernels/algorithms/mesh_kernel_*.cl).
std::string checkDefines(const MeshKernelDefinition& definition, GeneratedMeshKernel& generated)
{
  std::string defines = "#define MK_CHECKED " + std::to_string(int(definition.checkIndices)) + "\n";
  const bool pointsDomain = definition.domain == MeshEntity::Points;
  for (const char* variable : pointsDomain ? std::vector<const char*>{ "cell_id", "neighbour_id", "neighbours_x" }
                                           : std::vector<const char*>{ "point_id", "points_x", "neighbour_id" })
  {
    const int number = checkedVariable(generated, std::string(variable) + "(k) with k");
    defines += "#define MK_VAR_" + std::string(variable) + " " + std::to_string(number) + "\n";
  }
  return defines;
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

// `const REAL name = mk_parameters[i];` for each parameter (the template's PARAMETER_VARIABLES).
std::string parameterDefines(const MeshKernelDefinition& definition)
{
  std::string variables;
  for (std::size_t p = 0; p < definition.parameters.size(); ++p)
    variables += "const REAL " + definition.parameters[p].name + " = mk_parameters[" + std::to_string(p) + "]; ";
  return "#define PARAMETER_VARIABLES " + variables + "\n";
}

// The #define lines the templates read (kernels/algorithms/mesh_kernel_*.cl say which).
std::string writeDefines(
  const MeshKernelDefinition& definition, GeneratedMeshKernel& generated, const std::vector<ArrayPlan>& plans)
{
  std::string defines =
    loopDefines(definition, generated) + checkDefines(definition, generated) + pointerDefines(plans);
  std::string variables;
  for (const ArrayPlan& plan : plans)
  {
    defines += accessorDefine(plan, definition.domain, generated);
    if (plan.array->entity == definition.domain)
      variables += inputVariable(plan);
  }
  return defines + "#define INPUT_VARIABLES " + variables + "\n" + parameterDefines(definition) +
    resultDefines(definition, generated);
}

// The user's text, with the subscripts of the arrays the generator declares checked:
// result[c] beyond 4 components, and the wide arrays of the domain's own entity.
std::string checkedBody(
  const MeshKernelDefinition& definition, const std::vector<ArrayPlan>& plans, GeneratedMeshKernel& generated)
{
  if (!definition.checkIndices)
    return definition.body;
  std::map<std::string, std::pair<int, int>> checked;
  if (definition.resultComponents > 4)
  {
    checked["result"] = { definition.resultComponents, checkedVariable(generated, "result[c] with c") };
  }
  for (const ArrayPlan& plan : plans)
  {
    if (plan.array->entity == definition.domain && plan.array->components > 4)
    {
      checked[plan.identifier] = { plan.array->components,
        checkedVariable(generated, plan.identifier + "[c] with c") };
    }
  }
  return checked.empty() ? definition.body : checkSubscripts(definition.body, checked, generated.insertions);
}

// Whether `name` is a C identifier: [A-Za-z_][A-Za-z0-9_]*.
bool isIdentifier(const std::string& name)
{
  if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) { return isWordCharacter(c); });
}

std::string trimmed(const std::string& text)
{
  const char* blanks = " \t\r\n";
  const std::size_t begin = text.find_first_not_of(blanks);
  if (begin == std::string::npos)
    return std::string();
  return text.substr(begin, text.find_last_not_of(blanks) - begin + 1);
}

// Keywords and types of OpenCL C a parameter may not be named.
const std::set<std::string>& openclWords()
{
  static const std::set<std::string> words{ "auto", "break", "case", "char", "const", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "half", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "bool", "true", "false", "uchar", "ushort", "uint", "ulong", "size_t",
    "ptrdiff_t", "intptr_t", "uintptr_t", "global", "local", "constant", "private", "kernel", "read_only",
    "write_only", "read_write", "__global", "__local", "__constant", "__private", "__kernel", "REAL", "REAL2",
    "REAL3", "REAL4", "REAL8", "REAL16" };
  return words;
}

// The names the program around the user's text defines or calls: every #define, and every
// identifier followed by '(' (its functions, the OpenCL built-ins its macros use).
std::set<std::string> programNames(const std::string& prelude)
{
  std::set<std::string> names;
  const std::string code = withoutComments(prelude);
  for (std::size_t i = 0; i < code.size();)
  {
    if (!isWordCharacter(code[i]))
    {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < code.size() && isWordCharacter(code[end]))
      ++end;
    const std::string word = code.substr(i, end - i);
    std::size_t next = end;
    while (next < code.size() && (code[next] == ' ' || code[next] == '\t'))
      ++next;
    std::size_t back = i;
    while (back > 0 && (code[back - 1] == ' ' || code[back - 1] == '\t'))
      --back;
    const bool defined = back >= 7 && code.compare(back - 7, 7, "#define") == 0;
    if (defined || (next < code.size() && code[next] == '('))
      names.insert(word);
    i = end;
  }
  return names;
}

// The parameters' names checked against every name the program gives meaning to.
void requireParameterNames(const MeshKernelDefinition& definition, const std::vector<ArrayPlan>& plans)
{
  std::set<std::string> seen;
  for (const KernelParameter& parameter : definition.parameters)
  {
    const std::string entry = "Parameter '" + parameter.name + "'";
    if (!isIdentifier(parameter.name))
      throw Error(entry + " is not a C identifier (letters, digits and _, not starting with a digit)");
    if (!seen.insert(parameter.name).second)
      throw Error(entry + " is given twice");
    if (!std::isfinite(parameter.value))
      throw Error(entry + " = " + formatNumber(parameter.value) + " is not a finite number");
    if (contextualNames().count(parameter.name))
      throw Error(entry + " is a variable the Kernel already has: choose another name");
    if (openclWords().count(parameter.name))
      throw Error(entry + " is a keyword or type of OpenCL C: choose another name");
    if (parameter.name.compare(0, 3, "mk_") == 0 || parameter.name.compare(0, 3, "MK_") == 0)
      throw Error(entry + " starts with mk_ or MK_, which the generated program keeps for itself");
    if (findPlan(plans, parameter.name))
      throw Error(entry + " is also the variable of an input array: choose another name");
  }
}

// After generation: no parameter may be a name the program defines or calls, nor any name of
// the loop's template (its arguments and locals, which the parameters' variables sit beside).
void requireParametersOutsideProgram(const MeshKernelDefinition& definition, const GeneratedMeshKernel& generated)
{
  if (definition.parameters.empty())
    return;
  const std::size_t user = generated.source.find("#line 1 \"Kernel\"");
  std::set<std::string> names = programNames(generated.source.substr(0, user));
  const std::string templateName =
    definition.domain == MeshEntity::Points ? "mesh_kernel_points" : "mesh_kernel_cells";
  const std::set<std::string> locals = scanText(withoutComments(kernelSource(templateName))).identifiers;
  names.insert(locals.begin(), locals.end());
  for (const KernelParameter& parameter : definition.parameters)
  {
    if (names.count(parameter.name))
    {
      throw Error("Parameter '" + parameter.name + "' is a name the generated program already defines or uses "
                  "(see GeneratedSource): choose another name");
    }
  }
}


// The names kernels/algorithms/mesh_toolkit.cl (the device toolkit) defines beyond
// kernels/runtime/common.cl: its functions ("inline <type> <name>(") and macros.
std::set<std::string> definedNames(const std::string& source)
{
  std::set<std::string> names;
  std::istringstream lines(withoutComments(source));
  for (std::string line; std::getline(lines, line);)
  {
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos)
      continue;
    std::size_t end = std::string::npos;
    if (line.compare(start, 7, "inline ") == 0)
    {
      end = line.find('(', start);
    }
    else if (line.compare(start, 8, "#define ") == 0)
    {
      end = line.find_first_not_of(" \t", start + 8);
      while (end < line.size() && isWordCharacter(line[end]))
        ++end;
    }
    if (end == std::string::npos)
      continue;
    std::size_t first = end;
    while (first > start && isWordCharacter(line[first - 1]))
      --first;
    if (first < end)
      names.insert(line.substr(first, end - first));
  }
  return names;
}

const std::set<std::string>& toolkitNames()
{
  static const std::set<std::string> names = [] {
    std::set<std::string> toolkit = definedNames(programSource("mesh_toolkit"));
    for (const std::string& name : definedNames(kernelSource("common")))
      toolkit.erase(name);
    return toolkit;
  }();
  return names;
}

// The program: the template with the user's text at its marker, under its own line numbers.
void spliceIntoTemplate(const MeshKernelDefinition& definition, const std::vector<ArrayPlan>& plans,
  const std::string& defines, GeneratedMeshKernel& generated)
{
  const bool pointsDomain = definition.domain == MeshEntity::Points;
  const std::string templateText = kernelSource(pointsDomain ? "mesh_kernel_points" : "mesh_kernel_cells");
  const std::size_t marker = templateText.find(userMarker);
  if (marker == std::string::npos)
  {
    throw Error("kernels/mesh_kernel_*.cl lacks the marker " + std::string(userMarker));
  }
  // The toolkit only when the text calls it: every other kernel compiles as fast as before.
  const std::string prelude = generated.usesToolkit ? programSource("mesh_toolkit") : kernelSource("common") + "\n";
  const std::string before = prelude + defines + kernelSource("mesh_kernel_access") + "\n" + templateText.substr(0, marker);
  const std::string after = templateText.substr(marker + std::string(userMarker).size());
  const std::string user = checkedBody(definition, plans, generated) +
    (definition.body.empty() || definition.body.back() != '\n' ? "\n" : "");
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

std::vector<KernelParameter> parseKernelParameters(const std::string& text)
{
  std::vector<KernelParameter> parameters;
  std::string entries = text;
  std::replace(entries.begin(), entries.end(), '\n', ';');
  std::istringstream stream(entries);
  std::string raw;
  std::set<std::string> seen;
  while (std::getline(stream, raw, ';'))
  {
    const std::string entry = trimmed(raw);
    if (entry.empty())
      continue;
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos)
      throw Error("Parameters entry '" + entry + "' is not name=value");
    KernelParameter parameter;
    parameter.name = trimmed(entry.substr(0, equals));
    const std::string value = trimmed(entry.substr(equals + 1));
    if (!isIdentifier(parameter.name))
    {
      throw Error("Parameters entry '" + entry + "': '" + parameter.name +
        "' is not a C identifier (letters, digits and _, not starting with a digit)");
    }
    if (!seen.insert(parameter.name).second)
      throw Error("Parameters entry '" + entry + "': '" + parameter.name + "' is given twice");
    char* end = nullptr;
    parameter.value = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size())
      throw Error("Parameters entry '" + entry + "': '" + value + "' is not a number");
    if (!std::isfinite(parameter.value))
      throw Error("Parameters entry '" + entry + "': '" + value + "' is not a finite number");
    parameters.push_back(parameter);
  }
  return parameters;
}

// Every check before anything is written, in the order of the errors the header lists; then
// the #define lines and the splice.
GeneratedMeshKernel generateMeshKernel(const MeshKernelDefinition& definition)
{
  const std::string code = withoutComments(definition.body);
  requireKernelText(definition, code);
  std::vector<ArrayPlan> plans = planArrays(definition.inputs);
  requireParameterNames(definition, plans);
  GeneratedMeshKernel generated;
  planFeedback(definition, generated);
  const TextUses uses = scanText(code);
  rejectForeignVariables(definition.domain, uses);
  requireAccessedArrays(definition, plans, uses);
  generated.usesCells =
    definition.domain == MeshEntity::Points && uses.usesLink("cell_count", "cell_id", "cells");
  generated.usesNeighbours = uses.usesLink("neighbour_count", "neighbour_id", "neighbours");
  const std::set<std::string>& toolkit = toolkitNames();
  generated.usesToolkit = std::any_of(
    uses.identifiers.begin(), uses.identifiers.end(), [&](const std::string& name) { return toolkit.count(name) > 0; });
  generated.privateArrays = declaredPrivateArrays(code);
  packArrays(plans, generated);
  generated.checkedNames = { std::string() };
  spliceIntoTemplate(definition, plans, writeDefines(definition, generated, plans), generated);
  requireParametersOutsideProgram(definition, generated);
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
  DeviceBuffer<cl_int> errors; // the first index out of range (mesh_kernel_access.cl)
  RealBuffer parameters; // the parameters' values, in the definition's order (one 0 when none)
  std::vector<BoundKernel> launches; // one per point loop, or per cell group
  std::vector<std::size_t> sizes;
  std::size_t sliceSize = defaultSliceSize;

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
  void requireDeclaredPrivateMemory(Precision precision) const;
  void requireKernelPrivateMemory(DeviceRun& run) const;
  void throwIfOutOfRange(DeviceRun& run);
};

namespace
{
std::string kibibytes(std::uint64_t bytes)
{
  return std::to_string(bytes) + " bytes (" + formatNumber(std::round(bytes / 102.4) / 10) + " KiB)";
}

// GPUMESH_KERNEL_SLICE when it is a positive count, else defaultSliceSize.
std::size_t initialSliceSize()
{
  const char* text = std::getenv("GPUMESH_KERNEL_SLICE");
  char* end = nullptr;
  const unsigned long long value = text ? std::strtoull(text, &end, 10) : 0;
  return value > 0 && end && *end == '\0' ? static_cast<std::size_t>(value) : MeshKernel::defaultSliceSize;
}
} // namespace

// The private arrays the text declares, before compiling: a work-item that cannot hold them
// crashes its work-group (PoCL's stack) or the launch, and the process with it.
void MeshKernel::Internals::requireDeclaredPrivateMemory(Precision precision) const
{
  const auto bytesOf = [&](const PrivateArray& array) {
    return precision == Precision::Double ? array.doubleBytes : array.singleBytes;
  };
  std::uint64_t total = 0;
  const PrivateArray* largest = nullptr;
  for (const PrivateArray& array : generated.privateArrays)
  {
    total += bytesOf(array);
    if (!largest || bytesOf(array) > bytesOf(*largest))
      largest = &array;
  }
  if (total > maximumPrivateBytes)
  {
    throw Error("The Kernel's private arrays take " + kibibytes(total) + " per work-item, more than the " +
      kibibytes(maximumPrivateBytes) + " a work-item may hold: '" + largest->name + "' (line " +
      std::to_string(largest->line) + ") alone takes " + kibibytes(bytesOf(*largest)) +
      ". Declare smaller arrays, or read large data from an input array");
  }
}

// What the driver says each work-item needs (CL_KERNEL_PRIVATE_MEM_SIZE; PoCL gives 1024
// whatever the arrays): arrays of sizes the text scan could not evaluate, spills.
void MeshKernel::Internals::requireKernelPrivateMemory(DeviceRun& run) const
{
  for (const BoundKernel& launch : launches)
  {
    cl_ulong bytes = 0;
    if (launch.kernel.getWorkGroupInfo(run.device().device(), CL_KERNEL_PRIVATE_MEM_SIZE, &bytes) != CL_SUCCESS ||
      bytes <= maximumPrivateBytes)
      continue;
    std::string arrays;
    for (const PrivateArray& array : generated.privateArrays)
      arrays += (arrays.empty() ? "" : ", ") + ("'" + array.name + "' (line " + std::to_string(array.line) + ")");
    throw Error("The Kernel needs " + kibibytes(bytes) + " of private memory per work-item on device '" +
      run.info().label() + "', more than the " + kibibytes(maximumPrivateBytes) + " a work-item may hold" +
      (arrays.empty() ? std::string() : "; its arrays: " + arrays) +
      ". Declare smaller arrays, or read large data from an input array");
  }
}

// The first index out of range the last launches recorded, as an error; the buffer is
// zeroed for the next launch when there is none.
void MeshKernel::Internals::throwIfOutOfRange(DeviceRun& run)
{
  std::array<cl_int, 6> first{};
  run.download(errors, first.data(), first.size(), "GPU Mesh Kernel index checks");
  if (first[0] == 0)
    return;
  const std::size_t variable = static_cast<std::size_t>(first[2]);
  const std::string what = variable < generated.checkedNames.size() ? generated.checkedNames[variable] : "an index";
  const std::string index = what.substr(what.size() - 1); // "... with k"
  const std::string entity = definition.domain == MeshEntity::Points ? "point" : "cell";
  const std::string range = first[4] > 0
    ? "outside 0 to " + std::to_string(first[4] - 1)
    : "but " + entity + " " + std::to_string(first[5]) + " has none";
  throw Error("The Kernel's line " + std::to_string(first[1]) + " reads or writes out of range: " + what + " = " +
    std::to_string(first[3]) + ", " + range + " (at " + entity + " " + std::to_string(first[5]) +
    "). The index was clamped and the result discarded; keep " + index + " within its count");
}

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
  errors = run.allocate<cl_int>(6, "GPU Mesh Kernel index checks");
  std::vector<double> values;
  for (const KernelParameter& parameter : definition.parameters)
  {
    if (run.precision() == Precision::Single &&
      std::abs(parameter.value) > static_cast<double>(std::numeric_limits<float>::max()))
    {
      throw Error("Parameter '" + parameter.name + "' = " + formatNumber(parameter.value) +
        " is beyond the range of float (Precision Single): use Precision Double or a smaller value");
    }
    values.push_back(parameter.value);
  }
  if (values.empty())
    values.push_back(0.0); // no buffer may be empty
  parameters = run.uploadReal(values.data(), values.size(), "GPU Mesh Kernel parameters");
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
      cellArrays, errors, parameters, links...);
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
        pointTotal, cellTotal, pointArrays, cellArrays, errors, parameters, neighbourCells->offsets,
        neighbourCells->ids));
    else
      launches.push_back(run.bind(program, "mesh_kernel", stepArguments(), CellArgs{ group }, kind, mesh.points(),
        pointTotal, cellTotal, pointArrays, cellArrays, errors, parameters));
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
  s.sliceSize = initialSliceSize();
  s.requireDeclaredPrivateMemory(run.precision());
  // All programs are compiled before any link is built.
  const std::vector<cl::Program> programs = s.compilePrograms(run);
  s.allocatePackedArrays(run);
  if (definition.domain == MeshEntity::Points)
    s.bindPointLoop(run, programs.front());
  else
    s.bindCellLoops(run, programs);
  s.requireKernelPrivateMemory(run);
}

void MeshKernel::setSliceSize(std::size_t workItems)
{
  State->sliceSize = std::max<std::size_t>(workItems, 1);
}

std::size_t MeshKernel::sliceSize() const
{
  return State->sliceSize;
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
  run.fill(s.errors, cl_int(0), "GPU Mesh Kernel index checks");
  std::size_t itemsPerIteration = 0;
  for (const std::size_t size : s.sizes)
    itemsPerIteration += size;
  // Jacobi: iteration k reads iterate k-1 (`initial` for the first) and writes iterate k;
  // the two buffers swap by rebinding the step arguments. Each loop runs in slices of whole
  // work-groups; once a slice's worth of work-items is queued the host waits for them, so that
  // the observer sees the device's progress and an abort stops the launches that follow (a
  // work-item that never ends cannot be stopped: OpenCL has no way to cancel a launch).
  const RealBuffer* previous = initial;
  std::size_t queued = 0;
  for (int iteration = 1; iteration <= iterations; ++iteration)
  {
    std::size_t done = 0;
    for (std::size_t l = 0; l < s.launches.size(); ++l)
    {
      const std::size_t group = run.groupSize(s.launches[l]);
      const std::size_t slice = (s.sliceSize + group - 1) / group * group;
      for (std::size_t first = 0; first < s.sizes[l]; first += slice)
      {
        const LaunchRange range(std::min(slice, s.sizes[l] - first), 0, first);
        if (initial)
          run.call(s.launches[l], range, "mesh kernel", *previous, current);
        else
          run.call(s.launches[l], range, "mesh kernel", current);
        done += range.global;
        queued += range.global;
        const bool last = done == itemsPerIteration;
        if (queued >= slice)
        {
          run.finish();
          queued = 0;
          if (definition.checkIndices)
            s.throwIfOutOfRange(run);
        }
        if (observer && (queued == 0 || last) &&
          !observer(iteration, iterations, static_cast<double>(done) / static_cast<double>(itemsPerIteration)))
        {
          return current;
        }
      }
    }
    if (initial && iteration < iterations)
    {
      std::swap(current, other);
      previous = &other;
    }
  }
  if (definition.checkIndices)
    s.throwIfOutOfRange(run);
  return current;
}

} // namespace gpumesh
