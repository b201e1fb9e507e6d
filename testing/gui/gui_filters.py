"""Runs inside the real ParaView GUI (paraview --script=gui_filters.py), started by
run_gui_test.py, which passes everything through GPUMESH_* environment variables.

GPUMESH_GUI_MODE says how the plugin gets loaded, the way a user loads it:
  pv_plugin_path        PV_PLUGIN_PATH at start-up: the filters must be there from the start;
  plugin_manager_api    vtkSMPluginManager::LoadLocalPlugin, what Tools > Manage Plugins >
                        Load New... calls: the filters must be absent before and present after;
  plugin_manager_dialog the events XML played after this script clicks through the dialog and
                        applies each filter from Filters > GPU Mesh; this script waits for
                        their outputs and checks them.
For the first two, each filter of xml/GPUMeshFilters.xml is applied to a sample mesh through
paraview.simple, in this GUI process, as gui_recipes.py says; its output and its Device
drop-down are checked, and the whole window is captured (import -window root) once the event
loop has painted it. The steps run from one-shot timers of the render view's interactor
(QTimers), so the GUI repaints between them. The results go to report.json in GPUMESH_GUI_OUT
and the process exits with 0 only if every check passed.
"""
import json
import os
import re
import subprocess
import sys
import time
import traceback

sys.path[:0] = [os.environ["GPUMESH_GUI_DIR"], os.environ["GPUMESH_PYTHON_DIR"]]

from paraview import servermanager, simple  # noqa: E402
from vtkmodules.util.misc import calldata_type  # noqa: E402
from vtkmodules.util.vtkConstants import VTK_INT  # noqa: E402

import gpumesh_xml  # noqa: E402
import gui_recipes  # noqa: E402

MODE = os.environ["GPUMESH_GUI_MODE"]
PLUGIN = os.environ["GPUMESH_PLUGIN"]
DATA = os.environ["GPUMESH_DATA"]
OUT = os.environ["GPUMESH_GUI_OUT"]
EXPECTED_DEVICES = int(os.environ["GPUMESH_EXPECTED_DEVICES"])
FILTERS = gpumesh_xml.load()
CATEGORY = "GPU Mesh"
PAINT_MS = 2500      # event-loop time given to the GUI to repaint before a screenshot
DIALOG_WAIT_S = 150  # plugin_manager_dialog: how long to wait for the played events

report = {"mode": MODE, "plugin": PLUGIN, "load": [], "filters": {f.name: {"status": "not run"} for f in FILTERS}}


def finish():
    failed = [line for line in report["load"] if not line.startswith("ok")]
    failed += [n for n, r in report["filters"].items() if r["status"] != "ok"]
    report["passed"] = not failed
    with open(os.path.join(OUT, "report.json"), "w") as f:
        json.dump(report, f, indent=2)
    for line in report["load"]:
        print("[gui] load:", line, flush=True)
    for name, result in report["filters"].items():
        print("[gui] %s: %s" % (name, json.dumps(result)), flush=True)
    print("[gui] %s" % ("PASSED" if not failed else "FAILED: " + ", ".join(failed)), flush=True)
    os._exit(0 if not failed else 1)  # ends the GUI: there is no Qt binding to quit it


class Timeline:
    """Runs callables one after another from one-shot timers of the render view's interactor."""

    def __init__(self):
        self.interactor = simple.GetActiveViewOrCreate("RenderView").GetRenderWindow().GetInteractor()
        self.steps = []
        self.pending = None
        self.interactor.AddObserver("TimerEvent", self.on_timer)

    def add(self, delay_ms, step):
        self.steps.append((delay_ms, step))

    def add_next(self, delay_ms, step):
        self.steps.insert(0, (delay_ms, step))

    def start(self):
        self.next()

    def next(self):
        if not self.steps:
            finish()
        delay_ms, step = self.steps.pop(0)
        self.pending = (self.interactor.CreateOneShotTimer(delay_ms), step)

    @calldata_type(VTK_INT)
    def on_timer(self, caller, event, timer_id):
        if self.pending is None or timer_id != self.pending[0]:
            return  # a timer of ParaView's own
        step = self.pending[1]
        self.pending = None
        try:
            step()
        except Exception:  # a broken step must not hang the GUI: record it and finish
            report["load"].append("step %s raised:\n%s" % (getattr(step, "__name__", step), traceback.format_exc()))
            finish()
        self.next()


def definition_manager():
    return servermanager.ActiveConnection.Session.GetProxyDefinitionManager()


def gpumesh_plugin_loaded():
    info = servermanager.vtkSMProxyManager.GetProxyManager().GetPluginManager().GetLocalInformation()
    return any(info.GetPluginName(i) == "GPUMesh" and info.GetPluginLoaded(i) for i in range(info.GetNumberOfPlugins()))


