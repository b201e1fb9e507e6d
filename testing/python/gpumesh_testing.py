"""Helpers shared by the filter tests: plugin loading, data, fetching results, errors."""
import os

import numpy as np
from paraview import servermanager
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonCore import vtkOutputWindow, vtkStringOutputWindow
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

# The surface cells of an unstructured grid as a vtkPolyData (arrays kept, points unmerged).
from gpumesh_slab_pieces import as_polydata  # noqa: F401  (re-exported for the tests)

DATA = os.environ.get("GPUMESH_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))


def load_plugin():
    """Loads the plugin named by GPUMESH_PLUGIN into paraview.simple (client and server)."""
    path = os.environ["GPUMESH_PLUGIN"]
    # In pvpython and pvbatch (MPI included) the session is built in: one load serves all.
    simple.LoadPlugin(path, remote=False, ns=vars(simple))
    if servermanager.ActiveConnection.IsRemote():
        simple.LoadPlugin(path, remote=True, ns=vars(simple))


def data_path(name):
    return os.path.join(DATA, name)


def read_gmf(path, solution=""):
    """The unstructured grid GMF Mesh Reader makes of `path` (and `solution`, if given)."""
    reader = simple.GMFMeshReader(FileName=path, SolutionFileName=solution)
    reader.UpdatePipeline()
    grid = servermanager.Fetch(reader)
    simple.Delete(reader)
    return grid


def save(dataset, path, **properties):
    """`dataset` written to `path` by SaveData (the writer chosen by the extension)."""
    source = producer(dataset)
    simple.SaveData(path, proxy=source, **properties)
    simple.Delete(source)


def read_vtu(name):
    """The .vtu file as a plain VTK object (for references computed outside the plugin)."""
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(data_path(name))
    reader.Update()
    return reader.GetOutput()




def producer(dataset):
    """A pipeline source that outputs `dataset` (builtin session)."""
    source = simple.TrivialProducer()
    source.GetClientSideObject().SetOutput(dataset)
    source.UpdatePipeline()
    return source


def fetch(proxy):
    proxy.UpdatePipeline()
    return servermanager.Fetch(proxy)


def cell_array(dataset, name):
    array = dsa.WrapDataObject(dataset).CellData[name]
    return None if isinstance(array, dsa.VTKNoneArray) else np.asarray(array, dtype=np.float64)


def cell_array_vectors(dataset, name):
    """A multi-component cell array as an (n, components) float64 array."""
    array = dataset.GetCellData().GetArray(name)
    if array is None:
        raise AssertionError("cell array %r is missing" % name)
    return np.array([array.GetTuple(i) for i in range(array.GetNumberOfTuples())], dtype=np.float64)


def field_value(dataset, name):
    array = dataset.GetFieldData().GetAbstractArray(name)
    if array is None:
        raise AssertionError("field data array %r is missing" % name)
    if array.IsA("vtkStringArray"):
        return array.GetValue(0)
    return array.GetTuple1(0)


def field_per_process(proxy, name, ranks):
    """A one-value numeric field data array of every process's piece of `proxy`, as an int
    (None where it is missing)."""
    values = []
    for rank in range(ranks):
        array = servermanager.Fetch(proxy, rank).GetFieldData().GetAbstractArray(name)
        values.append(None if array is None else int(array.GetTuple1(0)))
    return values


class CapturedErrors:
    """Collects what VTK writes to its output window (vtkErrorMacro) inside a `with` block."""

    def __enter__(self):
        self.previous = vtkOutputWindow.GetInstance()
        self.window = vtkStringOutputWindow()
        vtkOutputWindow.SetInstance(self.window)
        return self

    def __exit__(self, *exc):
        vtkOutputWindow.SetInstance(self.previous)
        return False

    @property
    def text(self):
        return self.window.GetOutput()
