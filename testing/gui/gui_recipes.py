"""One entry per GPUMesh filter for the GUI test: the sample mesh, the properties a user would
set in the panel, what to colour by in the screenshot, and the checks of the output.

The list of filters to test comes from xml/GPUMeshFilters.xml (gpumesh_xml); a filter of the
XML without an entry here fails the GUI test, so a new filter brings its entry with it.
Checks take the output (and input) as VTK datasets and raise AssertionError naming what is wrong.
"""
import numpy as np
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkFiltersVerdict import vtkCellSizeFilter


class Recipe:
    def __init__(self, mesh, properties, color, output_array, check, upstream=None, view_3d=False, zoom=1.0,
                 split_colors_at=None, default_output_array=None):
        self.mesh = mesh                  # file in data/
        self.properties = properties      # Python name -> value, or callable(upstream output) -> value
        self.color = color                # (association, array) to colour the screenshot by
        self.output_array = output_array  # (association, array) the filter documents as its output
        self.check = check                # check(output, input) -> one-line summary
        self.upstream = upstream          # optional: XML name of a GPUMesh filter applied first
        self.view_3d = view_3d            # turn the camera for a 3D mesh
        self.zoom = zoom                  # camera zoom after fitting the mesh in the view
        self.split_colors_at = split_colors_at  # optional callable(input) -> value: two colours, below/above
        # (association, array) the filter writes with its default properties (applied from the
        # menu as they are), where the recipe's properties rename it
        self.default_output_array = default_output_array or output_array


def cells(dataset, name):
    array = dsa.WrapDataObject(dataset).CellData[name]
    assert not isinstance(array, dsa.VTKNoneArray), "cell array %r is missing" % name
    return np.asarray(array, dtype=np.float64)


def points_array(dataset, name):
    array = dsa.WrapDataObject(dataset).PointData[name]
    assert not isinstance(array, dsa.VTKNoneArray), "point array %r is missing" % name
    return np.asarray(array, dtype=np.float64)


def field(dataset, name):
    array = dataset.GetFieldData().GetAbstractArray(name)
    assert array is not None, "field data %r is missing" % name
    return array.GetValue(0) if array.IsA("vtkStringArray") else array.GetTuple1(0)


def total_area(dataset):
    sizes = vtkCellSizeFilter()
    sizes.SetInputData(dataset)
    sizes.ComputeSumOn()
    sizes.Update()
    return sizes.GetOutput().GetFieldData().GetArray("Area").GetTuple1(0)


def check_cell_reduction(output, source):
    volume = cells(output, "Volume")
    assert len(volume) == source.GetNumberOfCells(), "Volume has %d values for %d cells" % (
        len(volume), source.GetNumberOfCells())
    assert field(output, "Count") == source.GetNumberOfCells(), "Count %g" % field(output, "Count")
    assert abs(field(output, "Sum") - 4.1550) < 1e-3, "volume of the ball %.6f, expected 4.1550" % field(output, "Sum")
    assert abs(field(output, "Sum") - volume.sum()) < 1e-4, "Sum differs from the sum of the Volume array"
    assert volume.min() > 0, "a tetrahedron of the ball has volume %g" % volume.min()
    return "Volume per cell; Count %d, Sum %.5f" % (field(output, "Count"), field(output, "Sum"))


def check_neighbor_distance(output, source):
    # hex_block: 10 x 8 x 6 hexahedra, spacings 0.2, 0.1875 and 1/6.
    count = cells(output, "NeighborCount")
    interior_faces = 9 * 8 * 6 + 10 * 7 * 6 + 10 * 8 * 5
    assert count.sum() == 2 * interior_faces, "NeighborCount sums to %d, expected %d" % (count.sum(), 2 * interior_faces)
    assert count.min() == 3 and count.max() == 6, "NeighborCount in [%d, %d], expected [3, 6]" % (count.min(), count.max())
    mean = cells(output, "MeanNeighborDistance")
    assert np.all((mean > 1 / 6 - 1e-5) & (mean < 0.2 + 1e-5)), "MeanNeighborDistance outside [1/6, 0.2]"
    centroid = dsa.WrapDataObject(output).CellData["Centroid"]
    assert not isinstance(centroid, dsa.VTKNoneArray), "Compute Centroids is on but Centroid is missing"
    return "NeighborCount 3..6 summing to %d; MeanNeighborDistance %.4f..%.4f" % (count.sum(), mean.min(), mean.max())


def largest_tenth(sizes):
    """The Mark Threshold of the refinement recipe: the 90th percentile of the cell sizes."""
    return float(np.percentile(cells(sizes, "Size"), 90))


