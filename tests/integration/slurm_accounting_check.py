"""Checks the dumps of slurm_accounting.sh against the test's own record of what it did.

usage: slurm_accounting_check.py RECORD DUMP_DIR [--ready]

RECORD is the test's tab-separated record (one line per job it submitted, one per outage);
DUMP_DIR holds sacct_jobs.txt (sacct -P -X), sacct_steps.txt (sacct -P) and
sacctmgr_events.txt (sacctmgr -P show event). Prints one "ok - ..." or "FAIL - ..." line per
check (the exit code is 0 unless the checker itself fails). With --ready it only tells whether the accounting records are complete yet (every job in
a state it can end in, both outages closed): exit 0 if so, else 1 with what is missing.
"""

import csv
import datetime as dt
import sys

FINAL = {"COMPLETED", "FAILED", "TIMEOUT", "NODE_FAIL", "CANCELLED"}
SLACK_S = 3  # sacct has whole seconds; the test's clock reads bracket each action
# How much longer than its sleeps a completed job may run: job launch and srun steps take
# seconds on a loaded machine.
OVERHEAD_S = 10


def read_psv(path):
    with open(path, newline="") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    header = lines[0].split("|")
    return [dict(zip(header, line.split("|"))) for line in lines[1:]]


def epoch(text):
    """Seconds since 1970 of a time as sacct prints it in UTC; None for Unknown/None."""
    try:
        t = dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return None
    return int(t.replace(tzinfo=dt.timezone.utc).timestamp())


def seconds(text):
    """Seconds of [D-]HH:MM:SS (Elapsed, Timelimit)."""
    days, _, hms = text.rpartition("-")
    h, m, s = (int(x) for x in hms.split(":"))
    return int(days or 0) * 86400 + h * 3600 + m * 60 + s


def expected_rows(job, rows):
    """The -X rows of a recorded job: the job itself, or an array's elements."""
    if job["sleep"] == "4+k":
        return [r for r in rows if r["JobID"].startswith(job["jobid"] + "_")]
    return [r for r in rows if r["JobIDRaw"] == job["jobid"]]


def sleep_of(job, row):
    if job["sleep"] == "4+k":
        return 4 + int(row["JobID"].rpartition("_")[2])
    return int(job["sleep"]) if job["sleep"] else None


class Checks:
    def __init__(self):
        self.failed = 0

    def __call__(self, ok, what):
        print(("ok - " if ok else "FAIL - ") + what)
        self.failed += 0 if ok else 1


def near(a, b):
    return a is not None and b is not None and abs(a - b) <= SLACK_S


def check_job(check, job, rows, down):
    name, want = job["name"], job["expected"]
    n = 6 if job["sleep"] == "4+k" else 1
    check(len(rows) == n, f"{name}: {n} row(s) in sacct -X (found {len(rows)})")
    for r in rows:
        what = f"{name} ({r['JobID']})"
        state = r["State"].split()[0]
        t1, t2 = int(job["t1"]), int(job["t2"])
        sub, start, end = epoch(r["Submit"]), epoch(r["Start"]), epoch(r["End"])
        check(state == want, f"{what}: state {r['State']}, meant to be {want}")
        check(sub is not None and t1 - 1 <= sub <= t2 + 1,
              f"{what}: submitted at {r['Submit']}, within the test's clock reads around sbatch")
        check(seconds(r["Timelimit"]) == 60 * int(job["timelimit_min"]),
              f"{what}: time limit {r['Timelimit']} as asked ({job['timelimit_min']} min)")
        if want in ("PENDING",) or name == "cancel_pending":
            check(start is None and (want != "PENDING" or end is None),
                  f"{what}: never started (Start {r['Start']}, End {r['End']})")
            continue
        check(r["NCPUS"] == job["cpus"], f"{what}: {r['NCPUS']} CPUs as asked ({job['cpus']})")
        check(start is not None and start >= sub, f"{what}: started ({r['Start']}) after submit")
        if want == "RUNNING":
            check(end is None, f"{what}: no end yet (End {r['End']})")
            continue
        check(end is not None and end >= start and seconds(r["Elapsed"]) == end - start,
              f"{what}: Elapsed {r['Elapsed']} = End - Start")
        secs = sleep_of(job, r)
        if want == "COMPLETED" and secs is not None:
            check(secs <= end - start <= secs + OVERHEAD_S,
                  f"{what}: ran {end - start} s for a sleep of {secs} s")
        if want == "TIMEOUT":
            check(60 <= end - start <= 60 + 45, f"{what}: cut after {end - start} s (limit 60 s)")
        if want == "NODE_FAIL":
            check(near(end, down), f"{what}: ended at {r['End']}, when the node went down")
        if want == "FAILED":
            check(r["ExitCode"] == "3:0", f"{what}: exit code {r['ExitCode']} (the job's exit 3)")
        if name == "begin_later":
            elig = epoch(r["Eligible"])
            check(elig is not None and 20 - SLACK_S <= elig - sub <= 20 + SLACK_S,
                  f"{what}: eligible {r['Eligible']}, 20 s after submit (--begin=now+20)")