def load_plugin():
    pdm = definition_manager()
    present = [f.name for f in FILTERS if pdm.HasDefinition("filters", f.name)]
    if MODE == "pv_plugin_path":
        ok = gpumesh_plugin_loaded() and len(present) == len(FILTERS)
        report["load"].append("%s: PV_PLUGIN_PATH loaded GPUMesh at start-up (%d of %d filters registered)"
                              % ("ok" if ok else "FAILED", len(present), len(FILTERS)))
    elif MODE == "plugin_manager_api":
        if present or gpumesh_plugin_loaded():
            report["load"].append("FAILED: GPUMesh was loaded before the plugin manager loaded it: %s" % present)
        manager = servermanager.vtkSMProxyManager.GetProxyManager().GetPluginManager()
        loaded = manager.LoadLocalPlugin(PLUGIN)
        ok = bool(loaded) and gpumesh_plugin_loaded()
        report["load"].append("%s: vtkSMPluginManager::LoadLocalPlugin(%s) returned %s; listed as loaded: %s"
                              % ("ok" if ok else "FAILED", PLUGIN, bool(loaded), gpumesh_plugin_loaded()))
        # paraview.simple makes its constructors when a plugin is loaded through it: refresh them.
        simple.LoadPlugin(PLUGIN, remote=False, ns=vars(simple))
    check_registration()


def check_registration():
    """Each filter of the XML: a definition in group "filters", its label, the GPU Mesh menu
    category (the ShowInMenu hint that makes Filters > GPU Mesh and the search box list it),
    and a paraview.simple constructor."""
    pdm = definition_manager()
    for f in FILTERS:
        result = report["filters"][f.name]
        if not pdm.HasDefinition("filters", f.name):
            result["status"] = "MISSING: not registered by the loaded plugin"
            continue
        prototype = servermanager.ProxyManager().SMProxyManager.GetPrototypeProxy("filters", f.name)
        hints = prototype.GetHints()
        menu = hints.FindNestedElementByName("ShowInMenu") if hints else None
        category = menu.GetAttribute("category") if menu else None
        problems = []
        if category != CATEGORY:
            problems.append("menu category %r, expected %r" % (category, CATEGORY))
        if prototype.GetXMLLabel() != f.label:
            problems.append("label %r, expected %r" % (prototype.GetXMLLabel(), f.label))
        if not hasattr(simple, f.python_name):
            problems.append("paraview.simple has no %s" % f.python_name)
        result["registered"] = "in %s as %r" % (category, prototype.GetXMLLabel())
        result["status"] = "FAILED: " + "; ".join(problems) if problems else "registered"


def check_device_list(proxy):
    """The Device drop-down (StringListDomain fed by the DeviceList information property):
    'auto', then one '<index>: <name> (<type>)' per OpenCL device of the server."""
    proxy.SMProxy.UpdatePropertyInformation()
    information = proxy.SMProxy.GetProperty("DeviceList")
    listed = [information.GetElement(i) for i in range(information.GetNumberOfElements())]
    choices = list(proxy.GetProperty("Device").Available)
    assert choices == listed, "Device drop-down %s differs from DeviceList %s" % (choices, listed)
    assert choices and choices[0] == "auto", "Device drop-down does not start with 'auto': %s" % choices
    entries = choices[1:]
    assert len(entries) == EXPECTED_DEVICES, "%d devices listed, clinfo -l lists %d: %s" % (
        len(entries), EXPECTED_DEVICES, entries)
    for index, entry in enumerate(entries):
        assert re.match(r"^%d: .+ \((GPU|CPU|ACCELERATOR|DEVICE)\)$" % index, entry), "bad Device entry %r" % entry
    return choices


readers = {}


def reader_for(mesh):
    if mesh not in readers:
        readers[mesh] = simple.XMLUnstructuredGridReader(
            registrationName=mesh, FileName=[os.path.join(DATA, mesh)])
        readers[mesh].UpdatePipeline()
    return readers[mesh]


