#!/usr/bin/env python3
"""Turns bench/run-server's raw rows into the Markdown report: medians over the rounds with [min-max], and each
workload's ratio against the ceiling measured in the same round (the house rule: ratios side by side)."""
import csv
import statistics
import sys
from collections import defaultdict


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def spread(values, fmt="{:.0f}"):
    values = sorted(values)
    return f"{fmt.format(statistics.median(values))} [{fmt.format(values[0])}–{fmt.format(values[-1])}]"


raw = rows(sys.argv[1])
ceilings = rows(sys.argv[2])

ceiling = {(c["mode"], c["round"], c["benchmark"]): float(c["per_second"]) for c in ceilings}
healthz = {(r["mode"], r["round"], r["connections"]): float(r["rps"]) for r in raw if r["workload"] == "healthz"}

TARGETS = {"unique": ("storage unique", 0.8), "replay": ("HTTP /healthz", 0.5)}

for mode in dict.fromkeys(r["mode"] for r in raw):
    mode_rows = [r for r in raw if r["mode"] == mode]
    loads = [float(r["load1"]) for r in mode_rows]
    print(f"### --synchronous {mode}\n")
    print(f"Load average (1 min) during these runs: {min(loads):.2f}–{max(loads):.2f}.\n")
    print("| storage ceiling (in-process, 1 thread) | per second | CPU µs per call |")
    print("|---|---:|---:|")
    for bench in ("unique", "replay"):
        cs = [c for c in ceilings if c["mode"] == mode and c["benchmark"] == bench]
        print(f"| placeOrder, {bench} keys | {spread([float(c['per_second']) for c in cs])} | "
              f"{spread([float(c['cpu_us']) for c in cs], '{:.0f}')} |")
    print()
    print("| workload | conn. | req/s | p50 ms | p99 ms | non-2xx | checks | ratio (against) | target |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---|")
    groups = defaultdict(list)
    for r in mode_rows:
        groups[(r["workload"], int(r["connections"]))].append(r)
    order = ["healthz", "unique", "replay", "storm", "mixed"]
    for (workload, conns), rs in sorted(groups.items(), key=lambda g: (order.index(g[0][0]), g[0][1])):
        ratios = []
        against = ""
        for r in rs:
            if workload == "unique":
                base, against = ceiling.get((mode, r["round"], "unique")), "storage unique"
            elif workload == "healthz":
                base, against = None, ""
            else:
                base, against = healthz.get((mode, r["round"], r["connections"])), "/healthz"
            if base:
                ratios.append(float(r["rps"]) / base)
        ratio = f"{spread(ratios, '{:.2f}')} ({against})" if ratios else "—"
        target = ""
        if workload in TARGETS and ratios:
            need = TARGETS[workload][1]
            target = f"≥ {need}: " + ("met" if statistics.median(ratios) >= need else "**missed**")
        checks = sum(1 for r in rs if r["check"] == "ok")
        non2xx = sum(int(r["non2xx"]) for r in rs)
        print(f"| {workload} | {conns} | {spread([float(r['rps']) for r in rs])} | "
              f"{statistics.median(float(r['p50_ms']) for r in rs):.2f} | "
              f"{spread([float(r['p99_ms']) for r in rs], '{:.1f}')} | {non2xx} | {checks}/{len(rs)} ok | "
              f"{ratio} | {target} |")
    print()
