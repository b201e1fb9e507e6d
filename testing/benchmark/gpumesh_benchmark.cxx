// Core benchmarks (no VTK): device time of each operation, median of repeats after a warm-up,
// beside the device's own copy bandwidth measured in the same run. Prints a table, writes
// JSON with the per-kernel breakdown.
//
//   gpumesh-benchmark [--device SPEC] [--repeat N] [--json FILE]
//                     [--reduce-size N] [--triangles N] [--tetrahedra N] [--shuffle]
//                     [--refine N1,N2,...] [--refine-fraction F]
//                     [--smoothing-iterations N]
//                     [--matching N] [--smoothing-hub N] [--hub-degree D]
//                     [--matching-pattern auto|contiguous|strided|both]
//                     [--matching-grouping auto|direct|windows|all]
//   gpumesh-benchmark --list-devices
#include "MeshGenerators.h"

#include "gpumesh/algorithms/CellMeasures.h"
#include "gpumesh/algorithms/NeighborDistance.h"
#include "gpumesh/algorithms/Smoothing.h"
#include "gpumesh/algorithms/refinement/LongestEdgeRefinement.h"
#include "gpumesh/primitives/Reduce.h"
#include "gpumesh/topology/CellEntities.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace gpumesh;

namespace
{
// Bytes of a mesh's points on the device (Single precision: 3 floats each).
std::size_t pointBytes(const HostMesh& host)
{
  return static_cast<std::size_t>(host.pointCount()) * 3 * sizeof(float);
}

struct Options
{
  std::string device = "auto";
  int repeat = 10;
  std::size_t reduceSize = 100000000;
  std::size_t triangles = 0;
  std::size_t tetrahedra = 0;
  std::vector<std::size_t> refine; // triangle counts for the refinement benchmark
  double refineFraction = 0.001;
  bool shuffle = false;
  int smoothingIterations = 10;
  std::size_t matching = 0; // triangles for the matching benchmark
  std::size_t smoothingHub = 0; // triangles for the smoothing-with-a-hub benchmark
  std::size_t hubDegree = 16384;
  // CellEntities' ways of matching to time (AccessPattern: contiguous is the CPUs' way, strided
  // the GPUs'); "both" times them side by side in one run.
  std::vector<AccessPattern> matchingPatterns = { AccessPattern::Auto };
  // The GPUs' ways of moving slots to buckets (SlotGrouping); "all" times the three side by side.
  std::vector<SlotGrouping> matchingGroupings = { SlotGrouping::Auto };
  std::string json;
};

struct Result
{
  std::string name;
  double milliseconds = 0.0; // median
  double bytes = 0.0;        // the fewest bytes the operation must move (0: not meaningful)
  std::map<std::string, double> kernels; // median device time per kernel label
};

double median(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

double since(std::chrono::steady_clock::time_point start)
{
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Runs `body` on a fresh DeviceRun repeat + 1 times (the first is a warm-up that also compiles
// the kernels) and collects the median of each kernel label's device time, of the kernels'
// total, and of the wall time.
struct Measured
{
  double kernelMs = 0.0;
  double wallMs = 0.0;
  std::map<std::string, double> kernels;
};

Measured measure(const std::shared_ptr<DeviceContext>& context, int repeat,
  const std::function<void(DeviceRun&)>& body)
{
  std::vector<double> totals, walls;
  std::map<std::string, std::vector<double>> perLabel;
  for (int r = 0; r <= repeat; ++r)
  {
    DeviceRun run(context);
    const auto start = std::chrono::steady_clock::now();
    body(run);
    run.finish();
    const double wall = since(start);
    double total = 0.0;
    std::map<std::string, double> labels;
    for (const auto& t : run.timings())
    {
      if (t.kind == CommandTiming::Kind::Kernel)
      {
        labels[t.label] += t.milliseconds;
        total += t.milliseconds;
      }
    }
    if (r == 0)
      continue;
    totals.push_back(total);
    walls.push_back(wall);
    for (const auto& [label, ms] : labels)
      perLabel[label].push_back(ms);
  }
  Measured m{ median(totals), median(walls), {} };
  for (const auto& [label, values] : perLabel)
    m.kernels[label] = median(values);
  return m;
}

// Wall time of uploading and downloading the given byte counts through the same path as the
// algorithms (pinned staging for large copies): the floor of any end-to-end run that moves
// that much.
Result bareTransfers(const std::shared_ptr<DeviceContext>& context, int repeat, const std::string& name,
  std::size_t uploadBytes, std::size_t downloadBytes)
{
  std::vector<unsigned char> up(uploadBytes, 1), down(downloadBytes);
  const Measured m = measure(context, repeat, [&](DeviceRun& run) {
    auto in = run.upload(up.data(), up.size(), "mesh");
    auto out = run.allocate<unsigned char>(down.size(), "result");
    run.download(out, down.data(), down.size(), "result");
  });
  return { name + ": bare upload + download of the same bytes (wall)", m.wallMs,
    static_cast<double>(uploadBytes + downloadBytes), {} };
}

double copyBandwidthMs(DeviceContext& context, const DeviceBuffer<float>& from, DeviceBuffer<float>& to, int repeat)
{
  std::vector<double> times;
  for (int r = 0; r <= repeat; ++r)
  {
    cl::Event event;
    check(context.queue().enqueueCopyBuffer(from.handle(), to.handle(), 0, 0, from.bytes(), nullptr, &event), "copying");
    event.wait();
    cl_ulong start = 0, end = 0;
    event.getProfilingInfo(CL_PROFILING_COMMAND_START, &start);
    event.getProfilingInfo(CL_PROFILING_COMMAND_END, &end);
    if (r > 0)
      times.push_back(static_cast<double>(end - start) * 1e-6);
  }
  return median(times);
}

void benchmarkReduction(const std::shared_ptr<DeviceContext>& context, const Options& options,
  std::vector<Result>& results)
{
  const std::size_t n = options.reduceSize;
  std::vector<float> host(n);
  std::mt19937 generator(42);
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  for (auto& v : host)
    v = distribution(generator); // random data, never zeros
  DeviceRun run(context);
  RealBuffer values = run.uploadReal(host.data(), n, "values");
  const double bytes = 4.0 * static_cast<double>(n);

  Statistics statistics;
  const Measured reduce = measure(context, options.repeat,
    [&](DeviceRun& r) { statistics = reduceStatistics(r, values, n); });
  double reference = 0.0;
  for (float v : host)
    reference += v;
  if (std::abs(statistics.sum - reference) > 1e-6 * std::max(1.0, std::abs(reference)) * 100)
    throw Error("reduction sum " + std::to_string(statistics.sum) + " differs from " + std::to_string(reference));
  results.push_back({ "reduce " + std::to_string(n) + " floats", reduce.kernelMs, bytes, reduce.kernels });

  std::vector<float> back(n);
  const Measured upload = measure(context, options.repeat, [&](DeviceRun&) {
    check(context->queue().enqueueWriteBuffer(values.handle(), CL_TRUE, 0, values.bytes(), host.data()), "uploading");
  });
  results.push_back({ "upload floats (pageable, wall)", upload.wallMs, bytes, {} });
  const Measured download = measure(context, options.repeat, [&](DeviceRun&) {
    check(context->queue().enqueueReadBuffer(values.handle(), CL_TRUE, 0, values.bytes(), back.data()), "downloading");
  });
  results.push_back({ "download floats (pageable, wall)", download.wallMs, bytes, {} });
}

// Neighbour build and distance kernel, as GPU Neighbor Distance runs them.
void benchmarkNeighbors(const std::shared_ptr<DeviceContext>& context, const Options& options,
  const std::string& name, const benchmark::GeneratedMesh& generated, std::vector<Result>& results)
{
  const HostMesh host = benchmark::toHostMesh(generated);
  const std::size_t cells = generated.cellCount();
  std::vector<float> minimum(cells), maximum(cells), mean(cells);
  std::vector<cl_int> count(cells);
  const std::set<std::string> distanceLabels = { "centroids", "fill centroids", "neighbour distance" };

  const Measured endToEnd = measure(context, options.repeat, [&](DeviceRun& run) {
    DeviceMesh mesh(run, host);
    CellEntities sides(run, mesh, EntityType::Sides);
    auto centroids = computeCentroids(run, mesh);
    auto distances = computeNeighborDistances(run, mesh, sides, centroids);
    run.download(distances.minimum, minimum.data(), cells, "minimum");
    run.download(distances.maximum, maximum.data(), cells, "maximum");
    run.download(distances.mean, mean.data(), cells, "mean");
    run.download(distances.count, count.data(), cells, "count");
  });
  Result build{ name + ": build sides (kernels)", 0.0, 0.0, {} };
  Result distance{ name + ": centroids + distances (kernels)", 0.0, 0.0, {} };
  for (const auto& [label, ms] : endToEnd.kernels)
  {
    Result& target = distanceLabels.count(label) ? distance : build;
    target.milliseconds += ms;
    target.kernels[label] = ms;
  }
  // Fewest bytes of the distance kernel: read each cell's centroid and slot offsets, its
  // slots' runs, and the neighbours' centroids; write 4 values per cell.
  const double slots = static_cast<double>(cells) * (generated.kind == CellKind::Tetra ? 4 : 3);
  distance.bytes = static_cast<double>(cells) * (16 + 4 + 16) + slots * (8 + 4 + 4 + 16);
  // Fewest bytes of the build: read the connectivity, write one neighbour per side.
  build.bytes = static_cast<double>(generated.connectivity.size()) * 4 + slots * 4;
  results.push_back(build);
  results.push_back(distance);
  const double transferBytes = static_cast<double>(pointBytes(host) + generated.connectivity.size() * 4 * 2) +
    static_cast<double>(cells) * 16;
  results.push_back({ name + ": end to end (upload, build, distances, download; wall)", endToEnd.wallMs, transferBytes, {} });
  results.push_back(bareTransfers(context, options.repeat, name + " neighbours",
    pointBytes(host) + generated.connectivity.size() * 4, cells * 16));

  // The per-cell measure kernel as GPU Cell Measures runs it, on a mesh uploaded once. Fewest
  // bytes: read the connectivity and each corner's point, write one value per cell.
  DeviceRun uploadRun(context);
  const DeviceMesh uploaded(uploadRun, host);
  const Measured measures = measure(context, options.repeat, [&](DeviceRun& run) {
    computeCellMeasures(run, uploaded, Measure::Size);
  });
  results.push_back({ name + ": cell measures (kernels)", measures.kernelMs,
    static_cast<double>(generated.connectivity.size()) * (4 + 12) + static_cast<double>(cells) * 4,
    measures.kernels });

  // A checksum that any device must reproduce: the total neighbour count.
  long long neighbours = 0;
  for (cl_int c : count)
    neighbours += c;
  std::printf("%s: %zu cells, %zu points, %lld neighbour pairs (directed)\n", name.c_str(), cells,
    generated.pointCount(), neighbours);
}

// Longest-edge refinement as the thesis measured it: a fraction of the triangles marked
// uniformly at random; device time of each step, and end to end (upload of points and
// triangles, edge extraction, the seven steps, download of the refined mesh as the filter
// downloads it: triangles, the parents of appended triangles, and the end points of each new
// point, whose coordinates the host computes as exact midpoints; the old points and the
// parents of kept triangles are already known to the host).
void benchmarkRefinement(const std::shared_ptr<DeviceContext>& context, const Options& options,
  std::size_t triangles, std::vector<Result>& results)
{
  auto generated = benchmark::triangleGrid(triangles);
  if (options.shuffle)
    benchmark::shuffle(generated);
  const HostMesh host = benchmark::toHostMesh(generated);
  const std::size_t cells = generated.cellCount();
  std::vector<cl_int> marked;
  std::mt19937 generator(2026);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (std::size_t t = 0; t < cells; ++t)
    if (uniform(generator) < options.refineFraction)
      marked.push_back(static_cast<cl_int>(t));

  std::vector<cl_int2> pointParents;
  std::vector<double> newPoints;
  std::vector<cl_int> connectivity, parent;
  std::size_t outCells = 0;
  const Measured measured = measure(context, options.repeat, [&](DeviceRun& run) {
    RefinedSimplices refined = refineLongestEdges(run, DeviceMesh(run, host), marked, 1);
    pointParents.resize(refined.newPointCount);
    run.download(refined.pointParents, pointParents.data(), pointParents.size(), "point parents");
    refined.download(run, connectivity, parent);
    newPoints.resize(3 * pointParents.size()); // exact midpoints, as the filter computes them
    const auto at = [&](cl_int p, int c) {
      return static_cast<std::size_t>(p) < generated.pointCount()
        ? generated.xyz[3 * static_cast<std::size_t>(p) + c]
        : newPoints[3 * (static_cast<std::size_t>(p) - generated.pointCount()) + c];
    };
    for (std::size_t k = 0; k < pointParents.size(); ++k)
      for (int c = 0; c < 3; ++c)
        newPoints[3 * k + c] = 0.5 * (at(pointParents[k].s[0], c) + at(pointParents[k].s[1], c));
    outCells = refined.cellCount;
  });
  const std::string name = "refine " + std::to_string(cells) + " triangles" +
    (options.shuffle ? " (random order)" : " (row order)");
  Result steps{ name + ": the seven steps (kernels)", 0.0, 0.0, {} };
  Result other{ name + ": edge extraction + validation (kernels)", 0.0, 0.0, {} };
  for (const auto& [label, ms] : measured.kernels)
  {
    Result& target = label.rfind("step ", 0) == 0 ? steps : other;
    target.milliseconds += ms;
    target.kernels[label] = ms;
  }
  // Fewest bytes: the steps read the points and triangles and write the refined triangles;
  // the extraction reads the triangles and writes one edge id per triangle side.
  steps.bytes = static_cast<double>(pointBytes(host) + 3 * cells * 4 + connectivity.size() * 4);
  other.bytes = static_cast<double>(3 * cells * 4 + 3 * cells * 4);
  results.push_back(steps);
  results.push_back(other);
  const double bytes = static_cast<double>(pointBytes(host) + 3 * cells * 4) +
    static_cast<double>(pointParents.size() * 8 + connectivity.size() * 4 + parent.size() * 4);
  results.push_back({ name + ": end to end (upload, extraction, steps, download; wall)", measured.wallMs, bytes, {} });
  results.push_back(bareTransfers(context, options.repeat, name, pointBytes(host) + 3 * cells * 4,
    pointParents.size() * 8 + connectivity.size() * 4 + (parent.size() - cells) * 4));
  std::printf("%s: %zu marked, %zu triangles out\n", name.c_str(), marked.size(), outCells);
}

// Vertex smoothing as GPU Vertex Smoothing runs it (Fixed boundary), per method: the topology
// build (sides, edges or balls, vertex tables), one iteration, and the whole run end to end.
void benchmarkSmoothing(const std::shared_ptr<DeviceContext>& context, const Options& options,
  const std::string& name, const benchmark::GeneratedMesh& generated, std::vector<Result>& results)
{
  const HostMesh host = benchmark::toHostMesh(generated);
  const auto points = static_cast<double>(generated.pointCount());
  const auto cells = static_cast<double>(generated.cellCount());
  const int iterations = options.smoothingIterations;
  std::vector<double> smoothed(3 * generated.pointCount());
  const struct
  {
    SmoothingMethod method;
    const char* label;
  } methods[] = { { SmoothingMethod::Laplacian, "Laplacian" }, { SmoothingMethod::Taubin, "Taubin" },
    { SmoothingMethod::Barycentric, "Barycentric" } };
  for (const auto& m : methods)
  {
    SmoothingOptions smoothing;
    smoothing.method = m.method;
    smoothing.iterations = iterations;
    // Entries of the links (2 per edge, or one per cell corner): the smallest index traffic.
    double entries = 0.0;
    {
      DeviceRun run(context);
      const DeviceMesh mesh(run, host, 2);
      const VertexSmoother smoother(run, mesh, smoothing);
      std::vector<cl_int> degree(generated.pointCount());
      run.download(smoother.links().degree(), degree.data(), degree.size(), "degrees");
      for (cl_int d : degree)
        entries += d;
    }
    const Measured endToEnd = measure(context, options.repeat, [&](DeviceRun& run) {
      std::vector<double> result = smoothVertices(run, host, smoothing);
      smoothed.swap(result);
    });
    const std::string prefix = name + ": smoothing " + m.label;
    Result topology{ prefix + " topology (kernels)", 0.0, 0.0, {} };
    Result step{ prefix + " per iteration (kernels)", 0.0, 0.0, {} };
    for (const auto& [label, ms] : endToEnd.kernels)
    {
      const bool perIteration = label.rfind("relax", 0) == 0 || label == "barycentres";
      Result& target = perIteration ? step : topology;
      target.milliseconds += perIteration ? ms / iterations : ms;
      target.kernels[label] = perIteration ? ms / iterations : ms;
    }
    // Fewest bytes of one step: read and write each point (16 + 16), its role and row vertex
    // (4 + 4) and its row's entries (4 each), each source read once (neighbour points are
    // points already counted); the barycentric scatter also reads the connectivity and writes
    // one float4 per cell, which the gather reads back.
    const double scatter = m.method == SmoothingMethod::Barycentric
      ? cells * (4.0 * generated.verticesPerCell + 16.0 + 16.0)
      : 0.0;
    step.bytes = (points * 40.0 + entries * 4.0 + scatter) * (m.method == SmoothingMethod::Taubin ? 2 : 1);
    // Fewest bytes of the topology: read the connectivity, write the link entries.
    topology.bytes = static_cast<double>(generated.connectivity.size()) * 4 + entries * 4;
    results.push_back(topology);
    results.push_back(step);
    results.push_back({ prefix + " end to end, " + std::to_string(iterations) + " iterations (wall)", endToEnd.wallMs,
      0.0, {} });
  }
  results.push_back(bareTransfers(context, options.repeat, name + " smoothing",
    pointBytes(host) + generated.connectivity.size() * 4, pointBytes(host)));
  // A checksum that any device must reproduce to float rounding: the mean smoothed x.
  double sum = 0.0;
  for (std::size_t p = 0; p < generated.pointCount(); ++p)
    sum += smoothed[3 * p];
  std::printf("%s: smoothing checksum (mean x after barycentric) %.6f\n", name.c_str(), sum / points);
}

// Matching of sides and of edges (unique edges) alone, the topology step of every filter but
// Cell Reduction: device time and wall time of CellEntities on an uploaded mesh.
void benchmarkMatching(const std::shared_ptr<DeviceContext>& context, const Options& options,
  const std::string& name, const benchmark::GeneratedMesh& generated, std::vector<Result>& results)
{
  const HostMesh host = benchmark::toHostMesh(generated);
  DeviceRun uploadRun(context);
  const DeviceMesh mesh(uploadRun, host);
  const struct
  {
    EntityType type;
    const char* label;
  } types[] = { { EntityType::Sides, "sides" }, { EntityType::Edges, "unique edges" } };
  for (const auto& t : types)
    for (AccessPattern pattern : options.matchingPatterns)
      for (SlotGrouping grouping : options.matchingGroupings)
      {
        const std::string way = std::string(pattern == AccessPattern::Contiguous ? ", contiguous"
            : pattern == AccessPattern::Strided                                  ? ", strided"
                                                                                 : "") +
          (grouping == SlotGrouping::Direct ? ", direct" : grouping == SlotGrouping::Windows ? ", windows" : "");
        std::size_t entities = 0;
        const Measured measured = measure(context, options.repeat, [&](DeviceRun& run) {
          const CellEntities matched(run, mesh, t.type, pattern, SlotNeighbors::Kept, grouping);
          entities = matched.entityCount();
        });
        // Fewest bytes: read the connectivity, write one entity id per slot.
        const double bytes = static_cast<double>(generated.connectivity.size()) * 4 * 2;
        results.push_back({ name + ": " + t.label + way + " (kernels)", measured.kernelMs, bytes, measured.kernels });
        results.push_back({ name + ": " + t.label + way + " (wall)", measured.wallMs, 0.0, {} });
        std::printf("%s: %zu cells, %zu points, %zu %s\n", name.c_str(), generated.cellCount(),
          generated.pointCount(), entities, t.label);
      }
}

// The degree cliff: a triangle grid with a fan of hubDegree triangles beside it (one vertex of
// degree hubDegree) against the same grid with a strip of as many triangles, in row and random
// order.
void benchmarkDegreeCliff(const std::shared_ptr<DeviceContext>& context, const Options& options,
  std::vector<Result>& results)
{
  const std::size_t degree = options.hubDegree;
  const std::size_t gridCells = options.matching > degree ? options.matching - degree : 0;
  for (bool shuffled : { false, true })
    for (bool hub : { false, true })
    {
      auto mesh = benchmark::triangleGrid(gridCells);
      if (hub)
        benchmark::appendFan(mesh, degree);
      else
        benchmark::appendStrip(mesh, degree);
      if (shuffled)
        benchmark::shuffle(mesh);
      const std::string name = "matching " + std::to_string(mesh.cellCount()) + " triangles" +
        (hub ? ", a vertex of degree " + std::to_string(degree) : ", no high degree") +
        (shuffled ? " (random order)" : " (row order)");
      benchmarkMatching(context, options, name, mesh, results);
    }
}

// Smoothing with a hub: the same triangle grid with a fan of hubDegree triangles beside it (one
// vertex of degree hubDegree) and with a strip of as many (degrees up to 4). Each method's
// smoother is built once; the kernel time of its steps per iteration, for each mesh.
void benchmarkSmoothingHub(const std::shared_ptr<DeviceContext>& context, const Options& options,
  std::vector<Result>& results)
{
  const std::size_t degree = options.hubDegree;
  const std::size_t gridCells = options.smoothingHub > degree ? options.smoothingHub - degree : 0;
  const int iterations = options.smoothingIterations;
  const struct
  {
    SmoothingMethod method;
    const char* label;
  } methods[] = { { SmoothingMethod::Laplacian, "Laplacian" }, { SmoothingMethod::Taubin, "Taubin" },
    { SmoothingMethod::Barycentric, "Barycentric" } };
  std::map<std::string, double> withoutHub;
  for (bool hub : { false, true })
  {
    auto generated = benchmark::triangleGrid(gridCells);
    if (hub)
      benchmark::appendFan(generated, degree);
    else
      benchmark::appendStrip(generated, degree);
    const HostMesh host = benchmark::toHostMesh(generated);
    const std::string name = "smoothing hub: " + std::to_string(generated.cellCount()) + " triangles" +
      (hub ? ", a vertex of degree " + std::to_string(degree) : ", no high degree");
    for (const auto& m : methods)
    {
      SmoothingOptions smoothing;
      smoothing.method = m.method;
      smoothing.iterations = iterations;
      DeviceRun setup(context);
      const DeviceMesh mesh(setup, host, 2);
      VertexSmoother smoother(setup, mesh, smoothing);
      setup.finish();
      const Measured measured = measure(context, options.repeat, [&](DeviceRun& run) { smoother.smooth(run); });
      Result step{ name + ": " + m.label + " per iteration (kernels)", 0.0, 0.0, {} };
      for (const auto& [label, ms] : measured.kernels)
      {
        if (label.rfind("relax", 0) == 0 || label == "barycentres")
        {
          step.milliseconds += ms / iterations;
          step.kernels[label] = ms / iterations;
        }
      }
      results.push_back(step);
      if (!hub)
        withoutHub[m.label] = step.milliseconds;
      else
        std::printf("smoothing hub: %s per iteration, with the hub / without: %.3f\n", m.label,
          step.milliseconds / withoutHub[m.label]);
    }
  }
}

Options parse(int argc, char** argv)
{
  Options options;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc)
        throw Error("missing value after " + arg);
      return argv[++i];
    };
    if (arg == "--device")
      options.device = next();
    else if (arg == "--repeat")
      options.repeat = std::max(1, std::stoi(next()));
    else if (arg == "--reduce-size")
      options.reduceSize = std::stoull(next());
    else if (arg == "--triangles")
      options.triangles = std::stoull(next());
    else if (arg == "--tetrahedra")
      options.tetrahedra = std::stoull(next());
    else if (arg == "--refine")
    {
      std::stringstream list(next());
      for (std::string item; std::getline(list, item, ',');)
        options.refine.push_back(std::stoull(item));
    }
    else if (arg == "--refine-fraction")
      options.refineFraction = std::stod(next());
    else if (arg == "--shuffle")
      options.shuffle = true;
    else if (arg == "--smoothing-iterations")
      options.smoothingIterations = std::max(1, std::stoi(next()));
    else if (arg == "--matching")
      options.matching = std::stoull(next());
    else if (arg == "--matching-pattern")
    {
      const std::string pattern = next();
      if (pattern == "auto")
        options.matchingPatterns = { AccessPattern::Auto };
      else if (pattern == "contiguous")
        options.matchingPatterns = { AccessPattern::Contiguous };
      else if (pattern == "strided")
        options.matchingPatterns = { AccessPattern::Strided };
      else if (pattern == "both")
        options.matchingPatterns = { AccessPattern::Contiguous, AccessPattern::Strided };
      else
        throw Error("--matching-pattern takes auto, contiguous, strided or both, not '" + pattern + "'");
    }
    else if (arg == "--matching-grouping")
    {
      const std::string grouping = next();
      if (grouping == "auto")
        options.matchingGroupings = { SlotGrouping::Auto };
      else if (grouping == "direct")
        options.matchingGroupings = { SlotGrouping::Direct };
      else if (grouping == "windows")
        options.matchingGroupings = { SlotGrouping::Windows };
      else if (grouping == "all")
        options.matchingGroupings = { SlotGrouping::Auto, SlotGrouping::Direct, SlotGrouping::Windows };
      else
        throw Error("--matching-grouping takes auto, direct, windows or all, not '" + grouping + "'");
    }
    else if (arg == "--smoothing-hub")
      options.smoothingHub = std::stoull(next());
    else if (arg == "--hub-degree")
      options.hubDegree = std::stoull(next());
    else if (arg == "--json")
      options.json = next();
    else
      throw Error("unknown argument " + arg);
  }
  return options;
}

std::string jsonEscape(const std::string& text)
{
  std::string out;
  for (char c : text)
    out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out;
}
} // namespace