def apply_filter(f):
    """Applies filter f as its recipe says, checks it, and shows it for the screenshot."""
    result = report["filters"][f.name]
    if result["status"] != "registered":
        return
    recipe = gui_recipes.RECIPES.get(f.name)
    if recipe is None:
        result["status"] = "FAILED: no entry for %s in testing/gui/gui_recipes.py" % f.name
        return
    try:
        view = simple.GetActiveViewOrCreate("RenderView")
        for source in simple.GetSources().values():
            simple.Hide(source, view)
        source = reader_for(recipe.mesh)
        if recipe.upstream:
            upstream = next(u for u in FILTERS if u.name == recipe.upstream)
            source = getattr(simple, upstream.python_name)(
                registrationName="%s (input of %s)" % (upstream.label, f.label), Input=source)
            source.UpdatePipeline()
        source_data = servermanager.Fetch(source)
        gpu_filter = getattr(simple, f.python_name)(registrationName=f.label, Input=source)
        devices = check_device_list(gpu_filter)
        gpu_filter.Device = devices[1]  # picked from the drop-down: the first device
        for name, value in recipe.properties.items():
            setattr(gpu_filter, name, value(source_data) if callable(value) else value)
        gpu_filter.UpdatePipeline()
        output = servermanager.Fetch(gpu_filter)
        assert output.GetNumberOfCells() > 0, "no output (see the ERR| lines of the log)"
        device = gui_recipes.field(output, "Device")
        assert device == devices[1], "ran on %r, chosen %r" % (device, devices[1])
        assert gui_recipes.field(output, "KernelTimeMs") >= 0
        result["summary"] = recipe.check(output, source_data)
        result["devices"] = devices

        display = simple.Show(gpu_filter, view)
        display.SetRepresentationType("Surface With Edges")
        simple.ColorBy(display, recipe.color)
        display.RescaleTransferFunctionToDataRange(True, False)
        if recipe.split_colors_at:  # two colours: the cells above the value, the others
            split = recipe.split_colors_at(source_data)
            top = display.LookupTable.RGBPoints[-4]
            display.LookupTable.AutomaticRescaleRangeMode = "Never"
            display.LookupTable.Discretize = 1
            display.LookupTable.NumberOfTableValues = 2
            display.LookupTable.RescaleTransferFunction(2 * split - top, top)
        display.SetScalarBarVisibility(view, True)
        view.CameraPosition, view.CameraFocalPoint, view.CameraViewUp = [0, 0, 1], [0, 0, 0], [0, 1, 0]
        view.ResetCamera()
        if recipe.view_3d:
            camera = simple.GetActiveCamera()
            camera.Elevation(30)
            camera.Azimuth(35)
            view.ResetCamera()
        simple.GetActiveCamera().Zoom(recipe.zoom)
        simple.SetActiveSource(gpu_filter)
        simple.Render(view)
        result["status"] = "ok"
    except AssertionError as error:
        result["status"] = "FAILED: %s" % error
    except Exception:
        result["status"] = "FAILED: %s" % traceback.format_exc()


def screenshot(f, attempt=1):
    """The whole screen, which the main window fills; taken again later if it looks unpainted."""
    result = report["filters"][f.name]
    if result["status"] != "ok":
        return
    path = os.path.join(OUT, "gui_%s.png" % f.example_name)
    done = subprocess.run(["import", "-window", "root", path], capture_output=True, text=True)
    if done.returncode != 0 or not os.path.isfile(path):
        result["status"] = "FAILED: import -window root: %s" % done.stderr.strip()
        return
    colours = subprocess.run(["identify", "-format", "%k", path], capture_output=True, text=True).stdout
    if int(colours or 0) < 200 and attempt < 3:
        timeline.add_next(PAINT_MS, lambda: screenshot(f, attempt + 1))
    result["screenshot"] = path


def wait_for_played_filters(deadline=[None]):
    """plugin_manager_dialog: the events XML loads the plugin through the dialog and applies
    every filter from Filters > GPU Mesh; wait until each has an output, then check them."""
    if deadline[0] is None:
        deadline[0] = time.time() + DIALOG_WAIT_S
    applied = {p.GetXMLName(): p for p in simple.GetSources().values()}
    pending = [f for f in FILTERS if f.name not in applied or applied[f.name].GetDataInformation().GetNumberOfCells() == 0]
    if pending and time.time() < deadline[0]:
        timeline.add(1000, wait_for_played_filters)
        return
    timeline.add(3000, lambda: check_played_filters(applied, pending))  # lets the player finish


def check_played_filters(applied, pending):
    report["load"].append("%s: GPUMesh listed as loaded after the dialog: %s" % (
        "ok" if gpumesh_plugin_loaded() else "FAILED", gpumesh_plugin_loaded()))
    for f in FILTERS:
        result = report["filters"][f.name]
        if f in pending:
            result["status"] = "FAILED: no output from Filters > %s > %s within %d s" % (CATEGORY, f.label, DIALOG_WAIT_S)
            continue
        recipe = gui_recipes.RECIPES.get(f.name)
        if recipe is None:
            result["status"] = "FAILED: no entry for %s in testing/gui/gui_recipes.py" % f.name
            continue
        output = servermanager.Fetch(applied[f.name])
        association, name = recipe.default_output_array  # applied with its default properties
        data = output.GetCellData() if association == "CELLS" else output.GetPointData()
        ok = data.GetArray(name) is not None
        result["status"] = "ok" if ok else "FAILED: applied from the menu, but its output has no %s array %s" % (
            association, name)
        result["summary"] = "applied from Filters > %s; %d cells, %s array %s" % (
            CATEGORY, output.GetNumberOfCells(), association.lower(), name)


os.makedirs(OUT, exist_ok=True)
timeline = Timeline()
if MODE == "plugin_manager_dialog":
    timeline.add(1000, wait_for_played_filters)
else:
    try:
        load_plugin()
    except Exception:  # a failed load must end the GUI, not leave it waiting
        report["load"].append("FAILED: loading the plugin raised:\n%s" % traceback.format_exc())
        finish()
    for gpu_filter in FILTERS:
        timeline.add(500, lambda f=gpu_filter: apply_filter(f))
        timeline.add(PAINT_MS, lambda f=gpu_filter: screenshot(f))
timeline.start()