def main(argv):
    record_path, dump, ready_only = argv[1], argv[2], "--ready" in argv[3:]
    with open(record_path, newline="") as f:
        record = list(csv.DictReader(f, delimiter="\t"))
    jobs = [r for r in record if r["what"] == "job"]
    outages = [r for r in record if r["what"] == "outage"]
    rows = read_psv(f"{dump}/sacct_jobs.txt")
    steps = read_psv(f"{dump}/sacct_steps.txt")
    events = [e for e in read_psv(f"{dump}/sacctmgr_events.txt") if e["Event"] == "Node"]

    def event_of(outage):
        return [e for e in events if e["Reason"] == outage["expected"]
                and e["State"].split("+")[0].startswith(outage["name"][:4])]

    if ready_only:
        missing = []
        for job in jobs:
            for r in expected_rows(job, rows) or [{"JobID": job["jobid"], "State": "absent"}]:
                state = r["State"].split()[0]
                if job["expected"] in FINAL and state not in FINAL:
                    missing.append(f"{job['name']} {r['JobID']}: {r['State']}")
        for o in outages:
            ev = event_of(o)
            if not ev or epoch(ev[-1]["TimeEnd"]) is None:
                missing.append(f"outage {o['name']} {o['expected']}: not closed yet")
        print("\n".join(missing))
        return 1 if missing else 0

    check = Checks()
    down = next((int(o["t1"]) for o in outages if o["name"] == "DOWN"), None)
    for job in jobs:
        check_job(check, job, expected_rows(job, rows), down)
    n_rows = sum(6 if j["sleep"] == "4+k" else 1 for j in jobs)
    check(len(rows) == n_rows, f"sacct -X has {len(rows)} rows, one per job the test ran ({n_rows})")
    steps_id = next(j["jobid"] for j in jobs if j["name"] == "steps")
    names = sorted(s["JobID"] for s in steps if s["JobID"].startswith(steps_id + "."))
    check(names == [f"{steps_id}.0", f"{steps_id}.1", f"{steps_id}.batch"],
          f"the job with steps has its batch step and two srun steps in sacct ({names})")
    for o in outages:
        ev = event_of(o)
        what = f"outage {o['name']} \"{o['expected']}\""
        check(len(ev) == 1, f"{what}: one node event (found {len(ev)})")
        if ev:
            e = ev[0]
            check(near(epoch(e["TimeStart"]), int(o["t1"])) and near(epoch(e["TimeEnd"]), int(o["t2"])),
                  f"{what}: {e['TimeStart']} to {e['TimeEnd']}, as the test did")
    # The caller counts the FAIL lines; a non-zero exit means the checker itself broke.
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
