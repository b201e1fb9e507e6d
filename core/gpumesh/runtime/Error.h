// gpumesh::Error: the single error type of the core.
#pragma once
#include <stdexcept>
#include <string>

namespace gpumesh
{

/// An error of the core: carries the OpenCL error code and its name (when the error came from
/// OpenCL), what was being done, and the build log of a kernel that failed to compile.
class Error : public std::runtime_error
{
public:
  explicit Error(const std::string& message, int clCode = 0, std::string buildLog = {});

  /// The OpenCL status code, 0 (CL_SUCCESS) when the error did not come from OpenCL.
  int clCode() const { return ClCode; }
  /// "CL_OUT_OF_RESOURCES" and so on; empty when clCode() is 0.
  const std::string& clName() const { return ClName; }
  /// The compiler's log for a program that failed to build; empty otherwise.
  const std::string& buildLog() const { return BuildLog; }

private:
  int ClCode;
  std::string ClName;
  std::string BuildLog;
};

/// The symbolic name of an OpenCL status code ("CL_INVALID_VALUE"), or "CL_ERROR(<code>)".
std::string clErrorName(int code);

/// Throws Error("<doing>: <name>") unless status is CL_SUCCESS.
void check(int status, const std::string& doing);

/// How every floating-point number in an error message is written: the shortest text that
/// reads back as the same double ("0.1", "1e+300", "-2.5e-07", "inf", "nan"), never the
/// 300 digits std::to_string gives for 1e300.
std::string formatNumber(double value);

} // namespace gpumesh
