#!/usr/bin/env python3
"""Where a run's device waits for its host, from the command traces that GPUMESH_COMMAND_TRACE
makes a DeviceRun write (core/gpumesh/runtime/CommandTrace.h): per file, the run's length, the
time its device was busy (the union of the commands' device times), the largest gaps between
device commands with the commands on either side, the host time of allocations and of
transfers (a small transfer blocks until the queue is done), and the longest enqueues (on
NVIDIA's OpenCL the first command on a fresh buffer allocates it).

    summarize_command_trace.py [--gaps N] [--timeline] DIR/commands-*.tsv

--timeline prints every command: host begin and end, then device start and end, in
milliseconds from the run's first command (device times placed on the host's clock by the
earliest enqueue, so they are good to some tens of microseconds).
"""
import argparse
import csv
import signal
import sys


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for row in rows:
        for key in ("host_begin_us", "host_end_us"):
            row[key] = float(row[key])
        for key in ("queued_ns", "submitted_ns", "started_ns", "ended_ns"):
            row[key] = int(row[key])
    return rows


def on_host_clock(rows):
    """Microseconds to add to a device time (ns / 1000) to place it on the host's clock: a command
    is queued on the device no later than its enqueue returns on the host."""
    device = [r for r in rows if r["started_ns"] > 0]
    if not device:
        return None
    return min(r["host_end_us"] - r["queued_ns"] / 1000 for r in device)


def summarize(path, gaps_shown, timeline):
    rows = load(path)
    if not rows:
        print(f"{path}: empty")
        return
    offset = on_host_clock(rows)
    zero = rows[0]["host_begin_us"]
    end = max(r["host_end_us"] for r in rows)
    device = sorted((r for r in rows if r["started_ns"] > 0), key=lambda r: r["started_ns"])
    busy = 0.0
    gaps = []
    current = None
    previous = None
    for r in device:
        start = r["started_ns"] / 1000 + offset
        stop = r["ended_ns"] / 1000 + offset
        if current is None:
            gaps.append((start - zero, "(run start)", r["label"]))
            current = [start, stop]
        elif start > current[1]:
            busy += current[1] - current[0]
            gaps.append((start - current[1], previous["label"], r["label"]))
            current = [start, stop]
        else:
            current[1] = max(current[1], stop)
        previous = r
    if current is not None:
        busy += current[1] - current[0]
        gaps.append((end - current[1], previous["label"], "(run end)"))
    allocations = [r for r in rows if r["kind"] == "allocation"]
    new = [r for r in allocations if not r["label"].endswith(", kept)")]
    transfers = [r for r in rows if r["kind"] in ("upload", "download")]
    enqueues = [r for r in rows if r["kind"] == "kernel"]
    ms = lambda us: us / 1000
    print(f"{path}: run {ms(end - zero):.2f} ms, device busy {ms(busy):.2f} ms, "
          f"{len(device)} device commands; allocations {len(allocations)} ({len(new)} new) "
          f"{ms(sum(r['host_end_us'] - r['host_begin_us'] for r in allocations)):.2f} ms")
    for gap, before, after in sorted(gaps, reverse=True)[:gaps_shown]:
        print(f"  gap {ms(gap):7.2f} ms after [{before}] before [{after}]")
    seen = set()
    longest = []
    for r in transfers + enqueues:
        key = (r["label"], r["host_begin_us"])  # a staged transfer's chunks share their begin
        if key not in seen:
            seen.add(key)
            longest.append((r["host_end_us"] - r["host_begin_us"], r["kind"], r["label"]))
    for took, kind, label in sorted(longest, reverse=True)[:gaps_shown]:
        print(f"  {kind:8} {ms(took):7.2f} ms on the host: {label}")
    if timeline:
        print(f"  {'host from':>9} {'to':>8}   {'device from':>11} {'to':>8}  command")
        for r in rows:
            host = f"{ms(r['host_begin_us'] - zero):9.3f} {ms(r['host_end_us'] - zero):8.3f}"
            if r["started_ns"] > 0:
                on = f"{ms(r['started_ns'] / 1000 + offset - zero):11.3f} {ms(r['ended_ns'] / 1000 + offset - zero):8.3f}"
            else:
                on = " " * 20
            print(f"  {host}   {on}  {r['kind']}: {r['label']}")


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: stop quietly
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("traces", nargs="+")
    parser.add_argument("--gaps", type=int, default=8, help="how many gaps and enqueues to show")
    parser.add_argument("--timeline", action="store_true", help="print every command")
    options = parser.parse_args()
    for path in options.traces:
        summarize(path, options.gaps, options.timeline)
    return 0


if __name__ == "__main__":
    sys.exit(main())
