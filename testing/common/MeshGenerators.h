// Synthetic unstructured meshes for the core tests and benchmarks (shared by both): jittered triangle grids and
// tetrahedral boxes (six tetrahedra per cube), optionally with points and cells renumbered
// at random, which is harder on caches than the generators' row order.
#pragma once
#include "gpumesh/mesh/HostMesh.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

namespace gpumesh
{
namespace benchmark
{

struct GeneratedMesh
{
  std::vector<double> xyz;
  CellKind kind = CellKind::Triangle;
  int verticesPerCell = 3;
  std::vector<std::int64_t> connectivity;
  std::size_t cellCount() const { return connectivity.size() / static_cast<std::size_t>(verticesPerCell); }
  std::size_t pointCount() const { return xyz.size() / 3; }
};

inline double jitter(std::mt19937& generator, double amplitude)
{
  return std::uniform_real_distribution<double>(-amplitude, amplitude)(generator);
}

/// About `cells` triangles: an n x n grid of jittered squares split along alternating
/// diagonals, so vertex degrees vary (4 to 8).
inline GeneratedMesh triangleGrid(std::size_t cells, unsigned seed = 1)
{
  const auto n = static_cast<std::int64_t>(std::ceil(std::sqrt(cells / 2.0)));
  GeneratedMesh mesh;
  std::mt19937 generator(seed);
  mesh.xyz.reserve(static_cast<std::size_t>(3 * (n + 1) * (n + 1)));
  for (std::int64_t j = 0; j <= n; ++j)
    for (std::int64_t i = 0; i <= n; ++i)
    {
      const bool inside = i > 0 && j > 0 && i < n && j < n;
      mesh.xyz.push_back(double(i) + (inside ? jitter(generator, 0.25) : 0.0));
      mesh.xyz.push_back(double(j) + (inside ? jitter(generator, 0.25) : 0.0));
      mesh.xyz.push_back(0.0);
    }
  const auto id = [n](std::int64_t i, std::int64_t j) { return j * (n + 1) + i; };
  mesh.connectivity.reserve(static_cast<std::size_t>(6 * n * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i)
    {
      const std::int64_t a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      if ((i + j) % 2 == 0)
        mesh.connectivity.insert(mesh.connectivity.end(), { a, b, c, a, c, d });
      else
        mesh.connectivity.insert(mesh.connectivity.end(), { a, b, d, b, c, d });
    }
  return mesh;
}

/// About `cells` tetrahedra: an n^3 box of jittered cubes, six tetrahedra per cube.
inline GeneratedMesh tetrahedronBox(std::size_t cells, unsigned seed = 1)
{
  const auto n = static_cast<std::int64_t>(std::ceil(std::cbrt(cells / 6.0)));
  GeneratedMesh mesh;
  mesh.kind = CellKind::Tetra;
  mesh.verticesPerCell = 4;
  std::mt19937 generator(seed);
  for (std::int64_t k = 0; k <= n; ++k)
    for (std::int64_t j = 0; j <= n; ++j)
      for (std::int64_t i = 0; i <= n; ++i)
      {
        const bool inside = i > 0 && j > 0 && k > 0 && i < n && j < n && k < n;
        mesh.xyz.push_back(double(i) + (inside ? jitter(generator, 0.2) : 0.0));
        mesh.xyz.push_back(double(j) + (inside ? jitter(generator, 0.2) : 0.0));
        mesh.xyz.push_back(double(k) + (inside ? jitter(generator, 0.2) : 0.0));
      }
  const auto id = [n](std::int64_t i, std::int64_t j, std::int64_t k) { return (k * (n + 1) + j) * (n + 1) + i; };
  mesh.connectivity.reserve(static_cast<std::size_t>(24 * n * n * n));
  const int paths[6][2] = { { 1, 2 }, { 2, 3 }, { 3, 7 }, { 7, 4 }, { 4, 5 }, { 5, 1 } };
  for (std::int64_t k = 0; k < n; ++k)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i)
      {
        const std::int64_t v[8] = { id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k),
          id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1) };
        for (const auto& p : paths)
          mesh.connectivity.insert(mesh.connectivity.end(), { v[0], v[p[0]], v[p[1]], v[6] });
      }
  return mesh;
}

