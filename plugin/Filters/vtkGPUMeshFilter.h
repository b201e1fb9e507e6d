/**
 * @class   vtkGPUMeshFilter
 * @brief   base class of the GPUMesh filters: the OpenCL device and the accepted inputs
 *
 * Every GPUMesh filter takes a vtkPolyData or a vtkUnstructuredGrid and produces a dataset of
 * the same type. The work runs on the OpenCL device chosen by the Device property; all filters
 * of a process share one context and queue per device.
 *
 * On any error (a device that does not exist, bad input) the filter reports it with
 * vtkErrorMacro and produces an empty output: never a partial result. Subclasses implement
 * ExecuteOnDevice.
 *
 * The kernels compute in the precision chosen by the Precision property: by default that of
 * the input's points (double points run double kernels, which NVIDIA's and PoCL's OpenCL
 * support); geometry is computed relative to a point of each cell, so small cells far from
 * the origin keep their accuracy.
 *
 * Each run adds to the output's field data: `Device` (the device's label), `Precision`
 * (Single or Double), `KernelTimeMs`
 * (device time of all kernels, from OpenCL profiling events), and one
 * `KernelTimeMs_<kernel>` per kernel (its device time summed over its launches),
 * `HostTimeMs` (the wall time of RequestData minus KernelTimeMs: everything but the kernels,
 * transfers included), `ProgramBuildTimeMs` (wall time spent getting the OpenCL programs the run
 * needed, part of HostTimeMs; near 0 once the process has built them), `ProgramsBuilt` and
 * `ProgramsFromBinaryCache` (how many programs the run compiled from source or loaded from the
 * binary cache of an earlier process), `BytesUploaded`, `BytesDownloaded`, `BytesReadInPlace` (input arrays a
 * CPU device read where they are instead of a copy: the input's points and cells, mark
 * arrays) and `PeakDeviceMemoryBytes`.
 */
#ifndef vtkGPUMeshFilter_h
#define vtkGPUMeshFilter_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkPointSetAlgorithm.h"
#include "vtkSmartPointer.h" // for member

#include <cstddef> // for std::size_t

class vtkDataArray;
class vtkStringArray;
namespace gpumesh
{
class DeviceRun;
}

class GPUMESHFILTERS_EXPORT vtkGPUMeshFilter : public vtkPointSetAlgorithm
{
public:
  vtkTypeMacro(vtkGPUMeshFilter, vtkPointSetAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /**
   * The OpenCL device. One of:
   * - "auto" (default): the device named by the environment variable GPUMESH_DEVICE if it is
   *   set, else the first GPU, else the first CPU device (PoCL on a machine without a GPU).
   *   Under MPI the processes of one node take different GPUs: node-local rank modulo the
   *   node's GPU count;
   * - "gpu" or "cpu": the first device of that type;
   * - an index, "1", or an entry of GetAvailableDevices(), "1: NVIDIA H100 (GPU)";
   * - a substring of a device name, "H100".
   * Case does not matter.
   * A spec that matches no device is an error that lists the devices found.
   */
  vtkSetStringMacro(Device);
  vtkGetStringMacro(Device);
  ///@}

  enum PrecisionModes
  {
    PRECISION_AUTO = 0,   ///< the input points' precision (double for any type but float)
    PRECISION_SINGLE = 1, ///< float kernels: any device, half the bytes of double points
    PRECISION_DOUBLE = 2  ///< double kernels: needs a device with fp64 (an error otherwise)
  };

  ///@{
  /**
   * The precision the kernels compute in (PRECISION_AUTO by default). Single on double
   * points rounds them to float relative to the centre of their bounds; a value outside
   * float's range is then an error suggesting Double. Any other value is an error at the
   * next update (never clamped).
   */
  vtkSetMacro(Precision, int);
  vtkGetMacro(Precision, int);
  ///@}
  static const char* GetPrecisionName(int precision);

  /**
   * "auto" followed by one "index: name (GPU|CPU)" entry per OpenCL device of every platform
   * visible to this process (in client/server ParaView: the server's devices).
   */
  vtkStringArray* GetAvailableDevices();

protected:
  vtkGPUMeshFilter();
  ~vtkGPUMeshFilter() override;

  /// vtkPolyData and vtkUnstructuredGrid.
  int FillInputPortInformation(int port, vtkInformation* info) override;

  /// Shallow-copies the input to the output, acquires the device, calls ExecuteOnDevice and
  /// adds the device report to the field data. Any error empties the output. The host loops
  /// (vtkSMPTools) run on the backend the user chose, else on STDThread where VTK's default is
  /// Sequential (a pvpython, pvbatch or ParaView from Debian).
  int RequestData(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

  /**
   * The cell array chosen with SetInputArrayToProcess(0, ...). Throws gpumesh::Error when the
   * input has no such array or it is not a cell array; `use` says what the array is for
   * ("Mark Array", ...) and goes into the message.
   */
  vtkDataArray* GetRequiredCellArray(vtkInformationVector** inputVector, const char* use);

  /// The name given to SetInputArrayToProcess(0, ...), or nullptr when an attribute (the
  /// active scalars) was chosen instead.
  const char* GetChosenArrayName();

  ///@{
  /**
   * An enumerated property's values are named by one table, in value order, the default
   * (value 0) first: `const char* const methodNames[] = { "Laplacian", "Taubin", ... }`.
   * ChoiceName gives the name of `value`, or the default's for a value outside the table (as
   * PrintSelf shows a value not checked yet). RequireChoice, since such properties are not
   * clamped, throws gpumesh::Error for a value outside the table naming it and the choices,
   * "Method 7 is not one of 0 (Laplacian), 1 (Taubin), ...".
   */
  template <std::size_t Count>
  static const char* ChoiceName(const char* const (&names)[Count], int value)
  {
    return value >= 0 && value < static_cast<int>(Count) ? names[value] : names[0];
  }
  template <std::size_t Count>
  static void RequireChoice(const char* property, int value, const char* const (&names)[Count])
  {
    RequireChoice(property, value, names, static_cast<int>(Count));
  }
  ///@}

  /**
   * The filter's work: `output` starts as a shallow copy of `input`. Report bad input by
   * throwing gpumesh::Error (or any std::exception) with a message naming the problem.
   */
  virtual void ExecuteOnDevice(vtkInformationVector** inputVector, vtkPointSet* input,
    vtkPointSet* output, gpumesh::DeviceRun& run) = 0;

  char* Device = nullptr;
  int Precision = PRECISION_AUTO;

private:
  /// RequestData's work, inside the SMP scope its host loops run in.
  int ExecuteRequest(vtkInformation*, vtkInformationVector**, vtkInformationVector*);
  static void RequireChoice(const char* property, int value, const char* const* names, int count);

  vtkSmartPointer<vtkStringArray> AvailableDevices;

  vtkGPUMeshFilter(const vtkGPUMeshFilter&) = delete;
  void operator=(const vtkGPUMeshFilter&) = delete;
};

#endif
