"""The schedule plots on small records made by hand (the tables as records() returns them):
the queue count under wait_repair, repairs drawn when the node is back, held nodes, time
units chosen by the span, the window and node-range options, and a 2,000-job chart drawn as a
few collections rather than one patch per job."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection, PolyCollection

from faultsweep_analysis import cli
from faultsweep_analysis.gantt import gantt_figure, parse_nodes, parse_time, plot_timeline
from faultsweep_analysis.plots import time_unit
from faultsweep_analysis.records import (ATTEMPT_ENDS, DECISION_CAUSES, DECISION_KINDS,
                                         JOB_STATES, NODE_STATES, Records, busy_and_queue)


def make(nodes, end_s, jobs, attempts, allocations, failures=(), node_rows=None):
    """Records of hand-written rows: jobs (index, submit, size, suspended_s, state),
    attempts (job, attempt, start, end, end_name), allocations (job, attempt, first, count),
    failures (time, node, repair, job), node_rows (time, node, state_name, job)."""
    r = Records()
    r.attrs = {"nodes": nodes, "start_s": 0.0, "end_s": float(end_s)}
    j = pd.DataFrame(jobs, columns=["index", "submit_s", "size", "suspended_s", "state"])
    j["id"] = j["index"] + 1
    j["wait_s"] = 0.0
    j["failures"] = 0
    j["state_name"] = pd.Categorical.from_codes(
        [JOB_STATES.index(s) for s in j["state"]], categories=JOB_STATES)
    r["jobs"] = j
    a = pd.DataFrame(attempts, columns=["job", "attempt", "start_s", "end_s", "end_name"])
    a["end_name"] = pd.Categorical(a["end_name"], categories=ATTEMPT_ENDS)
    r["attempts"] = a
    r["allocations"] = pd.DataFrame(allocations, columns=["job", "attempt", "first_node", "count"])
    r["failures"] = pd.DataFrame(list(failures), columns=["time_s", "node", "repair_s", "job"])
    if node_rows is not None:
        n = pd.DataFrame(node_rows, columns=["time_s", "node", "state_name", "job"])
        n["state"] = [NODE_STATES.index(s) for s in n["state_name"]]
        r["nodes"] = n
    r["decisions"] = pd.DataFrame({"time_s": [], "kind_name": pd.Categorical(
        [], categories=DECISION_KINDS), "cause_name": pd.Categorical([], categories=DECISION_CAUSES),
        "node_from": [], "node_to": []})
    return r


def suspended_case():
    """wait_repair on 2 nodes: job 0 (2 nodes) runs from 0; node 0 fails at 100 and is back at
    300, job 0 is suspended on its nodes and resumes at 300 until 500; job 1 (1 node, submitted
    at 50) waits until 500."""
    return make(
        2, 700,
        jobs=[(0, 0.0, 2, 200.0, "done"), (1, 50.0, 1, 0.0, "done")],
        attempts=[(0, 0, 0.0, 100.0, "failure"), (0, 1, 300.0, 500.0, "completed"),
                  (1, 0, 500.0, 700.0, "completed")],
        allocations=[(0, 0, 0, 2), (0, 1, 0, 2), (1, 0, 0, 1)],
        failures=[(100.0, 0, 300.0, 0)],
        node_rows=[(100.0, 0, "down", 0), (100.0, 1, "held", 0), (300.0, 0, "held", 0),
                   (300.0, 0, "busy", 0), (300.0, 1, "busy", 0)])


def test_the_queue_never_goes_negative_when_a_suspended_job_resumes():
    q = busy_and_queue(suspended_case()).set_index("time_s")["waiting"]
    assert q.min() >= 0
    assert q.loc[300] == 1  # job 1 still waits; job 0 resumed without queueing
    assert q.loc[500] == 0


def _green_x(fig):
    return sorted(seg[0][0] for c in fig.axes[0].collections if isinstance(c, LineCollection)
                  for seg in c.get_segments())


def test_a_repair_is_drawn_when_the_node_is_back():
    # Node 0 fails at 100 (repair 300) and again at 200 while down (repair 400): it is back
    # at 400 only. A failure at 650 is repaired after the run's end: no repair drawn.
    r = make(1, 700, jobs=[(0, 0.0, 1, 0.0, "done")],
             attempts=[(0, 0, 0.0, 100.0, "failure"), (0, 1, 400.0, 600.0, "completed")],
             allocations=[(0, 0, 0, 1), (0, 1, 0, 1)],
             failures=[(100.0, 0, 300.0, 0), (200.0, 0, 400.0, -1), (650.0, 0, 900.0, -1)],
             node_rows=[(100.0, 0, "down", -1), (400.0, 0, "idle", -1), (650.0, 0, "down", -1)])
    scale = time_unit(700)[0]
    assert _green_x(gantt_figure(r)) == [400.0 / scale]
    del r["nodes"]  # from the failures alone: the same
    assert _green_x(gantt_figure(r)) == [400.0 / scale]


def test_a_node_held_by_a_suspended_job_is_drawn_held_not_idle():
    fig = gantt_figure(suspended_case())
    held = [c for c in fig.axes[0].collections
            if isinstance(c, PolyCollection) and c.get_hatch() == ".."]
    assert len(held) == 1
    (box,) = [p.vertices for p in held[0].get_paths() if p.vertices[:, 1].min() > 0.5]
    scale = time_unit(700)[0]
    assert box[:, 0].min() * scale == 100 and box[:, 0].max() * scale == 300  # node 1


@pytest.mark.parametrize("span, unit", [(110, "s"), (179, "s"), (600, "min"), (7200, "min"),
                                        (10800, "h"), (2 * 86400, "h"), (30 * 86400, "days")])
def test_time_unit_follows_the_span(span, unit):
    assert time_unit(span)[1] == unit


def test_a_110_s_run_is_drawn_in_seconds(tmp_path):
    r = make(1, 110, jobs=[(0, 0.0, 1, 0.0, "done")], attempts=[(0, 0, 0.0, 110.0, "completed")],
             allocations=[(0, 0, 0, 1)])
    fig = gantt_figure(r)
    assert fig.axes[0].get_xlabel() == "time [s]"
    assert fig.axes[0].get_xlim() == (0.0, 110.0)
    plot_timeline(r, tmp_path / "t.png")


def test_window_and_node_range(tmp_path):
    r = suspended_case()
    fig = gantt_figure(r, window=(200.0, 400.0), nodes=(1, 1))
    assert fig.axes[0].get_xlim() == (200.0 / 60, 400.0 / 60)  # 200 s: minutes
    assert fig.axes[0].get_ylim() == (0.4, 1.6)
    assert parse_time("2h") == 7200 and parse_time("90") == 90 and parse_time("1.5d") == 129600
    assert parse_nodes("0-31") == (0, 31) and parse_nodes("7") == (7, 7)
    with pytest.raises(ValueError, match="node range"):
        gantt_figure(r, nodes=(0, 5))
    with pytest.raises(ValueError, match="time"):
        parse_time("soon")


def test_cli_gantt_options(monkeypatch, tmp_path, capsys):
    import faultsweep_analysis.records as records_module

    monkeypatch.setattr(records_module, "records", lambda *a, **k: suspended_case())
    monkeypatch.setattr(cli, "check_hdf5", lambda path: None)  # no file: the records are made here
    out = tmp_path / "g.png"
    assert cli.main(["gantt", "x.h5", "--from", "100s", "--to", "5min", "--nodes", "0-1",
                     "--out", str(out)]) == 0
    assert out.stat().st_size > 1000
    assert cli.main(["gantt", "x.h5", "--nodes", "1-0", "--out", str(out)]) == 2
    assert "node range" in capsys.readouterr().err


def big_case(n_jobs=2000, nodes=64, seed=1):
    rng = np.random.default_rng(seed)
    free = np.zeros(nodes)
    jobs, att, alloc = [], [], []
    for j in range(n_jobs):
        size = int(rng.integers(1, 9))
        first = int(rng.integers(0, nodes - size + 1))
        start = free[first:first + size].max()
        end = start + float(rng.exponential(7200.0)) + 60
        free[first:first + size] = end
        jobs.append((j, 0.0, size, 0.0, "done"))
        att.append((j, 0, start, end, "completed"))
        alloc.append((j, 0, first, size))
    return make(nodes, float(free.max()), jobs, att, alloc)


def test_2000_jobs_are_a_few_collections_with_thinned_labels(tmp_path):
    r = big_case()
    fig = gantt_figure(r, title="2,000 jobs")
    from faultsweep_analysis.gantt import _save

    _save(fig, tmp_path / "big.png")
    ax = fig.axes[0]
    assert len(ax.patches) == 0  # no patch per job
    boxes = sum(len(c.get_paths()) for c in ax.collections if isinstance(c, PolyCollection))
    assert boxes == 2000
    assert len(ax.texts) <= 400
    # A day's window: the boxes are wide enough to carry their ids, and only those get one.
    day = gantt_figure(r, window=(86400.0, 2 * 86400.0))
    assert 20 < len(day.axes[0].texts) <= 400
