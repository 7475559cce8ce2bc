"""Records of one replica (job file key `sweep.record`): what happened inside the simulation.

    from faultsweep_analysis.records import records
    r = records("results/x.h5", point=0, replica=0)
    r["jobs"], r["attempts"], r["allocations"], r["failures"], r["nodes"], r["decisions"]

Each table is a pandas DataFrame with the columns the file stores (times in seconds of simulated
time; jobs and nodes by index) plus readable names for the coded columns (`state_name`,
`end_name`, `kind_name`, `cause_name`). `r.attrs` has the machine's `nodes` and the run's
`start_s` and `end_s`. The tables' `units` and `description` attributes say the rest.
"""
from __future__ import annotations

import h5py
import pandas as pd

JOB_STATES = ["pending", "waiting", "running", "suspended", "done", "rejected"]
NODE_STATES = ["idle", "busy", "held", "down", "spare"]
ATTEMPT_ENDS = ["completed", "failure", "move", "checkpoint_now", "run_end"]
DECISION_KINDS = ["move", "spare_hold", "spare_release", "checkpoint_now"]
DECISION_CAUSES = ["tick", "warning", "job_end", "call", "failure"]
TABLES = ["jobs", "attempts", "allocations", "failures", "nodes", "decisions"]
_NAMES = {
    "jobs": [("state", JOB_STATES)],
    "attempts": [("end", ATTEMPT_ENDS)],
    "nodes": [("state", NODE_STATES)],
    "decisions": [("kind", DECISION_KINDS), ("cause", DECISION_CAUSES)],
}


class Records(dict):
    """The tables of one recorded replica by name, with `attrs` (nodes, start_s, end_s) and
    `units` (table -> column -> unit)."""

    def __init__(self):
        super().__init__()
        self.attrs: dict = {}
        self.units: dict[str, dict[str, str]] = {}


def _text(v) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


def recorded_tasks(path) -> list[tuple[int, int]]:
    """The (point, replica) pairs with records in a results file."""
    out = []
    with h5py.File(path, "r") as f:
        if "records" not in f:
            return out
        for pname, pg in f["records"].items():
            for rname in pg:
                out.append((int(pname.split("_")[1]), int(rname.split("_")[1])))
    return sorted(out)


def records(path, point: int, replica: int) -> Records:
    """The tables of task (point, replica); ValueError if the file holds none for it."""
    name = f"records/point_{point}/replica_{replica}"
    out = Records()
    with h5py.File(path, "r") as f:
        if name not in f:
            have = ", ".join(f"({p}, {r})" for p, r in recorded_tasks(path)) or "none"
            raise ValueError(f"{path}: no records for point {point}, replica {replica} "
                             f"(recorded (point, replica): {have})")
        g = f[name]
        out.attrs = {k: g.attrs[k].item() for k in g.attrs}
        for table in TABLES:
            if table not in g:
                continue
            ds = g[table]
            frame = pd.DataFrame(ds[()])
            cols = _text(ds.attrs.get("columns", "")).split(",")
            units = _text(ds.attrs.get("units", "")).split(",")
            out.units[table] = dict(zip(cols, units))
            for col, names in _NAMES.get(table, []):
                frame[col + "_name"] = pd.Categorical.from_codes(frame[col].astype(int),
                                                                 categories=names)
            out[table] = frame
    return out


def node_intervals(r: Records) -> pd.DataFrame:
    """The node table's states as intervals: node, state, job, start_s, end_s, closed (False
    for each node's last interval, which the run's end cuts rather than a change of state).
    The table holds failures, repairs, spares and held nodes; a job's start and end on an idle
    node are in the attempts and allocations instead (see job_intervals)."""
    nodes = r["nodes"].sort_values(["node", "time_s"], kind="stable").reset_index(drop=True)
    nxt = nodes.groupby("node", sort=False)["time_s"].shift(-1)
    out = pd.DataFrame({
        "node": nodes["node"].to_numpy(),
        "state": pd.Categorical.from_codes(nodes["state"].astype(int), categories=NODE_STATES)
        .astype(str),
        "job": nodes["job"].to_numpy(),
        "start_s": nodes["time_s"].to_numpy(),
        "end_s": nxt.fillna(r.attrs["end_s"]).to_numpy(),
        "closed": nxt.notna().to_numpy(),
    })
    return out[out["end_s"] > out["start_s"]].reset_index(drop=True)


def job_intervals(r: Records) -> pd.DataFrame:
    """One row per attempt and run of consecutive nodes: job, attempt, first_node, count,
    start_s, end_s, end_name."""
    att = r["attempts"][["job", "attempt", "start_s", "end_s", "end_name"]]
    return r["allocations"].merge(att, on=["job", "attempt"], how="left")


def busy_and_queue(r: Records) -> pd.DataFrame:
    """Step functions over time: nodes running a job (from the attempts' allocations) and jobs
    waiting in the queue (from the jobs' submits, the attempts' starts and failures)."""
    jobs, att = r["jobs"], r["attempts"]
    spans = job_intervals(r)
    busy = [(t, c) for t, c in zip(spans["start_s"], spans["count"])]
    busy += [(t, -c) for t, c in zip(spans["end_s"], spans["count"])]
    queue = [(t, +1) for t in jobs.loc[jobs["state_name"] != "rejected", "submit_s"]]
    # A job interrupted by a failure waits again (requeued), unless it is suspended on its
    # nodes until the repair (on_failure = "wait_repair": its suspended time is > 0): then it
    # never re-enters the queue, so the attempt that resumes it leaves no queue either. Moves
    # and checkpoints restart it at once (their next attempt starts at the same instant).
    suspended = set(jobs.loc[jobs["suspended_s"] > 0, "index"])
    ordered = att.sort_values(["job", "attempt"], kind="stable")
    after = ordered.groupby("job", sort=False)["end_name"].shift(1)
    resumed = (after == "failure") & ordered["job"].isin(suspended)
    queue += [(t, -1) for t in ordered.loc[~resumed, "start_s"]]
    requeued = att[(att["end_name"] == "failure") & ~att["job"].isin(suspended)]
    queue += [(t, +1) for t in requeued["end_s"]]
    restarted = att[att["end_name"].isin(["move", "checkpoint_now"])]
    queue += [(t, +1) for t in restarted["end_s"]]

    def steps(pairs, name):
        frame = pd.DataFrame(pairs, columns=["time_s", name]).groupby("time_s")[name].sum()
        return frame.cumsum()

    frame = pd.concat([steps(busy, "busy"), steps(queue, "waiting")], axis=1)
    return frame.sort_index().ffill().fillna(0).reset_index()
