"""A missing, empty, truncated or foreign input file gets one line on stderr and the documented
exit code (2: a file of another kind; 3: a file that could not be read), from every subcommand
that reads a results file and from the report; never a traceback."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from faultsweep_analysis import cli

ANALYSIS = Path(__file__).resolve().parents[1]


def _good(make_results, name):
    return make_results(name, axes={"a": [1.0, 2.0]}, metrics={"m": np.ones((2, 3))})


def _bad_files(tmp_path, make_results):
    good = _good(make_results, "good.h5")
    data = Path(good).read_bytes()
    truncated = tmp_path / "truncated.h5"
    truncated.write_bytes(data[: len(data) // 3])
    empty = tmp_path / "empty.h5"
    empty.write_bytes(b"")
    text = tmp_path / "text.h5"
    text.write_text("job,submit\n1,2\n")
    return {"missing": (tmp_path / "missing.h5", 3, "no such file"),
            "empty": (empty, 3, "empty file"),
            "truncated": (truncated, 3, "damaged or truncated"),
            "text": (text, 2, "not an HDF5 file"),
            "folder": (tmp_path, 2, "a folder")}


COMMANDS = [["summary"], ["plot", "--metric", "m", "--x", "a"], ["heatmap", "--metric", "m",
            "--x", "a", "--y", "b"], ["runtime-map"], ["gantt"], ["timeline"], ["wait-size"]]


@pytest.mark.parametrize("kind", ["missing", "empty", "truncated", "text", "folder"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_bad_file_one_line_and_exit_code(kind, command, tmp_path, make_results, capsys):
    path, code, words = _bad_files(tmp_path, make_results)[kind]
    args = [command[0], str(path), *command[1:]]
    if command[0] != "summary":
        args += ["--out", str(tmp_path / "out.png")]
    assert cli.main(args) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err, err
    assert "Traceback" not in err
    assert not (tmp_path / "out.png").exists()


def test_bad_sim_file_is_named(tmp_path, make_results, capsys):
    good = _good(make_results, "chain.h5")
    assert cli.main(["runtime-map", str(good), "--sim", str(tmp_path / "nope.h5"),
                     "--out", str(tmp_path / "rt.png")]) == 3
    assert "nope.h5: no such file" in capsys.readouterr().err


def test_unwritable_output_folder_exit_3(make_results, tmp_path, capsys):
    good = _good(make_results, "good.h5")
    (tmp_path / "a_file").write_text("")  # a folder cannot be made where a file is
    code = cli.main(["plot", str(good), "--metric", "m", "--x", "a",
                     "--out", str(tmp_path / "a_file" / "dir" / "a.png")])
    err = capsys.readouterr().err
    assert code == 3 and err.count("\n") == 1 and "Traceback" not in err, err


def test_report_names_a_truncated_results_file(tmp_path, make_results):
    paper = tmp_path / "results" / "plank"
    paper.mkdir(parents=True)
    good = Path(_good(make_results, "x.h5"))
    (paper / "table4.h5").write_bytes(good.read_bytes()[:200])
    run = subprocess.run([sys.executable, "-m", "reproduce.report", "--results",
                          str(tmp_path / "results"), "--out", str(tmp_path / "report"),
                          "--papers", "plank"], capture_output=True, text=True,
                         cwd=ANALYSIS, env={"PYTHONPATH": str(ANALYSIS), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 3, run.stderr
    assert run.stderr.count("\n") == 1 and "table4.h5: damaged or truncated" in run.stderr
    assert not (tmp_path / "report" / "index.html").exists()
