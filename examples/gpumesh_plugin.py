"""Finds and loads the GPUMesh plugin for the example scripts.

Order: the GPUMESH_PLUGIN environment variable, then this checkout's build tree, then
PV_PLUGIN_PATH (Debian's pvpython does not find plugins by name on its own).
"""
import glob
import os

from paraview import servermanager, simple

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")


def plugin_path():
    candidates = [os.environ.get("GPUMESH_PLUGIN", "")]
    candidates += glob.glob(os.path.join(HERE, "..", "build", "lib", "paraview-*", "plugins", "GPUMesh", "GPUMesh.so"))
    for directory in os.environ.get("PV_PLUGIN_PATH", "").split(os.pathsep):
        candidates.append(os.path.join(directory, "GPUMesh.so"))
        candidates.append(os.path.join(directory, "GPUMesh", "GPUMesh.so"))
    for candidate in candidates:
        if candidate and os.path.isfile(candidate):
            return os.path.abspath(candidate)
    raise SystemExit("GPUMesh.so not found: build the project (README command 1) or set GPUMESH_PLUGIN")


def load(namespace):
    path = plugin_path()
    simple.LoadPlugin(path, remote=False, ns=namespace)
    if servermanager.ActiveConnection.IsRemote():
        simple.LoadPlugin(path, remote=True, ns=namespace)
    return path
