#!/usr/bin/python3
"""Starts the real ParaView GUI under Xvfb with gui_filters.py and checks what it reports.

    run_gui_test.py MODE --plugin GPUMesh.so --out DIR [--docs DIR] [--timeout SECONDS]

MODE (see gui_filters.py): pv_plugin_path | plugin_manager_api | plugin_manager_dialog.
Passes when ParaView exits 0, its report says every filter of xml/GPUMeshFilters.xml passed,
the events XML played successfully, the log has no error (ERR|) and, in the first two modes,
each filter has a screenshot of the whole 1280x1024 window that is not blank. --docs writes
the screenshots, downscaled, as DIR/gui_<filter>.png (under 300 KB each).
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
from xml.sax.saxutils import quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(HERE, "..", "python")
sys.path.insert(0, PYTHON_DIR)
import gpumesh_xml  # noqa: E402

SCREEN = (1280, 1024)
DOCS_WIDTH = 1000
DOCS_MAX_BYTES = 300 * 1024


def fail(message):
    print("GUI TEST FAILED: " + message, flush=True)
    sys.exit(1)


def opencl_device_count():
    try:
        listing = subprocess.run(["clinfo", "-l"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        fail("clinfo -l (package clinfo) is needed to know the expected devices: %s" % error)
    return len(re.findall(r"Device #\d+", listing))


def dialog_events(plugin, out):
    """Tools > Manage Plugins > Load New... > GPUMesh.so > Close; Sources > Sphere > Apply; then
    each filter of the XML from Filters > GPU Mesh, each applied to the previous one."""
    events = [
        ("pqClientMainWindow/menubar", "activate", "menuTools"),
        ("pqClientMainWindow/menubar/menuTools", "activate", "actionManage_Plugins"),
        ("pqClientMainWindow/PluginManagerDialog/splitter/localGroup/loadLocal", "activate", ""),
        ("pqClientMainWindow/PluginManagerDialog/1pqFileDialog0", "filesSelected", plugin),
        ("pqClientMainWindow/PluginManagerDialog/buttonBox/1QPushButton0", "activate", ""),
        ("pqClientMainWindow/menubar", "activate", "menuSources"),
        ("pqClientMainWindow/menubar/menuSources", "activate", "&Alphabetical"),
        ("pqClientMainWindow/menubar/menuSources/Alphabetical", "activate", "SphereSource"),
        ("pqClientMainWindow/propertiesDock/propertiesPanel/Accept", "activate", ""),
    ]
    for f in gpumesh_xml.load():
        events += [
            ("pqClientMainWindow/menubar", "activate", "menuFilters"),
            ("pqClientMainWindow/menubar/menuFilters/" + f.menu_category, "activate", f.name),
            ("pqClientMainWindow/propertiesDock/propertiesPanel/Accept", "activate", ""),
        ]
    path = os.path.join(out, "plugin_dialog_events.xml")
    with open(path, "w") as xml:
        xml.write('<?xml version="1.0" ?>\n<pqevents>\n')
        for obj, command, arguments in events:
            xml.write('  <pqevent object=%s command=%s arguments=%s />\n'
                      % (quoteattr(obj), quoteattr(command), quoteattr(arguments)))
        xml.write("</pqevents>\n")
    return path


def run_paraview(mode, plugin, out, timeout):
    env = {k: v for k, v in os.environ.items() if k != "PV_PLUGIN_PATH"}
    env.update({
        "GPUMESH_GUI_MODE": mode, "GPUMESH_PLUGIN": plugin, "GPUMESH_GUI_OUT": out,
        "GPUMESH_GUI_DIR": HERE, "GPUMESH_PYTHON_DIR": PYTHON_DIR,
        "GPUMESH_DATA": os.path.normpath(os.path.join(HERE, "..", "..", "data")),
        "GPUMESH_EXPECTED_DEVICES": str(opencl_device_count()),
        "LIBGL_ALWAYS_SOFTWARE": "1",
    })
    if mode == "pv_plugin_path":
        env["PV_PLUGIN_PATH"] = os.path.dirname(plugin)
    events = dialog_events(plugin, out) if mode == "plugin_manager_dialog" else os.path.join(HERE, "show_advanced.xml")
    command = ["xvfb-run", "-a", "-s", "-screen 0 %dx%dx24" % SCREEN,
               "paraview", "--dr", "-geometry", "%dx%d+0+0" % SCREEN,
               "--script=" + os.path.join(HERE, "gui_filters.py"), "--test-script=" + events]
    print("running:", " ".join(command), flush=True)
    with open(os.path.join(out, "paraview.log"), "w+") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            rc = "timeout after %d s" % timeout
        log.seek(0)
        text = log.read()
    print(text, flush=True)
    return rc, text


def image_facts(path):
    facts = subprocess.run(["identify", "-format", "%w %h %k", path], capture_output=True, text=True, check=True)
    width, height, colours = (int(v) for v in facts.stdout.split())
    return width, height, colours


def write_docs_screenshot(raw, docs):
    target = os.path.join(docs, os.path.basename(raw))
    for colours in (256, 128, 64):  # a palette PNG, undithered: small and sharp for a GUI
        subprocess.run(["convert", raw, "-resize", "%dx" % DOCS_WIDTH, "-strip", "+dither",
                        "-colors", str(colours), target], check=True)
        if os.path.getsize(target) < DOCS_MAX_BYTES:
            return target
    fail("%s is %d bytes even with 64 colours" % (target, os.path.getsize(target)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["pv_plugin_path", "plugin_manager_api", "plugin_manager_dialog"])
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--docs")
    parser.add_argument("--timeout", type=int, default=400)
    args = parser.parse_args()
    plugin, out = os.path.abspath(args.plugin), os.path.abspath(args.out)
    if not os.path.isfile(plugin):
        fail("no plugin at %s (build first)" % plugin)
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        os.remove(os.path.join(out, old))

    rc, log = run_paraview(args.mode, plugin, out, args.timeout)
    problems = []
    if rc != 0:
        problems.append("paraview exit status %s" % rc)
    if not re.search(r"Success =\s+true", log):
        problems.append("the events XML did not play to the end (no 'Success = true' in the log)")
    errors = [line for line in log.splitlines() if "ERR|" in line]
    if errors:
        problems.append("errors in the log:\n  " + "\n  ".join(errors))
    report_path = os.path.join(out, "report.json")
    if not os.path.isfile(report_path):
        fail("; ".join(problems + ["gui_filters.py wrote no report"]))
    with open(report_path) as f:
        report = json.load(f)
    expected = [f.name for f in gpumesh_xml.load()]
    if sorted(report["filters"]) != sorted(expected):
        problems.append("report covers %s, the XML declares %s" % (sorted(report["filters"]), sorted(expected)))
    problems += ["load: " + line for line in report["load"] if not line.startswith("ok")]
    problems += ["%s: %s" % (name, r["status"]) for name, r in report["filters"].items() if r["status"] != "ok"]
    if args.mode != "plugin_manager_dialog":
        for name, result in report["filters"].items():
            shot = result.get("screenshot")
            if not shot or not os.path.isfile(shot):
                problems.append("%s: no screenshot" % name)
                continue
            width, height, colours = image_facts(shot)
            if (width, height) != SCREEN or colours < 200:
                problems.append("%s: screenshot %dx%d with %d colours: not the whole painted window" % (
                    name, width, height, colours))
            elif args.docs:
                print("docs:", write_docs_screenshot(shot, args.docs))
    if problems:
        fail("\n".join(problems))
    print("GUI test passed (%s): %s" % (args.mode, ", ".join(expected)))


if __name__ == "__main__":
    main()
