"""records() and the plots of a recorded replica, on a file the real binary writes: the
hand-checkable case of tests/data/jobs/gantt_small.toml (4 nodes, 6 jobs, FCFS, node 0 fails at
1200 s and is repaired at 3000 s; docs/records.md works it out)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from faultsweep_analysis import cli
from faultsweep_analysis.records import (_text, busy_and_queue, node_intervals, recorded_tasks,
                                         records)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def gantt_file(tmp_path_factory):
    binary = Path(os.environ.get("FAULTSWEEP_BIN", ROOT / "build" / "faultsweep"))
    if not binary.is_file():
        pytest.skip(f"no faultsweep binary at {binary} (build it, or set FAULTSWEEP_BIN)")
    out = tmp_path_factory.mktemp("gantt") / "gantt.h5"
    job = ROOT / "tests" / "data" / "jobs" / "gantt_small.toml"
    subprocess.run([str(binary), "run", str(job), "--out", str(out), "-q"], check=True,
                   cwd=out.parent)
    return out


def test_records_hold_the_hand_checked_schedule(gantt_file):
    assert recorded_tasks(gantt_file) == [(0, 0)]
    r = records(gantt_file, 0, 0)
    jobs = r["jobs"].set_index("id")
    assert list(jobs["finish_s"]) == [5400, 1800, 4200, 6600, 6000, 8400]
    assert jobs.loc[1, "failures"] == 1 and jobs.loc[1, "lost_s"] == 1200
    assert jobs.loc[1, "attempts"] == 2 and (jobs["state_name"] == "done").all()
    f = r["failures"]
    assert len(f) == 1 and f.loc[0, "node"] == 0 and f.loc[0, "repair_s"] == 3000
    assert f.loc[0, "job"] == 0  # job index 0 is SWF job 1
    assert r.units["jobs"]["wait_s"] == "s" and r.attrs["nodes"] == 4
    down = node_intervals(r)
    down = down[down["state"] == "down"]
    assert list(zip(down["node"], down["start_s"], down["end_s"])) == [(0, 1200, 3000)]
    q = busy_and_queue(r).set_index("time_s")
    assert q.loc[1500, "waiting"] == 5 and q.loc[1800, "waiting"] == 3
    assert q.loc[1800, "busy"] == 3


def test_records_of_a_task_without_records_say_which_have(gantt_file):
    with pytest.raises(ValueError, match=r"recorded \(point, replica\): \(0, 0\)"):
        records(gantt_file, 0, 1)


@pytest.mark.parametrize("command", ["gantt", "timeline", "wait-size"])
@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_each_plot_is_one_command_line(gantt_file, tmp_path, command, suffix, capsys):
    out = tmp_path / f"{command}.{suffix}"
    assert cli.main([command, str(gantt_file), "--point", "0", "--replica", "0",
                     "--out", str(out)]) == 0
    assert out.stat().st_size > 1000
    assert capsys.readouterr().out.strip() == str(out)


def test_a_plot_of_a_task_without_records_exits_2(gantt_file, tmp_path, capsys):
    assert cli.main(["gantt", str(gantt_file), "--replica", "3", "--out",
                     str(tmp_path / "x.png")]) == 2
    assert "no records for point 0, replica 3" in capsys.readouterr().err


def test_every_table_has_one_unit_per_column(gantt_file):
    import h5py

    with h5py.File(gantt_file, "r") as f:
        g = f["records/point_0/replica_0"]
        for name in ("jobs", "attempts", "allocations", "failures", "nodes", "decisions"):
            columns = _text(g[name].attrs["columns"]).split(",")
            units = _text(g[name].attrs["units"]).split(",")
            assert len(units) == len(columns), name
            assert sorted(columns) == sorted(g[name].dtype.names), name
    r = records(gantt_file, 0, 0)
    assert r.units["allocations"] == {"job": "", "attempt": "", "first_node": "",
                                      "count": "nodes"}
    assert r.units["jobs"]["requested_size"] == "nodes" and r.units["jobs"]["id"] == ""


def test_records_md_says_what_the_file_holds(gantt_file):
    """The group's attributes, compression and the decisions codes as docs/records.md gives
    them."""
    import re

    import h5py

    from faultsweep_analysis.records import DECISION_CAUSES

    doc = (ROOT / "docs" / "records.md").read_text()
    with h5py.File(gantt_file, "r") as f:
        g = f["records/point_0/replica_0"]
        for attr in g.attrs:
            assert f"`{attr}`" in doc, attr
        assert g["jobs"].compression == "gzip"
        assert "not compressed" not in doc
        described = _text(g["decisions"].attrs["description"])
    in_file = re.findall(r"(\d) ([a-z][a-z ]+?)(?:,|$)", described.split("cause:")[1])
    row = next(line for line in doc.splitlines() if line.startswith("| `decisions`"))
    in_doc = re.findall(r"(\d) ([a-z][a-z ]+?)(?:,|\))", row.split("cause (")[1])
    assert [int(k) for k, _ in in_file] == list(range(len(DECISION_CAUSES)))
    assert [int(k) for k, _ in in_doc] == list(range(len(DECISION_CAUSES)))
    assert [w.strip() for _, w in in_file] == [w.strip() for _, w in in_doc]


BATSIM_COLUMNS = ["job_id", "workload_name", "profile", "submission_time",
                  "requested_number_of_resources", "requested_time", "success", "final_state",
                  "starting_time", "execution_time", "finish_time", "waiting_time",
                  "turnaround_time", "stretch", "allocated_resources", "consumed_energy",
                  "metadata"]


def test_batsim_export_read_by_pandas_equals_the_hand_checked_schedule(gantt_file, tmp_path):
    """docs/records.md's table of the six jobs, column by column, in Batsim's columns."""
    binary = Path(os.environ.get("FAULTSWEEP_BIN", ROOT / "build" / "faultsweep"))
    out = tmp_path / "jobs.csv"
    subprocess.run([str(binary), "export", str(gantt_file), "--point", "0", "--replica", "0",
                    "--format", "batsim-csv", "--out", str(out)], check=True)
    frame = pd.read_csv(out, dtype={"allocated_resources": str})
    assert list(frame.columns) == BATSIM_COLUMNS
    # job: submit, size, run (= estimate), start, end, nodes (docs/records.md)
    hand = {1: (0, 2, 3600, 1800, 5400, "1-2"), 2: (0, 2, 1800, 0, 1800, "2-3"),
            3: (600, 1, 2400, 1800, 4200, "3"), 4: (900, 3, 1200, 5400, 6600, "0-2"),
            5: (1300, 1, 600, 5400, 6000, "3"), 6: (1500, 4, 1800, 6600, 8400, "0-3")}
    # Batsim writes a job's line when it ends: by finish time.
    assert list(frame["job_id"]) == sorted(hand, key=lambda j: (hand[j][4], j))
    for row in frame.itertuples(index=False):
        submit, size, run, start, end, nodes = hand[row.job_id]
        assert (row.workload_name, row.profile) == ("faultsweep", "delay")
        assert (row.submission_time, row.requested_number_of_resources) == (submit, size)
        assert row.requested_time == run
        assert (row.success, row.final_state) == (1, "COMPLETED_SUCCESSFULLY")
        assert (row.starting_time, row.execution_time, row.finish_time) == (start, end - start,
                                                                            end)
        assert row.waiting_time == start - submit and row.turnaround_time == end - submit
        assert row.stretch == pytest.approx((end - submit) / (end - start), abs=5e-7)
        assert row.allocated_resources == nodes
        assert row.consumed_energy == -1 and pd.isna(row.metadata)
    # Numbers as Batsim prints them (printf's %f).
    assert out.read_text().splitlines()[1].startswith("2,faultsweep,delay,0.000000,2,")
