"""The first Apply of each filter in a fresh pvpython, with the OpenCL driver's program cache
and GPUMesh's binary cache (docs/guide.md) cold or warm: what a user waits for when opening a
session.

Each run is a fresh pvpython that loads the plugin, makes a small triangle mesh, then times
the first Update of one filter (wall time, with the filter's ProgramBuildTimeMs, ProgramsBuilt
and ProgramsFromBinaryCache). Cases:

    cold        the driver's cache (POCL_CACHE_DIR: a new empty folder) and ours empty
    ours-warm   the driver's cache empty, ours warm (filled by an earlier session)
    both-warm   both warm
    off-cold    ours turned off (GPUMESH_PROGRAM_CACHE=0), the driver's cache empty: as before
                the binary cache existed
    off-warm    ours off, the driver's cache warm

Only PoCL's cache folder can be pointed elsewhere; on another driver the "driver cache empty"
cases are only cold when its own cache is cleared by hand (NVIDIA: ~/.nv/ComputeCache, or
CUDA_CACHE_DISABLE=1). Runs of the cases alternate. Prints the median [min, max] per filter
and case and the rows of docs/benchmarks.md:

    python3 testing/benchmark/bench_cold_start.py [--triangles 20000] [--runs 5]
        [--filters GPUCellReduction,...] [--cases cold,ours-warm,both-warm,off-cold,off-warm]
        [--out DIR] [--pvpython pvpython]

One run (what the driver starts; prints one JSON record):

    pvpython testing/benchmark/bench_cold_start.py run --filter NAME --triangles N
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FILTERS = {
    "GPUCellReduction": {},
    "GPUNeighborDistance": {},
    "GPUVertexSmoothing": {},
    "GPULongestEdgeRefinement": {"RefineAll": 1},
    "GPUMeshKernel": {"Kernel": "result = length(x);"},
}
CASES = ("cold", "ours-warm", "both-warm", "off-cold", "off-warm")


def run_once(name, triangles):
    from paraview import simple
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
    import gpumesh_plugin
    from bench_refinement_cell_data import triangle_grid
    gpumesh_plugin.load(vars(simple))

    mesh = triangle_grid(triangles)
    empty = simple.TrivialProducer()
    empty.GetClientSideObject().SetOutput(mesh.NewInstance())
    # The VTK object behind the proxy: only the filter runs, no ParaView data information.
    algorithm = getattr(simple, name)(Input=empty, **FILTERS[name]).GetClientSideObject()
    start = time.perf_counter()
    algorithm.SetInputData(mesh)
    algorithm.Update()
    wall_ms = 1000.0 * (time.perf_counter() - start)
    fields = algorithm.GetOutput().GetFieldData()
    if not fields.GetArray("ProgramsBuilt"):
        raise SystemExit("%s failed (see the error above)" % name)
    print(json.dumps({
        "filter": name, "triangles": mesh.GetNumberOfCells(), "wall_ms": wall_ms,
        "program_ms": fields.GetArray("ProgramBuildTimeMs").GetValue(0),
        "built": int(fields.GetArray("ProgramsBuilt").GetValue(0)),
        "loaded": int(fields.GetArray("ProgramsFromBinaryCache").GetValue(0)),
        "kernel_ms": fields.GetArray("KernelTimeMs").GetValue(0),
        "device": fields.GetAbstractArray("Device").GetValue(0)}))


def summary(values):
    return "%.0f [%.0f, %.0f]" % (statistics.median(values), min(values), max(values))


def one_run(options, name, pocl, ours, enabled):
    environment = dict(os.environ, POCL_CACHE_DIR=pocl, GPUMESH_CACHE_DIR=ours,
                       GPUMESH_PROGRAM_CACHE="1" if enabled else "0")
    finished = subprocess.run([options.pvpython, os.path.abspath(__file__), "run", "--filter", name,
                               "--triangles", str(options.triangles)], env=environment, capture_output=True, text=True)
    lines = [line for line in finished.stdout.splitlines() if line.startswith("{")]
    if finished.returncode != 0 or not lines:
        sys.stderr.write(finished.stdout + finished.stderr)
        raise SystemExit("a run of %s failed" % name)
    return json.loads(lines[-1])


def drive(options):
    filters = options.filters.split(",")
    cases = options.cases.split(",")
    scratch = tempfile.mkdtemp(prefix="gpumesh-cold-start-")
    records = []
    raw = None
    if options.out:
        os.makedirs(options.out, exist_ok=True)
        raw = open(os.path.join(options.out, "runs.jsonl"), "w")
    try:
        for name in filters:
            warm_pocl = os.path.join(scratch, name, "pocl-warm")
            warm_ours = os.path.join(scratch, name, "ours-warm")
            # The warm caches: two sessions of this filter fill both (the second one the
            # driver's entries for programs made from our binaries).
            for _ in range(2):
                one_run(options, name, warm_pocl, warm_ours, True)
            for round_ in range(options.runs):
                for case in cases:
                    fresh = os.path.join(scratch, name, "%s-%d" % (case, round_))
                    pocl = warm_pocl if case in ("both-warm", "off-warm") else os.path.join(fresh, "pocl")
                    ours = warm_ours if case in ("ours-warm", "both-warm") else os.path.join(fresh, "ours")
                    record = one_run(options, name, pocl, ours, not case.startswith("off"))
                    record.update(case=case, run=round_ + 1, load_average=os.getloadavg()[0])
                    records.append(record)
                    if raw:
                        raw.write(json.dumps(record) + "\n")
                        raw.flush()
                    print("%s, %s, run %d: wall %.0f ms, programs %.0f ms (%d built, %d from the cache)" % (
                        name, case, round_ + 1, record["wall_ms"], record["program_ms"], record["built"],
                        record["loaded"]), flush=True)
                    shutil.rmtree(fresh, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    table = ["| Filter | Case | First Apply wall ms, median [min, max] | ProgramBuildTimeMs, median [min, max] | "
             "Built / from cache | Runs |", "| --- | --- | ---: | ---: | ---: | ---: |"]
    for name in filters:
        for case in cases:
            mine = [r for r in records if r["filter"] == name and r["case"] == case]
            table.append("| %s | %s | %s | %s | %d / %d | %d |" % (
                name, case, summary([r["wall_ms"] for r in mine]), summary([r["program_ms"] for r in mine]),
                statistics.median(r["built"] for r in mine), statistics.median(r["loaded"] for r in mine), len(mine)))
    heading = "First Apply in a fresh pvpython, %d triangles, on %s" % (records[0]["triangles"], records[0]["device"])
    print("\n" + heading + "\n\n" + "\n".join(table))
    if options.out:
        raw.close()
        with open(os.path.join(options.out, "summary.md"), "w") as out:
            out.write(heading + "\n\n" + "\n".join(table) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", choices=["run"], help="one run (started by the driver)")
    parser.add_argument("--filter", choices=sorted(FILTERS))
    parser.add_argument("--filters", default=",".join(FILTERS))
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--triangles", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", help="folder for runs.jsonl and summary.md")
    parser.add_argument("--pvpython", default="pvpython")
    options = parser.parse_args()
    if options.command == "run":
        run_once(options.filter, options.triangles)
    else:
        drive(options)


if __name__ == "__main__":
    main()
