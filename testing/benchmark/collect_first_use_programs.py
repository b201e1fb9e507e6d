#!/usr/bin/env python3
"""The programs each GPUMesh filter asks for on its first use, per kind of device and precision:
the table of plugin/Filters/vtkGPUMeshFirstUsePrograms.cxx, which a truly cold first use
(nothing remembered in GPUMesh's cache folder) builds concurrently before the filter runs.

Runs gpumesh-filter-benchmark once per case and point type, each in a fresh process with an
empty cache folder of its own (GPUMESH_CACHE_DIR), reads the list the filter remembered there
(the notes DeviceContext::rememberProgramsNeededBy writes: a "# <device kind> <user>" line, then
a "program<TAB>options" line per program), and prints the union per (device kind, user) as the table's rows:

    python3 testing/benchmark/collect_first_use_programs.py --binary build/bin/gpumesh-filter-benchmark \\
        --device cpu [--out DIR]                      # here: the rows of kind "cpu"
    bash .carry/filterbench/run.sh first-use --device NVIDIA   # the GPU machine: kind "gpu"

Paste the rows between the markers of vtkGPUMeshFirstUsePrograms.cxx, replacing those of that
kind. A filter whose rows are stale only builds what is missing one program after the other, as
before (its field data ProgramsBuiltOnDemand counts them); TestFirstUsePrograms checks the cpu
rows on PoCL.
"""
import argparse
import collections
import itertools
import os
import subprocess
import sys
import tempfile

# One case per filter class and mesh kind it runs on, as a user first applies it.
CASES = [
    "gpu-cell-reduction@triangles", "gpu-cell-reduction@tetrahedra",
    "gpu-neighbor-distance@triangles", "gpu-neighbor-distance@tetrahedra",
    "gpu-vertex-smoothing@triangles", "gpu-vertex-smoothing@tetrahedra",
    "gpu-refinement-marked@triangles", "gpu-refinement-marked@tetrahedra", "gpu-refinement-all@triangles",
    "gpu-kernel-laplacian@triangles",
    "gpu-mesh-quality@triangles", "gpu-mesh-quality@tetrahedra",
    "gpu-extract-surface@tetrahedra", "gpu-extract-edges@triangles",
    "gpu-decimation@triangles",
]


def read_notes(folder):
    """{(kind, user): set of (program, options)} from the notes in a cache folder (each after
    ProgramBinaryCache's header: the text starts at its "# <kind> <user>" line)."""
    found = collections.defaultdict(set)
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".note"):
            continue
        with open(os.path.join(folder, name), "rb") as note:
            data = note.read()
        starts = [data.find(b"# " + kind.encode() + b" ") for kind in ("cpu", "gpu", "accelerator")]
        starts = [at for at in starts if at >= 0]
        if not starts:
            continue
        lines = data[min(starts):].decode("utf-8", errors="replace").splitlines()
        kind, _, user = lines[0][2:].partition(" ")
        for line in lines[1:]:
            program, tab, options = line.partition("\t")
            if tab:
                found[(kind, user)].add((program, options))
    return found


def cpp_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="gpumesh-filter-benchmark")
    parser.add_argument("--device", default="cpu", help="the filters' Device (cpu, NVIDIA, ...)")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--point-types", default="float,double")
    parser.add_argument("--cells", default="2000,20000",
                        help="cells of each generated mesh, a comma-separated list: the union of their needs "
                             "(a larger mesh may need a program a smaller one does not: a second level of a scan)")
    parser.add_argument("--out", help="where the cache folders stay (default: a temporary folder)")
    args = parser.parse_args()

    out = args.out or tempfile.mkdtemp(prefix="gpumesh-first-use-")
    union = collections.defaultdict(set)
    runs = itertools.product(args.point_types.split(","), args.cases.split(","), args.cells.split(","))
    for point_type, case, cells in runs:
        folder = os.path.join(out, point_type + "-" + case.replace("@", "-") + "-" + cells)
        os.makedirs(folder, exist_ok=True)
        environment = dict(os.environ, GPUMESH_CACHE_DIR=folder, GPUMESH_PROGRAM_CACHE="1")
        filter_name, _, mesh = case.partition("@")
        command = [args.binary, "--filter", filter_name, "--mesh", mesh, "--device", args.device,
                   "--point-type", point_type, "--cells", cells, "--warmup", "none"]
        result = subprocess.run(command, env=environment, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            sys.exit(f"{' '.join(command)} failed:\n{result.stderr}")
        for key, programs in read_notes(folder).items():
            union[key] |= programs
    print("  // Collected by testing/benchmark/collect_first_use_programs.py --device " + args.device)
    for (kind, user) in sorted(union):
        for program, options in sorted(union[(kind, user)]):
            print(f"  {{ {cpp_string(kind)}, {cpp_string(user)}, {cpp_string(program)}, {cpp_string(options)} }},")


if __name__ == "__main__":
    main()
