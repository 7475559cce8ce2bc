#!/usr/bin/env python3
"""Writes example_jobs.txt.gz and example_events.txt: a synthetic month of a 32-node Slurm
cluster (cn[001-032]) in exactly the text `sacct --parsable2` and `sacctmgr --parsable2 show
event` print, for docs/your-cluster.md. Synthetic, not measured: arrivals, run times, sizes,
limits, end states, node outages and their reasons are drawn from a fixed seed.

    python3 tests/data/slurm/make_example.py     (rewrites both files, byte for byte the same)
"""
import gzip
import math
import os
import random
import time

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1790812800  # 2026-10-01T00:00:00 UTC
DAYS = 30
NODES = 32
rng = random.Random(20261001)


def stamp(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t))


def hms(s):
    d, s = divmod(int(s), 86400)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return f"{d}-{h:02}:{m:02}:{s:02}" if d else f"{h:02}:{m:02}:{s:02}"


def jobs():
    out = ["JobID|JobIDRaw|Submit|Eligible|Start|End|Elapsed|Timelimit|NNodes|NCPUS|AllocTRES|"
           "State|Partition"]
    t, jid, free_at = T0, 5000, T0
    while True:
        t += rng.expovariate(1 / 2400)
        t = int(t)
        if t >= T0 + DAYS * 86400:
            break
        jid += 1
        nodes = rng.choice([1, 1, 1, 2, 2, 4, 4, 8, 16])
        limit = rng.choice([3600, 4 * 3600, 12 * 3600, 86400, 2 * 86400])
        run = min(limit + rng.randint(0, 60), int(rng.lognormvariate(math.log(limit / 4), 1.0)) + 1)
        state = "COMPLETED"
        u = rng.random()
        if run >= limit:
            state = "TIMEOUT"
        elif u < 0.08:
            state = "FAILED"
        elif u < 0.11:
            state = "CANCELLED by 1001"
        elif u < 0.12:
            state = "OUT_OF_MEMORY"
        part = "batch" if rng.random() < 0.9 else "debug"
        wait = rng.randint(0, 1800)
        start, end = t + wait, t + wait + run
        cpus = nodes * 64
        tres = f"billing={cpus},cpu={cpus},mem={nodes * 250}G,node={nodes}"
        if state.startswith("CANCELLED") and rng.random() < 0.4:  # cancelled while pending
            out.append(f"{jid}|{jid}|{stamp(t)}|{stamp(t)}|Unknown|{stamp(start)}|00:00:00|"
                       f"{hms(limit)}|{nodes}|{cpus}||{state}|{part}")
            continue
        if end > T0 + DAYS * 86400:  # still running when the month was dumped
            out.append(f"{jid}|{jid}|{stamp(t)}|{stamp(t)}|{stamp(start)}|Unknown|"
                       f"{hms(T0 + DAYS * 86400 - start)}|{hms(limit)}|{nodes}|{cpus}|{tres}|"
                       f"RUNNING|{part}")
            continue
        s, e, el = stamp(start), stamp(end), hms(run)
        out.append(f"{jid}|{jid}|{stamp(t)}|{stamp(t)}|{s}|{e}|{el}|{hms(limit)}|{nodes}|{cpus}|"
                   f"{tres}|{state}|{part}")
        out.append(f"{jid}.batch|{jid}.batch|{s}|{s}|{s}|{e}|{el}||1|64|cpu=64,mem=250G,node=1|"
                   f"{'COMPLETED' if state == 'COMPLETED' else 'FAILED'}|")
        out.append(f"{jid}.extern|{jid}.extern|{s}|{s}|{s}|{e}|{el}||{nodes}|{cpus}|{tres}|"
                   f"COMPLETED|")
    return out


def events():
    rows = []
    reasons = ["Not responding"] * 14 + ["Kill task failed"] * 3 + ["NHC: ECC memory errors"] * 2
    for n in range(1, NODES + 1):
        t = T0 + rng.weibullvariate(6 * 86400, 0.7) * 0.3
        while t < T0 + DAYS * 86400:
            down = max(120, int(rng.lognormvariate(math.log(3600), 1.0)))
            end = t + down
            reason = rng.choice(reasons)
            state = "DOWN*" if reason == "Not responding" else "DOWN+DRAIN"
            rows.append((int(t), f"cn{n:03}", int(end), state, reason, "slurm(64030)"))
            t = end + rng.weibullvariate(6 * 86400, 0.7)
    # A rack's planned firmware update (drained, not failed), and a node still down at the dump.
    m = T0 + 12 * 86400 + 8 * 3600
    rows.append((m, "cn[001-016]", m + 4 * 3600, "IDLE+DRAIN", "maintenance: firmware update",
                 "root(0)"))
    rows.append((T0 + DAYS * 86400 - 5 * 3600, "cn031", None, "DOWN*", "Not responding",
                 "slurm(64030)"))
    rows.sort()
    out = ["Cluster|NodeName|TimeStart|TimeEnd|State|Reason|User",
           f"example||{stamp(T0 - 86400)}|Unknown||Cluster Registered TRES|"]
    for t, node, end, state, reason, user in rows:
        if end is not None and end > T0 + DAYS * 86400:
            end = None  # still open when the month was dumped
        out.append(f"example|{node}|{stamp(t)}|{stamp(end) if end else 'Unknown'}|{state}|"
                   f"{reason}|{user}")
    return out


if __name__ == "__main__":
    with open(os.path.join(HERE, "example_jobs.txt.gz"), "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
            f.write(("\n".join(jobs()) + "\n").encode())
    with open(os.path.join(HERE, "example_events.txt"), "w") as f:
        f.write("\n".join(events()) + "\n")
