#!/usr/bin/env bash
# Runs gpumesh-mpi-benchmark on 1 process and on more, for each filter, and checks that every
# run's checksum equals the 1-process run's (counts exactly, sums within 1e-6 relative), and
# that every run's closed form holds (the generated mesh's total area, and counts where fixed:
# the only check of a run without a 1-process one, such as a billion triangles on 4 GPUs):
#
#   run_mpi_benchmarks.sh --binary PATH [--triangles T | --tetrahedra T] [--runs R] [--processes "1 2"]
#       [--filters "cell-reduction neighbor-distance vertex-smoothing mesh-kernel refinement-marked refinement-all"]
#       [--point-type float|double] --out DIR [--mpirun "mpirun --allow-run-as-root --bind-to none"]
#       [--reexecute 1] [--phases 1]
#
# Every process count is launched by the same --mpirun command, so they are bound alike: the
# default, --bind-to none, leaves every rank free on every core (Open MPI would otherwise pin 1
# or 2 ranks to one core each and leave 4 unbound). The command is written into the results.
#
# --reexecute 1: every timed run re-executes the warm-up's filter on the same input (as after a
# property change in ParaView), so the filters reuse their ghosted piece; without it every run
# is a new filter on a new input (a time step) and builds it.
#
# --phases 1: every line also holds each process's time per phase marked in vtkTimerLog.
#
# Writes DIR/mpi-benchmarks.jsonl (one line per timed run; --out is required unless $OUT is set,
# then DIR defaults to $OUT/mpi-benchmarks) and prints the median wall time of each filter and
# process count. Exits 1 when a checksum differs or a run fails.
set -euo pipefail

binary= mesh=triangles cells=1000000 runs=3 processes="1 2" point_type=float out=${OUT:+$OUT/mpi-benchmarks}
reexecute=() phases=()
filters="cell-reduction neighbor-distance vertex-smoothing mesh-kernel refinement-marked refinement-all"
mpirun_command="mpirun --allow-run-as-root --bind-to none"
while [[ $# -gt 0 ]]; do
  case $1 in
    --binary) binary=$2 ;;
    --triangles) mesh=triangles cells=$2 ;;
    --tetrahedra) mesh=tetrahedra cells=$2 ;;
    --runs) runs=$2 ;;
    --processes) processes=$2 ;;
    --filters) filters=$2 ;;
    --point-type) point_type=$2 ;;
    --out) out=$2 ;;
    --mpirun) mpirun_command=$2 ;;
    --reexecute) [[ $2 == 1 ]] && reexecute=(--reexecute) ;;
    --phases) [[ $2 == 1 ]] && phases=(--phases) ;;
    *) echo "run_mpi_benchmarks.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
[[ -x $binary ]] || { echo "run_mpi_benchmarks.sh: --binary $binary is not an executable" >&2; exit 2; }
[[ -n $out ]] || { echo "run_mpi_benchmarks.sh: --out DIR is required (or set OUT)" >&2; exit 2; }
mkdir -p "$out"
results=$out/mpi-benchmarks.jsonl
: > "$results"
echo "# launched with: $mpirun_command -np N" > "$out/launcher.txt"

for filter in $filters; do
  for np in $processes; do
    echo "== $filter, $np process(es), $cells $mesh" >&2
    # shellcheck disable=SC2086 # the mpirun command is words on purpose
    $mpirun_command -np "$np" "$binary" --filter "$filter" "--$mesh" "$cells" --runs "$runs" \
      --point-type "$point_type" "${reexecute[@]}" "${phases[@]}" | tee -a "$results"
  done
done

python3 - "$results" <<'EOF'
import json, statistics, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
groups = {}
for line in lines:
    groups.setdefault((line["filter"], line["processes"]), []).append(line)
failures = 0
print("| filter | processes | cells | wall ms (median) | kernel ms max | host ms max | halo bytes sum | checksum count | checksum sum | devices |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for (name, np), runs in sorted(groups.items()):
    med = lambda key: statistics.median(r[key] for r in runs)
    first = runs[0]
    print(f"| {name} | {np} | {first['cells']} {first['mesh']} | {med('wall_ms'):.1f} ({len(runs)} runs, "
          f"{min(r['wall_ms'] for r in runs):.1f}-{max(r['wall_ms'] for r in runs):.1f}) | "
          f"{med('kernel_ms_max'):.1f} | {med('host_ms_max'):.1f} | {med('halo_bytes_sum'):.0f} | "
          f"{first['checksum_count']} | {first['checksum_sum']:.12g} | {'; '.join(first['devices'])} |")
for name in sorted({n for n, _ in groups}):
    serial = groups.get((name, 1))
    closed = [r for (other, _), runs in groups.items() if other == name for r in runs]
    for r in closed:
        form = r.get("closed_form")
        if form is not None and not form["ok"]:
            print(f"CLOSED FORM {name} on {r['processes']} processes, run {r['run']}: {form}", file=sys.stderr)
            failures += 1
    if not serial:
        # Too large for one process: the closed forms are the check, where the filter has one.
        if any(r.get("closed_form") is None for r in closed):
            print(f"{name}: no 1-process run to compare with", file=sys.stderr); failures += 1
        continue
    count, total = serial[0]["checksum_count"], serial[0]["checksum_sum"]
    for (other, np), runs in groups.items():
        if other != name:
            continue
        for r in runs:
            if r["checksum_count"] != count or abs(r["checksum_sum"] - total) > 1e-6 * max(abs(total), 1e-300):
                print(f"MISMATCH {name} on {np} processes, run {r['run']}: count {r['checksum_count']} "
                      f"sum {r['checksum_sum']!r} against 1 process: {count} {total!r}", file=sys.stderr)
                failures += 1
print(f"checksums: {'all equal to the 1-process runs and the closed forms' if not failures else str(failures) + ' mismatches'}")
sys.exit(1 if failures else 0)
EOF
