#!/usr/bin/env python3
"""Checks that every folder of the source tree includes only the folders below it.

    python3 testing/layers/check_layers.py [SOURCE_DIR]

The layers, lowest first (a folder may include itself and what its entry allows):
  core/gpumesh/  runtime < primitives < mesh < topology < algorithms < algorithms/refinement
  kernels/       the same folders, for `#include "<name>.cl"` between programs
  plugin/        core < Adapter < Parallel < Filters, and Adapter < IO; GPUMesh/ has no code
Also: nothing under core/ or kernels/ includes VTK, every include of the project's own files
resolves to exactly one file, and kernels/README.md names every kernel file in its layer's row. Prints each violation and exits 1 if there is any.
"""
import pathlib
import re
import sys

CORE_LAYERS = ["runtime", "primitives", "mesh", "topology", "algorithms", "algorithms/refinement"]
# What each plugin folder may include, besides itself ("core" is any core/gpumesh header).
PLUGIN_ALLOWED = {
    "Adapter": {"core"},
    "Parallel": {"core", "Adapter"},
    "IO": {"core", "Adapter"},
    "Filters": {"core", "Adapter", "Parallel"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def core_allowed(layer):
    """A core layer may include itself and every layer before it."""
    return set(CORE_LAYERS[: CORE_LAYERS.index(layer) + 1])


def layer_of(root, path):
    """The layer folder of a file under `root` (core/gpumesh or kernels)."""
    folder = path.parent.relative_to(root).as_posix()
    return folder if folder in CORE_LAYERS else None


def main(source):
    problems = []
    core_root = source / "core" / "gpumesh"
    kernel_root = source / "kernels"
    plugin_root = source / "plugin"

    def report(path, text):
        problems.append(f"{path.relative_to(source)}: {text}")

    # core/gpumesh: "gpumesh/<layer>/<file>.h"
    for path in sorted(core_root.rglob("*")):
        if path.suffix not in (".h", ".cxx"):
            continue
        layer = layer_of(core_root, path)
        if layer is None:
            report(path, "is not in a layer folder (" + ", ".join(CORE_LAYERS) + ")")
            continue
        for name in INCLUDE.findall(path.read_text()):
            if name.startswith("vtk"):
                report(path, f'includes VTK ("{name}"): the core knows nothing of VTK')
                continue
            if not name.startswith("gpumesh/"):
                continue
            target = source / "core" / name
            if not target.is_file():
                report(path, f'includes "{name}", which does not exist')
                continue
            included = layer_of(core_root, target)
            if included not in core_allowed(layer):
                report(path, f'({layer}) includes "{name}" ({included}), a layer above it')

    # kernels: "<name>.cl", named by file name alone
    kernels = {}
    for path in sorted(kernel_root.rglob("*.cl")):
        layer = layer_of(kernel_root, path)
        if layer is None:
            report(path, "is not in a layer folder (" + ", ".join(CORE_LAYERS) + ")")
            continue
        if path.stem in kernels:
            report(path, f"has the name of {kernels[path.stem].relative_to(source)}: programs are found by name")
        kernels[path.stem] = path
    for name, path in kernels.items():
        layer = layer_of(kernel_root, path)
        for included_name in INCLUDE.findall(path.read_text()):
            target = kernels.get(pathlib.Path(included_name).stem)
            if target is None:
                report(path, f'includes "{included_name}", which does not exist')
                continue
            included = layer_of(kernel_root, target)
            if included not in core_allowed(layer):
                report(path, f'({layer}) includes "{included_name}" ({included}), a layer above it')

    # kernels/README.md: one row per layer naming each of its files
    readme = (kernel_root / "README.md").read_text()
    rows = {}
    for line in readme.splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) > 2 and cells[1].startswith("`") and cells[1].endswith("/`"):
            rows[cells[1].strip("`/")] = set(re.findall(r"`([a-z_0-9]+)`", " ".join(cells[2:])))
    for name, path in kernels.items():
        layer = layer_of(kernel_root, path)
        if name not in rows.get(layer, set()):
            report(path, f"is not listed in kernels/README.md's row for {layer}/")

    # plugin: headers by bare name
    plugin_files = {}
    for folder in PLUGIN_ALLOWED:
        for path in (plugin_root / folder).glob("*.h"):
            plugin_files[path.name] = folder
    for path in sorted(plugin_root.rglob("*")):
        if path.suffix not in (".h", ".cxx"):
            continue
        folder = path.parent.relative_to(plugin_root).as_posix()
        if folder not in PLUGIN_ALLOWED:
            report(path, "is not in a plugin folder (" + ", ".join(PLUGIN_ALLOWED) + ")")
            continue
        allowed = PLUGIN_ALLOWED[folder] | {folder}
        for name in INCLUDE.findall(path.read_text()):
            if name.startswith("gpumesh/"):
                included = "core"
                if not (source / "core" / name).is_file():
                    report(path, f'includes "{name}", which does not exist')
                    continue
            elif name in plugin_files:
                included = plugin_files[name]
            else:
                continue  # VTK, the standard library, generated module headers
            if included not in allowed:
                report(path, f'({folder}) includes "{name}" ({included}), which it may not')

    for problem in problems:
        print(problem)
    checked = "core/gpumesh, kernels and plugin"
    if problems:
        print(f"{len(problems)} problem(s) with the layers of {checked}")
        return 1
    print(f"layers hold: {checked} include only the folders below them")
    return 0


if __name__ == "__main__":
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    sys.exit(main(root.resolve()))
