import math

import pandas as pd
import pytest

from faultsweep_analysis.cli import main as cli_main
from faultsweep_analysis.scaling import read_scaling, slopes

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def csv(tmp_path):
    """EASY + first fit whose cost per job doubles with the nodes and grows by 1.5x per doubling
    of the failures; FCFS whose cost does not grow with the nodes."""
    rows = []
    for nodes in [128, 256, 512]:
        for f in [0, 1, 2, 4]:
            cost = (nodes / 128) * (1.5 ** math.log2(f) if f > 0 else 1.0) * 1e-5
            rows.append(["easy", "first_fit", nodes, f, 1000, 10 * f, 1000 * cost, 1 / cost,
                         nodes / 100])
        rows.append(["fcfs", "first_fit", nodes, 0, 1000, 0, 0.01, 1e5, 3.0])
    path = tmp_path / "scaling.csv"
    pd.DataFrame(rows, columns=["queue", "allocator", "nodes", "failures_per_job", "jobs",
                                "failures", "cpu_s", "jobs_per_cpu_s", "peak_rss_mib"]
                 ).to_csv(path, index=False)
    return path


def test_slopes_per_doubling(csv):
    s = slopes(read_scaling(csv)).set_index("queue")
    assert s.loc["easy", "slope_per_node_doubling"] == pytest.approx(1.0)
    assert s.loc["easy", "slope_per_failure_doubling"] == pytest.approx(0.585, abs=1e-3)
    assert s.loc["fcfs", "slope_per_node_doubling"] == pytest.approx(0.0, abs=1e-9)
    assert s.loc["easy", "peak_rss_mib_largest"] == pytest.approx(5.12)


def test_cli_prints_slopes_and_writes_png(csv, tmp_path, capsys):
    out = tmp_path / "scaling.png"
    assert cli_main(["scaling", str(csv), "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == PNG_MAGIC
    assert "slope_per_node_doubling" in capsys.readouterr().out


def test_not_a_scaling_csv(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    assert cli_main(["scaling", str(bad), "--out", str(tmp_path / "x.png")]) == 2
    assert "not a bench_scaling CSV" in capsys.readouterr().err


def test_markdown_table(csv, tmp_path):
    md = tmp_path / "scaling.md"
    assert cli_main(["scaling", str(csv), "--out", str(tmp_path / "s.png"),
                     "--markdown", str(md)]) == 0
    lines = md.read_text().splitlines()
    assert lines[0].startswith("| queue + allocator | 128 nodes (jobs/s) | 256 nodes")
    easy = next(line for line in lines if line.startswith("| easy + first_fit"))
    # 1e5 jobs/s at 128 nodes, half at 256; slope 1.00 per node doubling, 0.58 per failures'
    assert easy.split(" | ")[1:6] == ["100k", "50k", "25k", "1.00", "0.58"]
    fcfs = next(line for line in lines if line.startswith("| fcfs + first_fit"))
    assert fcfs.split(" | ")[4:6] == ["0.00", "—"]


def test_readme_table_comes_from_the_recorded_run():
    """The README's cost table is markdown_table of bench/scaling.csv, not typed by hand."""
    from pathlib import Path

    from faultsweep_analysis.scaling import markdown_table

    root = Path(__file__).resolve().parents[2]
    table = markdown_table(read_scaling(root / "bench" / "scaling.csv"))
    assert table in (root / "README.md").read_text(encoding="utf-8")