/// Appends a triangulated n-gon of `triangles` triangles beside the mesh: its centre has
/// degree `triangles` (a UV-sphere pole, a CAD fan). Triangle meshes only.
inline void appendFan(GeneratedMesh& mesh, std::size_t triangles)
{
  const auto centre = static_cast<std::int64_t>(mesh.pointCount());
  mesh.xyz.insert(mesh.xyz.end(), { -2.0, -2.0, 0.0 });
  for (std::size_t k = 0; k < triangles; ++k)
  {
    const double angle = 2.0 * M_PI * static_cast<double>(k) / static_cast<double>(triangles);
    mesh.xyz.insert(mesh.xyz.end(), { -2.0 + std::cos(angle), -2.0 + std::sin(angle), 0.0 });
  }
  const auto n = static_cast<std::int64_t>(triangles);
  for (std::int64_t k = 0; k < n; ++k)
    mesh.connectivity.insert(mesh.connectivity.end(), { centre, centre + 1 + k, centre + 1 + (k + 1) % n });
}

/// Appends a strip of `triangles` triangles (vertex degrees up to 4) beside the mesh, with
/// one point more than appendFan: the same size without a high-degree vertex.
inline void appendStrip(GeneratedMesh& mesh, std::size_t triangles)
{
  const auto first = static_cast<std::int64_t>(mesh.pointCount());
  const auto n = static_cast<std::int64_t>(triangles);
  for (std::int64_t k = 0; k < n + 2; ++k)
    mesh.xyz.insert(mesh.xyz.end(), { -2.0 - 0.5 * double(k / 2), -2.0 - double(k % 2), 0.0 });
  for (std::int64_t k = 0; k < n; ++k)
    mesh.connectivity.insert(mesh.connectivity.end(), { first + k, first + k + 1, first + k + 2 });
}

/// Renumbers points and cells at random.
inline void shuffle(GeneratedMesh& mesh, unsigned seed = 7)
{
  std::mt19937 generator(seed);
  std::vector<std::int64_t> newId(mesh.pointCount());
  std::iota(newId.begin(), newId.end(), 0);
  std::shuffle(newId.begin(), newId.end(), generator);
  std::vector<double> xyz(mesh.xyz.size());
  for (std::size_t p = 0; p < newId.size(); ++p)
    for (int c = 0; c < 3; ++c)
      xyz[3 * newId[p] + c] = mesh.xyz[3 * p + c];
  mesh.xyz.swap(xyz);
  for (auto& id : mesh.connectivity)
    id = newId[static_cast<std::size_t>(id)];
  std::vector<std::size_t> order(mesh.cellCount());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), generator);
  std::vector<std::int64_t> connectivity(mesh.connectivity.size());
  const auto v = static_cast<std::size_t>(mesh.verticesPerCell);
  for (std::size_t c = 0; c < order.size(); ++c)
    std::copy_n(mesh.connectivity.begin() + static_cast<long>(order[c] * v), v, connectivity.begin() + static_cast<long>(c * v));
  mesh.connectivity.swap(connectivity);
}

inline HostMesh toHostMesh(const GeneratedMesh& mesh)
{
  HostMesh host;
  // Float points, as a Single-precision user has them: they go to the device as they are.
  const std::vector<float> xyz(mesh.xyz.begin(), mesh.xyz.end());
  host.setPoints(xyz.data(), static_cast<std::int64_t>(mesh.pointCount()));
  host.setCellCount(static_cast<std::int64_t>(mesh.cellCount()));
  const auto v = static_cast<std::size_t>(mesh.verticesPerCell);
  for (std::size_t c = 0; c < mesh.cellCount(); ++c)
    host.addCell(static_cast<std::int64_t>(c), mesh.kind, mesh.connectivity.data() + c * v, mesh.verticesPerCell);
  return host;
}

} // namespace benchmark
} // namespace gpumesh
