#!/usr/bin/env python3
"""Turns bench/run-server's raw rows into the Markdown report: medians over the rounds with [min-max], and each
workload's ratio against the ceiling measured in the same round (the house rule: ratios side by side).

Unique keys are compared with the storage ceiling measured right before and right after that very wrk run (their
mean); replay, storm and mixed with GET /healthz at the same connection count in the same round."""
import csv
import statistics
import sys
from collections import defaultdict


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def spread(values, fmt="{:.0f}"):
    values = sorted(values)
    if not values:
        return "—"
    return f"{fmt.format(statistics.median(values))} [{fmt.format(values[0])}–{fmt.format(values[-1])}]"


raw = rows(sys.argv[1])
ceilings = rows(sys.argv[2])

storage = defaultdict(list)  # (mode, round, connections, benchmark) -> [per second, ...]
for c in ceilings:
    storage[(c["mode"], c["round"], c.get("connections", "-"), c["benchmark"])].append(float(c["per_second"]))
healthz = {(r["mode"], r["round"], r["connections"]): float(r["rps"]) for r in raw if r["workload"] == "healthz"}

TARGETS = {"unique": 0.8, "replay": 0.5}
ORDER = ["healthz", "unique", "replay", "storm", "mixed"]


def base_of(r):
    """The ceiling this row is judged against, measured in the same round."""
    key = (r["mode"], r["round"])
    if r["workload"] == "healthz":
        return None
    if r["workload"] == "unique":
        values = storage.get(key + (r["connections"], "unique")) or storage.get(key + ("-", "unique"))
        return statistics.mean(values) if values else None
    return healthz.get(key + (r["connections"],))


for mode in dict.fromkeys(r["mode"] for r in raw):
    mode_rows = [r for r in raw if r["mode"] == mode]
    loads = [float(r["load1"]) for r in mode_rows]
    print(f"### --synchronous {mode}\n")
    print(f"Load average (1 min) at the start of these wrk runs: {min(loads):.2f}–{max(loads):.2f} (2 cores).\n")
    print("| storage ceiling (in-process, 1 thread, every measurement of this mode) | per second | CPU µs per call |")
    print("|---|---:|---:|")
    for bench in ("unique", "replay"):
        cs = [c for c in ceilings if c["mode"] == mode and c["benchmark"] == bench]
        print(f"| placeOrder, {bench} keys ({len(cs)} measurements) | "
              f"{spread([float(c['per_second']) for c in cs])} | {spread([float(c['cpu_us']) for c in cs])} |")
    print()
    print("| workload | conn. | req/s | p50 ms | p99 ms | non-2xx | socket errors | checks | server CPU µs/req "
          "(user+sys) | ceiling req/s | ratio | target |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|")
    groups = defaultdict(list)
    for r in mode_rows:
        groups[(r["workload"], int(r["connections"]))].append(r)
    for (workload, conns), rs in sorted(groups.items(), key=lambda g: (ORDER.index(g[0][0]), g[0][1])):
        bases = [base_of(r) for r in rs]
        ratios = [float(r["rps"]) / b for r, b in zip(rs, bases) if b]
        against = {"healthz": "", "unique": "storage"}.get(workload, "/healthz")
        target = ""
        if workload in TARGETS and ratios:
            need = TARGETS[workload]
            target = f"≥ {need}: " + ("met" if statistics.median(ratios) >= need else "**missed**")
        checks = sum(1 for r in rs if r["check"] == "ok")
        if rs[0].get("server_user_us_per_req") is not None:
            user = statistics.median(float(r["server_user_us_per_req"]) for r in rs)
            system = statistics.median(float(r["server_sys_us_per_req"]) for r in rs)
            cpu = f"{user + system:.0f} ({user:.0f}+{system:.0f})"
        else:
            cpu = "—"
        print(f"| {workload} | {conns} | {spread([float(r['rps']) for r in rs])} | "
              f"{statistics.median(float(r['p50_ms']) for r in rs):.2f} | "
              f"{spread([float(r['p99_ms']) for r in rs], '{:.1f}')} | {sum(int(r['non2xx']) for r in rs)} | "
              f"{sum(int(r['socket_errors']) for r in rs)} | {checks}/{len(rs)} ok | {cpu} | "
              f"{spread([b for b in bases if b]) + ' ' + against if ratios else '—'} | "
              f"{spread(ratios, '{:.2f}')} | {target} |")
    print()
