"""Approximation error of vertex clustering (vtkQuadricClustering, vtkBinnedDecimation) beside
quadric edge collapse (GPU Decimation, vtkQuadricDecimation) at the same number of triangles, on
the surfaces testing/python/TestDecimation.py uses: symmetric Hausdorff distance and mean distance
sampled on both surfaces (decimation_reference.approximation_error). Clustering has no target:
its bins (d x d x d over the bounds) are chosen for the count nearest `--fraction` of the
triangles, and the others are asked for the count it gave. Prints one row per surface and filter.

    GPUMESH_PLUGIN=build/lib/paraview-5.11/plugins/GPUMesh/GPUMesh.so GPUMESH_DATA=data \\
    PYTHONPATH=testing/python pvpython testing/benchmark/bench_decimation_clustering_error.py [--fraction 0.2]
"""
import argparse

from paraview import simple
from vtkmodules.vtkFiltersCore import vtkBinnedDecimation, vtkQuadricClustering

import gpumesh_testing as gt
from decimation_reference import approximation_error, as_polydata, stl, torus, vtk_decimation

gt.load_plugin()


def clustering(kind, poly, d):
    f = vtkQuadricClustering() if kind == "vtkQuadricClustering" else vtkBinnedDecimation()
    f.AutoAdjustNumberOfDivisionsOff()
    f.SetNumberOfDivisions(d, d, d)
    if kind == "vtkBinnedDecimation":
        f.SetPointGenerationModeToBinAverages()
    f.SetInputData(poly)
    f.Update()
    return f.GetOutput()


def nearest_clustering(kind, poly, target):
    best = None
    for d in range(4, 400):
        out = clustering(kind, poly, d)
        n = out.GetNumberOfCells()
        if best is None or abs(n - target) < abs(best.GetNumberOfCells() - target):
            best = out
        if n > 1.3 * target:
            break
    return best


def gpu_decimation(dataset, count):
    source = gt.producer(dataset)
    decimation = simple.GPUDecimation(Input=source, TargetCount=count)
    output = gt.fetch(decimation)
    simple.Delete(decimation)
    simple.Delete(source)
    return output


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fraction", type=float, default=0.2)
    args = parser.parse_args()
    surfaces = [("sphere_surface", gt.read_vtu("sphere_surface.vtu")), ("torus", torus()),
                ("featuretype.STL", stl("featuretype.STL")), ("idler_riser.STL", stl("idler_riser.STL"))]
    print("| Surface | Filter | Triangles in -> out | Hausdorff | Mean distance |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name, dataset in surfaces:
        poly = as_polydata(dataset)
        n_in = poly.GetNumberOfCells()
        for kind in ("vtkQuadricClustering", "vtkBinnedDecimation"):
            clustered = nearest_clustering(kind, poly, args.fraction * n_in)
            count = clustered.GetNumberOfCells()
            rows = [(kind, clustered), ("GPU Decimation", gpu_decimation(dataset, count)),
                    ("vtkQuadricDecimation", vtk_decimation(poly, 1 - count / n_in))]
            for label, out in rows:
                hausdorff, mean = approximation_error(poly, as_polydata(out))[:2]
                print("| %s | %s | %d -> %d | %.4g | %.4g |" % (name, label, n_in, out.GetNumberOfCells(), hausdorff,
                                                              mean))


if __name__ == "__main__":
    main()