def check_longest_edge_refinement(output, source):
    size = cells(source, "Size")
    threshold = largest_tenth(source)
    marked = int((size > threshold).sum())
    assert field(output, "MarkedCells") == marked, "MarkedCells %g, %d cells have Size > %g" % (
        field(output, "MarkedCells"), marked, threshold)
    parents = cells(output, "ParentCellId").astype(np.int64)
    assert parents.min() >= 0 and parents.max() < source.GetNumberOfCells(), "ParentCellId out of range"
    children = np.bincount(parents, minlength=source.GetNumberOfCells())
    assert np.all(children[size > threshold] >= 4), "a marked triangle has fewer than 4 children after 2 passes"
    assert output.GetNumberOfCells() - source.GetNumberOfCells() == field(output, "CreatedCells")
    before, after = total_area(source), total_area(output)
    assert abs(before - after) < 1e-9 * max(1.0, before), "area %.12g before, %.12g after" % (before, after)
    return "%d marked (Size > %.4g), %d cells -> %d, area kept %.6f" % (
        marked, threshold, source.GetNumberOfCells(), output.GetNumberOfCells(), after)


def check_decimation(output, source):
    n_in, n_out = source.GetNumberOfCells(), output.GetNumberOfCells()
    assert field(output, "TrianglesIn") == n_in and field(output, "TrianglesOut") == n_out, "triangle counts"
    assert abs(n_out - 0.2 * n_in) <= 1, "%d of %d triangles left for a reduction of 0.8" % (n_out, n_in)
    parents = cells(output, "vtkOriginalCellIds").astype(np.int64)
    assert len(np.unique(parents)) == n_out and parents.min() >= 0 and parents.max() < n_in, "vtkOriginalCellIds"
    # Still the unit sphere, roughly: every point within 5% of radius 1.
    radius = np.linalg.norm(np.asarray(dsa.WrapDataObject(output).Points), axis=1)
    assert np.abs(radius - 1).max() < 0.05, "a point left the sphere by %g" % np.abs(radius - 1).max()
    return "%d triangles -> %d in %d rounds" % (n_in, n_out, field(output, "Rounds"))


def boundary_points(dataset):
    """Points on edges used by one triangle."""
    edges = {}
    for c in range(dataset.GetNumberOfCells()):
        ids = dataset.GetCell(c).GetPointIds()
        n = ids.GetNumberOfIds()
        for k in range(n):
            edge = tuple(sorted((ids.GetId(k), ids.GetId((k + 1) % n))))
            edges[edge] = edges.get(edge, 0) + 1
    return sorted({p for edge, uses in edges.items() if uses == 1 for p in edge})


def check_vertex_smoothing(output, source):
    displacement = points_array(output, "Displacement")
    moved = np.linalg.norm(displacement, axis=1)
    fixed = boundary_points(source)
    assert fixed, "the plate has no boundary points"
    assert np.all(moved[fixed] == 0), "Boundary is Fixed but %d boundary points moved" % np.count_nonzero(moved[fixed])
    assert moved.max() > 1e-4, "no point moved (largest displacement %g)" % moved.max()
    z = dsa.WrapDataObject(output).Points[:, 2]
    assert np.all(np.abs(z) < 1e-6), "the plate left the plane z = 0"
    return "%d boundary points fixed, largest displacement %.4f" % (len(fixed), moved.max())


SMALLEST_ANGLE = """// smallest corner angle, in degrees
REAL smallest = INFINITY;
for (int k = 0; k < point_count; ++k) {
  const REAL3 a = points_x((k + 1) % point_count) - points_x(k);
  const REAL3 b = points_x((k + point_count - 1) % point_count) - points_x(k);
  smallest = fmin(smallest, acos(clamp(dot(a, b) / (length(a) * length(b)), (REAL)-1, (REAL)1)));
}
result = degrees(smallest);"""


def check_mesh_kernel(output, source):
    from vtkmodules.vtkFiltersVerdict import vtkMeshQuality
    quality = vtkMeshQuality()
    quality.SetInputData(source)
    quality.SetTriangleQualityMeasureToMinAngle()
    quality.Update()
    expected = cells(quality.GetOutput(), "Quality")
    angles = cells(output, "MinAngle")
    assert np.allclose(angles, expected, atol=1e-3), "MinAngle differs from vtkMeshQuality by %g degrees" % np.abs(
        angles - expected).max()
    assert abs(field(output, "MinAngle_Min") - expected.min()) < 1e-3, "MinAngle_Min is not the smallest angle"
    return "MinAngle %.2f..%.2f degrees, as vtkMeshQuality" % (angles.min(), angles.max())


def check_mesh_quality(output, source):
    from vtkmodules.vtkFiltersVerdict import vtkMeshQuality
    quality = vtkMeshQuality()
    quality.SetInputData(source)
    quality.SetTetQualityMeasure(2)  # Radius Ratio, as the recipe sets
    quality.Update()
    expected = cells(quality.GetOutput(), "Quality")
    got = cells(output, "Quality")
    assert np.allclose(got, expected, rtol=1e-6, atol=0), "Quality differs from vtkMeshQuality by %g" % np.abs(
        got - expected).max()
    statistics = output.GetFieldData().GetArray("Mesh Tetrahedron Quality").GetTuple(0)
    assert statistics[4] == source.GetNumberOfCells(), "Mesh Tetrahedron Quality counts %g cells" % statistics[4]
    return "Radius Ratio %.3f..%.3f, as vtkMeshQuality" % (got.min(), got.max())


