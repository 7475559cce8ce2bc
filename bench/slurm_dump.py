#!/usr/bin/env python3
"""Synthetic inputs for the reader benchmark (bench/README.md).

    slurm_dump.py sacct LINES OUT   an `sacct --parsable2` dump of LINES lines: jobs with their
                                    .batch and .extern steps (three lines a job, as sacct prints
                                    them), states, array elements and limits mixed as on a
                                    real cluster
    slurm_dump.py swf LINES OUT     an SWF log of LINES jobs over the same times and sizes

Deterministic (a fixed seed): the same arguments give the same bytes.
"""
import os
import random
import sys

# Slurm's text forms of times and durations, as the test fixtures write them.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "data", "slurm"))
from make_example import hms, stamp  # noqa: E402

HEADER = ("JobID|JobIDRaw|Submit|Eligible|Start|End|Elapsed|Timelimit|NNodes|NCPUS|"
          "AllocTRES|State|Partition")
STATES = ["COMPLETED"] * 80 + ["FAILED"] * 8 + ["TIMEOUT"] * 5 + ["CANCELLED by 1000"] * 4 + [
    "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED"]
T0 = 1793606400  # 2026-11-02T08:00:00 UTC


def jobs(n):
    rng = random.Random(1)
    t = T0
    for i in range(n):
        t += rng.randint(0, 60)
        wait = rng.randint(0, 600)
        run = rng.randint(1, 86400)
        limit = rng.choice([3600, 7200, 86400, 2 * 86400, None])
        nodes = rng.choice([1, 1, 1, 2, 4, 8, 16, 32])
        yield i, t, wait, run, limit, nodes, rng.choice(STATES)


def sacct(lines, out):
    out.write(HEADER + "\n")
    for i, sub, wait, run, limit, nodes, state in jobs(lines // 3):
        jid = str(1000 + i) if i % 10 else f"{1000 + i - 1}_{i % 7}"
        raw = str(1000 + i)
        start, end = sub + wait, sub + wait + run
        lim = hms(limit) if limit else "UNLIMITED"
        tres = f"billing={nodes * 48},cpu={nodes * 48},mem={nodes * 192}G,node={nodes}"
        s, e, el = stamp(start), stamp(end), hms(run)
        out.write(f"{jid}|{raw}|{stamp(sub)}|{stamp(sub)}|{s}|{e}|{el}|{lim}|{nodes}|"
                  f"{nodes * 48}|{tres}|{state}|batch\n")
        out.write(f"{jid}.batch|{raw}.batch|{s}|{s}|{s}|{e}|{el}||1|48|cpu=48,node=1|"
                  f"COMPLETED|\n")
        out.write(f"{jid}.extern|{raw}.extern|{s}|{s}|{s}|{e}|{el}||{nodes}|{nodes * 48}|"
                  f"{tres}|COMPLETED|\n")


def swf(lines, out):
    out.write("; MaxNodes: 1024\n; MaxProcs: 1024\n")
    for i, sub, wait, run, limit, nodes, state in jobs(lines):
        status = 1 if state == "COMPLETED" else 0
        out.write(f"{i + 1} {sub - T0} {wait} {run} {nodes} -1 -1 {nodes} {limit or -1} -1 "
                  f"{status} {i % 500} 1 -1 1 1 -1 -1\n")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("sacct", "swf"):
        sys.exit(__doc__)
    with open(sys.argv[3], "w", buffering=1 << 20) as f:
        (sacct if sys.argv[1] == "sacct" else swf)(int(sys.argv[2]), f)
