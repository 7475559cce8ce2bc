"""Checks a faultsweep replay of Slurm accounting dumps against the dumps and the test's record.

usage: slurm_replay_check.py DUMP_DIR REPLAY_H5 START_UNIX_S READ_LOG

DUMP_DIR holds what slurm_accounting.sh wrote (record.tsv, sacct_jobs.txt,
sacctmgr_events.txt); REPLAY_H5 is a cluster run of sacct_jobs.txt (size = "cpus") under the
events whose reason is "Not responding" (format = "slurm"), both with t = 0 at START_UNIX_S,
recording its jobs and failures; READ_LOG is what the run printed (its read summaries). Prints one "ok - ..." or "FAIL - ..." line per check:
  - the read summary keeps as many jobs as ran and names the ones dropped;
  - the replay holds exactly the jobs that ran (started and ended in sacct: kept), not the ones
    still pending or running at the dump or cancelled before they started (dropped);
  - each kept job's submit time, run time (Elapsed), time limit and CPUs are Slurm's;
  - the one recorded failure is the node's "Not responding" outage, from its start to its end
    as sacctmgr has them and as the test did them.
"""

import csv
import sys

import h5py

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from slurm_accounting_check import SLACK_S, Checks, epoch, read_psv, seconds  # noqa: E402


def table(h5, name):
    rows = h5[f"records/point_0/replica_0/{name}"][()]
    return [dict(zip(rows.dtype.names, r)) for r in rows]


def main(argv):
    dump, replay, start, log = argv[1], argv[2], int(argv[3]), argv[4]
    with open(f"{dump}/record.tsv", newline="") as f:
        outages = [r for r in csv.DictReader(f, delimiter="\t") if r["what"] == "outage"]
    rows = read_psv(f"{dump}/sacct_jobs.txt")
    events = read_psv(f"{dump}/sacctmgr_events.txt")
    check = Checks()

    ran = {int(r["JobIDRaw"]): r for r in rows
           if epoch(r["Start"]) is not None and epoch(r["End"]) is not None}
    with h5py.File(replay, "r") as h5:
        jobs = {int(j["id"]): j for j in table(h5, "jobs")}
        failures = table(h5, "failures")
    dropped = sorted(int(r["JobIDRaw"]) for r in rows if int(r["JobIDRaw"]) not in ran)
    check(sorted(jobs) == sorted(ran),
          f"the replay has the {len(ran)} jobs that ran and not the {len(dropped)} that did not "
          f"({dropped})")
    with open(log) as f:
        read = [line.strip() for line in f if "read sacct_jobs.txt" in line]
    summary = read[0] if read else "(no read summary)"
    print(f"    | {summary}")
    check(f"{len(rows)} lines, {len(ran)} jobs kept" in summary,
          f"the read summary keeps the {len(ran)} jobs that ran of {len(rows)} lines")
    for jid in sorted(set(jobs) & set(ran)):
        j, r = jobs[jid], ran[jid]
        run = seconds(r["Elapsed"])
        limit = seconds(r["Timelimit"])
        got = (j["submit_s"], j["runtime_s"], j["estimate_s"], int(j["requested_size"]))
        want = (epoch(r["Submit"]) - start, run, max(limit, run), int(r["NCPUS"]))
        check(got == want,
              f"job {r['JobID']} ({r['JobName']}): submit, run time, estimate, CPUs {got} = "
              f"Slurm's {want}")

    down = [e for e in events if e["Reason"] == "Not responding"]
    check(len(down) == 1 and len(failures) == 1,
          f"one outage with reason \"Not responding\" in the dump ({len(down)}) and one failure "
          f"in the replay ({len(failures)})")
    if down and failures:
        e, f = down[0], failures[0]
        t0, t1 = epoch(e["TimeStart"]), epoch(e["TimeEnd"])
        # repair_s is when the node is back (simulated time), like time_s.
        check((f["time_s"], f["repair_s"], int(f["node"])) == (t0 - start, t1 - start, 0),
              f"the failure from {f['time_s']} s to {f['repair_s']} s on node {f['node']} is "
              f"sacctmgr's {e['TimeStart']} to {e['TimeEnd']} on {e['NodeName']}")
        did = [o for o in outages if o["name"] == "DOWN"]
        if did:
            check(abs(int(did[0]["t1"]) - t0) <= SLACK_S and abs(int(did[0]["t2"]) - t1) <= SLACK_S,
                  "and the outage the test made (scontrol down, then resume)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
