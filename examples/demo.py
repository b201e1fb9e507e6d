"""GPUMesh demo (README command 1): runs every GPU filter on sample meshes from data/ on the
default device, writes the results, and prints what ran where and how long it took.

    pvbatch examples/demo.py [output-folder]      (default: build/demo-output)
"""
import os
import sys
import time

from paraview import servermanager, simple

import gpumesh_plugin

OUTPUT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(gpumesh_plugin.HERE, "..", "build", "demo-output"))


def field(dataset, name):
    array = dataset.GetFieldData().GetAbstractArray(name)
    if array is None:
        return None
    return array.GetValue(0) if array.IsA("vtkStringArray") else array.GetTuple1(0)


def mean_of(dataset, name):
    array = dataset.GetCellData().GetArray(name)
    values = [array.GetValue(i) for i in range(array.GetNumberOfTuples())]
    values = [v for v in values if v == v]  # NaN: cells without neighbours
    return sum(values) / max(1, len(values))


def run(label, mesh, make_filter, summary):
    reader = simple.XMLUnstructuredGridReader(FileName=[os.path.join(gpumesh_plugin.DATA, mesh)])
    reader.UpdatePipeline()
    gpu_filter = make_filter(reader)
    start = time.perf_counter()
    gpu_filter.UpdatePipeline()
    wall_ms = 1e3 * (time.perf_counter() - start)
    result = servermanager.Fetch(gpu_filter)
    if result.GetNumberOfCells() == 0 and reader.GetDataInformation().GetNumberOfCells() > 0:
        raise SystemExit("%s on %s produced no output (see the error above)" % (label, mesh))
    name = "%s_%s.vtu" % (label.replace(" ", ""), os.path.splitext(mesh)[0])
    simple.SaveData(os.path.join(OUTPUT, name), proxy=gpu_filter)
    return [label, mesh, str(result.GetNumberOfCells()), field(result, "Device"),
            "%.3f" % field(result, "KernelTimeMs"), "%.1f" % wall_ms, summary(result), name]


def main():
    os.makedirs(OUTPUT, exist_ok=True)
    plugin = gpumesh_plugin.load(globals())
    rows = [
        run("Cell Reduction", "plate_with_holes.vtu", lambda s: GPUCellReduction(Input=s, Quantity="Area"),
            lambda r: "area sum %.6g" % field(r, "Sum")),
        run("Cell Reduction", "ball_tets.vtu", lambda s: GPUCellReduction(Input=s, Quantity="Volume"),
            lambda r: "volume sum %.6g, min %.3g" % (field(r, "Sum"), field(r, "Min"))),
        run("Cell Reduction", "hex_block.vtu", lambda s: GPUCellReduction(Input=s),
            lambda r: "size sum %.6g" % field(r, "Sum")),
        run("Mesh Quality", "ball_tets.vtu", lambda s: GPUMeshQuality(Input=s, TetQualityMeasure="Radius Ratio"),
            lambda r: "radius ratio %.4g..%.4g" % tuple(
                r.GetFieldData().GetArray("Mesh Tetrahedron Quality").GetTuple(0)[k] for k in (0, 2))),
        run("Neighbor Distance", "ball_tets.vtu", lambda s: GPUNeighborDistance(Input=s),
            lambda r: "mean of means %.4g" % mean_of(r, "MeanNeighborDistance")),
        run("Longest Edge Refinement", "plate_with_holes.vtu",
            lambda s: GPULongestEdgeRefinement(Input=s, RefineAll=1, Passes=2),
            lambda r: "%d cells created" % field(r, "CreatedCells")),
        run("Decimation", "sphere_surface.vtu", lambda s: GPUDecimation(Input=s, TargetReduction=0.9),
            lambda r: "%d -> %d triangles in %d rounds" % (
                field(r, "TrianglesIn"), field(r, "TrianglesOut"), field(r, "Rounds"))),
        run("Vertex Smoothing", "plate_with_holes.vtu",
            lambda s: GPUVertexSmoothing(Input=s, Method="Taubin", Iterations=20),
            lambda r: "max displacement %.3g" % r.GetPointData().GetArray("Displacement").GetMaxNorm()),
    ]
    header = ["filter", "mesh", "cells", "device", "kernel ms", "wall ms", "result", "written"]
    widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
    line = lambda row: "  ".join(str(v).ljust(w) for v, w in zip(row, widths))
    print("GPUMesh plugin: %s" % plugin)
    print(line(header))
    print(line(["-" * w for w in widths]))
    for row in rows:
        print(line(row))
    print("Results written to %s" % OUTPUT)


main()