def check_extract_surface(output, source):
    from vtkmodules.vtkFiltersGeometry import vtkDataSetSurfaceFilter
    surface = vtkDataSetSurfaceFilter()
    surface.SetInputData(source)
    surface.PassThroughPointIdsOn()
    surface.Update()
    expected = surface.GetOutput()

    def faces(polydata, ids):
        return sorted(tuple(sorted(int(ids[polydata.GetCell(c).GetPointId(k)]) for k in range(3)))
                      for c in range(polydata.GetNumberOfCells()))
    got = faces(output, points_array(output, "vtkOriginalPointIds"))
    assert got == faces(expected, points_array(expected, "vtkOriginalPointIds")), "faces differ from Extract Surface"
    assert np.all(cells(output, "vtkOriginalCellIds") < source.GetNumberOfCells())
    return "%d boundary triangles, as Extract Surface" % len(got)


def check_extract_edges(output, source):
    from vtkmodules.vtkFiltersCore import vtkFeatureEdges
    from vtkmodules.vtkFiltersGeometry import vtkDataSetSurfaceFilter
    surface = vtkDataSetSurfaceFilter()
    surface.SetInputData(source)
    surface.Update()
    edges = vtkFeatureEdges()
    edges.SetInputData(surface.GetOutput())
    edges.FeatureEdgesOff()
    edges.NonManifoldEdgesOff()
    edges.Update()
    expected = edges.GetOutput().GetNumberOfCells()
    assert output.GetNumberOfCells() == expected, "%d boundary edges, Feature Edges %d" % (
        output.GetNumberOfCells(), expected)
    return "%d boundary edges, as Feature Edges" % expected


RECIPES = {
    "GPUCellReduction": Recipe(
        mesh="ball_tets.vtu", properties={"Quantity": "Volume"}, color=("CELLS", "Volume"),
        output_array=("CELLS", "Size"), check=check_cell_reduction, view_3d=True),
    "GPUMeshQuality": Recipe(
        mesh="ball_tets.vtu", properties={"TetQualityMeasure": "Radius Ratio"}, color=("CELLS", "Quality"),
        output_array=("CELLS", "Quality"), check=check_mesh_quality, view_3d=True),
    "GPUNeighborDistance": Recipe(
        mesh="hex_block.vtu", properties={"ComputeCentroids": 1}, color=("CELLS", "MeanNeighborDistance"),
        output_array=("CELLS", "MeanNeighborDistance"), check=check_neighbor_distance, view_3d=True),
    "GPUExtractSurface": Recipe(
        mesh="ball_tets.vtu", properties={"PassThroughCellIds": 1, "PassThroughPointIds": 1},
        color=("CELLS", "vtkOriginalCellIds"), output_array=("CELLS", "vtkOriginalCellIds"),
        check=check_extract_surface, view_3d=True, default_output_array=("POINTS", "Normals")),
    "GPUExtractEdges": Recipe(
        mesh="plate_with_holes.vtu", properties={"Selection": "Boundary Edges", "PassThroughPointIds": 1},
        color=("POINTS", "vtkOriginalPointIds"), output_array=("POINTS", "vtkOriginalPointIds"),
        check=check_extract_edges, zoom=1.3, default_output_array=("POINTS", "Normals")),
    "GPULongestEdgeRefinement": Recipe(
        mesh="plate_with_holes.vtu", upstream="GPUCellReduction",
        properties={"MarkArray": ["CELLS", "Size"], "MarkThreshold": largest_tenth, "Passes": 2},
        color=("CELLS", "Size"), output_array=("CELLS", "ParentCellId"), check=check_longest_edge_refinement,
        zoom=2.2, split_colors_at=largest_tenth),
    "GPUDecimation": Recipe(
        mesh="sphere_surface.vtu", properties={"TargetReduction": 0.8, "PassThroughCellIds": 1},
        color=("CELLS", "vtkOriginalCellIds"), output_array=("CELLS", "vtkOriginalCellIds"),
        check=check_decimation, view_3d=True, default_output_array=("POINTS", "Normals")),
    "GPUVertexSmoothing": Recipe(
        mesh="plate_with_holes.vtu",
        properties={"Method": "Taubin", "Iterations": 20, "Boundary": "Fixed"},
        color=("POINTS", "Displacement"), output_array=("POINTS", "Displacement"), check=check_vertex_smoothing,
        zoom=1.3),
    "GPUMeshKernel": Recipe(
        mesh="plate_with_holes.vtu",
        properties={"Domain": "Cells", "Kernel": SMALLEST_ANGLE, "ResultArrayName": "MinAngle", "Reduction": "Min"},
        color=("CELLS", "MinAngle"), output_array=("CELLS", "MinAngle"), check=check_mesh_kernel, zoom=1.3,
        default_output_array=("POINTS", "Result")),
}