int main(int argc, char** argv)
{
  try
  {
    if (argc == 2 && std::string(argv[1]) == "--list-devices")
    {
      std::cout << describeDevices(listDevices());
      return 0;
    }
    const Options options = parse(argc, argv);
    auto context = DeviceContext::acquire(options.device);
    std::vector<Result> results;

    // The device's copy bandwidth (bytes read + written), the yardstick for every row.
    const std::size_t copyFloats = 100000000;
    double copyGBs = 0.0;
    {
      DeviceRun run(context);
      std::vector<float> host(copyFloats, 1.5f);
      DeviceBuffer<float> from = run.upload(host.data(), copyFloats, "copy source");
      DeviceBuffer<float> to = run.allocate<float>(copyFloats, "copy target");
      const double ms = copyBandwidthMs(*context, from, to, options.repeat);
      results.push_back({ "device copy of 400 MB (read + write)", ms, 8.0 * copyFloats, {} });
      copyGBs = 8.0 * copyFloats / (ms * 1e-3) / 1e9;
    }
    if (options.reduceSize)
      benchmarkReduction(context, options, results);
    const char* order = options.shuffle ? " (random order)" : " (row order)";
    if (options.triangles)
    {
      auto mesh = benchmark::triangleGrid(options.triangles);
      if (options.shuffle)
        benchmark::shuffle(mesh);
      benchmarkNeighbors(context, options, "triangles" + std::string(order), mesh, results);
      benchmarkSmoothing(context, options, "triangles" + std::string(order), mesh, results);
    }
    if (options.tetrahedra)
    {
      auto mesh = benchmark::tetrahedronBox(options.tetrahedra);
      if (options.shuffle)
        benchmark::shuffle(mesh);
      benchmarkNeighbors(context, options, "tetrahedra" + std::string(order), mesh, results);
      benchmarkSmoothing(context, options, "tetrahedra" + std::string(order), mesh, results);
    }

    for (std::size_t triangles : options.refine)
      benchmarkRefinement(context, options, triangles, results);
    if (options.matching)
      benchmarkDegreeCliff(context, options, results);
    if (options.smoothingHub)
      benchmarkSmoothingHub(context, options, results);

    std::printf("device: %s, copy bandwidth %.1f GB/s\n", context->info().label().c_str(), copyGBs);
    std::printf("%-72s %11s %9s %8s\n", "operation", "median ms", "GB/s", "of copy");
    for (const auto& r : results)
    {
      const double gbs = r.bytes > 0 ? r.bytes / (r.milliseconds * 1e-3) / 1e9 : 0.0;
      if (r.bytes > 0)
        std::printf("%-72s %11.4f %9.1f %7.0f%%\n", r.name.c_str(), r.milliseconds, gbs, 100.0 * gbs / copyGBs);
      else
        std::printf("%-72s %11.4f %9s %8s\n", r.name.c_str(), r.milliseconds, "-", "-");
      for (const auto& [label, ms] : r.kernels)
        std::printf("    %-68s %11.4f\n", label.c_str(), ms);
    }
    if (!options.json.empty())
    {
      std::ofstream out(options.json);
      out << "{\n  \"device\": \"" << jsonEscape(context->info().label()) << "\",\n  \"copy_gb_per_s\": " << copyGBs
          << ",\n  \"results\": [\n";
      for (std::size_t i = 0; i < results.size(); ++i)
      {
        const auto& r = results[i];
        out << "    {\"operation\": \"" << jsonEscape(r.name) << "\", \"median_ms\": " << r.milliseconds
            << ", \"bytes\": " << r.bytes << ", \"kernels\": {";
        std::size_t k = 0;
        for (const auto& [label, ms] : r.kernels)
          out << (k++ ? ", " : "") << "\"" << jsonEscape(label) << "\": " << ms;
        out << "}}" << (i + 1 < results.size() ? ",\n" : "\n");
      }
      out << "  ]\n}\n";
    }
    return 0;
  }
  catch (const std::exception& error)
  {
    std::cerr << "gpumesh-benchmark: " << error.what() << "\n";
    return 1;
  }
}
