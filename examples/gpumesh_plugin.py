"""Finds and loads the GPUMesh plugin for the example scripts, and the few helpers they share.

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


def output_folder(path, example):
    """The folder an example writes to: `path` if given, else build/examples-output/<example>."""
    folder = os.path.abspath(path or os.path.join(HERE, "..", "build", "examples-output", example))
    os.makedirs(folder, exist_ok=True)
    return folder


def fetch(proxy, what):
    """Runs the pipeline up to `proxy` and brings its output here (all pieces under MPI);
    stops the script if the filter produced nothing (its error was printed above)."""
    proxy.UpdatePipeline()
    data = servermanager.Fetch(proxy)
    if data is None or data.GetNumberOfCells() == 0:
        raise SystemExit("%s produced no output (see the error above)" % what)
    return data


def cell_values(dataset, name):
    """A cell array of a fetched dataset as a list of floats (vectors by magnitude)."""
    array = dataset.GetCellData().GetArray(name)
    if array is None:
        raise SystemExit("the output has no cell array %r" % name)
    if array.GetNumberOfComponents() == 1:
        return [array.GetValue(i) for i in range(array.GetNumberOfTuples())]
    return [sum(c * c for c in array.GetTuple(i)) ** 0.5 for i in range(array.GetNumberOfTuples())]


def field(dataset, name):
    array = dataset.GetFieldData().GetAbstractArray(name)
    if array is None:
        raise SystemExit("the output has no field data %r" % name)
    return array.GetValue(0) if array.IsA("vtkStringArray") else array.GetTuple1(0)


def ranks():
    """The number of MPI processes (1 under pvpython)."""
    return servermanager.vtkProcessModule.GetProcessModule().GetNumberOfLocalPartitions()


def save(proxy, folder, stem):
    """Writes the proxy's output as <stem>.vtu or .vtp by its data type (.pvtu or .pvtp, one
    piece per process, under MPI); returns the path."""
    extension = ".vtp" if proxy.GetDataInformation().GetDataSetTypeAsString() == "vtkPolyData" else ".vtu"
    if ranks() > 1:
        extension = ".p" + extension[1:]
    path = os.path.join(folder, stem + extension)
    simple.SaveData(path, proxy=proxy)
    return path
