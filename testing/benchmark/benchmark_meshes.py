"""Larger gmsh meshes for the pvpython benchmarks, made from the recipes in data/ and cached in
$GPUMESH_BENCHMARK_CACHE (default $TMPDIR/gpumesh-benchmark-meshes), outside the checkout.

    path = benchmark_meshes.plate_triangles(scale)   # data/plate_with_holes.geo, -clscale scale
"""
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "data")
CACHE = os.environ.get("GPUMESH_BENCHMARK_CACHE",
                       os.path.join(os.environ.get("TMPDIR", "/tmp"), "gpumesh-benchmark-meshes"))


def gmsh_mesh(recipe, dimension, kind, scale):
    """`recipe`.geo meshed by gmsh with -clscale `scale`, converted to a clean .vtu."""
    os.makedirs(CACHE, exist_ok=True)
    target = os.path.join(CACHE, "%s_%g.vtu" % (recipe, scale))
    if not os.path.exists(target):
        with tempfile.TemporaryDirectory() as tmp:
            raw = os.path.join(tmp, recipe + ".vtk")
            subprocess.run(["gmsh", os.path.join(DATA, recipe + ".geo"), "-%d" % dimension, "-clscale", str(scale),
                            "-format", "vtk", "-bin", "-nt", "1", "-v", "2", "-o", raw], check=True)
            subprocess.run(["pvpython", os.path.join(DATA, "gmsh_to_vtu.py"), raw, target, kind], check=True)
    return target


def plate_triangles(scale):
    return gmsh_mesh("plate_with_holes", 2, "triangle", scale)
