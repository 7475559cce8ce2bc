"""records() and the plots of a recorded replica, on a file the real binary writes: the
hand-checkable case of tests/data/jobs/gantt_small.toml (4 nodes, 6 jobs, FCFS, node 0 fails at
1200 s and is repaired at 3000 s; docs/records.md works it out)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from faultsweep_analysis import cli
from faultsweep_analysis.records import busy_and_queue, node_intervals, recorded_tasks, records

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
