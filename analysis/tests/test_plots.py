import numpy as np
import pytest

import synth
from faultsweep_analysis import open_results
from faultsweep_analysis.cli import main as cli_main
from faultsweep_analysis.plots import is_log_spaced, plot_heatmap, plot_metric_vs_axis

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def sweep(make_results):
    """availability over a = 1..8 × I = 6 min .. 24 h (8 log steps, seconds), 4 replicas."""
    I = list(np.geomspace(360.0, 86400.0, 8))
    axes = synth.grid(a=list(range(1, 9)), I=I)
    a, i = np.asarray(axes["a"], float), np.asarray(axes["I"])
    base = np.exp(-((a - 6) / 3) ** 2 - np.log(i / 7200) ** 2 / 8)
    rng = np.random.default_rng(3)
    path = make_results(
        axes=axes,
        metrics={"availability": base[:, None] + rng.normal(0, 0.005, (len(a), 4))},
        axis_units={"I": "s"},
    )
    return open_results(path)


def assert_png(path):
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC
    assert len(data) > 5_000  # axes, labels and data, not a blank canvas


def test_log_spacing_detection():
    assert is_log_spaced(np.geomspace(360, 86400, 40))
    assert is_log_spaced([0.1, 1, 10, 100])
    assert not is_log_spaced(range(1, 33))
    assert not is_log_spaced([0.0, 1.0, 10.0])  # zero cannot be on a log axis
    assert not is_log_spaced([1.0, 10.0])  # too few values to tell


def test_metric_vs_axis_writes_png_with_lines_per_by_value(sweep, tmp_path):
    out = tmp_path / "sub" / "a.png"
    fig = plot_metric_vs_axis(sweep, "availability", "a", by="I", out_png=out, panels=False)
    assert_png(out)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "a"
    assert ax.get_ylabel() == "availability"
    assert ax.get_xscale() == "linear"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(labels) == 8
    # durations in minutes or hours and minutes, never decimal hours
    assert labels[0] == "I = 6 min" and labels[-1] == "I = 24 h"
    assert labels[3] == "I = 1 h 03 min"
    # each line its own marker, so lines that meet stay apart
    assert len({line.get_marker() for line in ax.get_lines() if line.get_marker() not in ("None", "_", "|")}) == 8


def test_many_lines_get_one_panel_each_with_words_and_units(sweep, tmp_path):
    out = tmp_path / "panels.png"
    fig = plot_metric_vs_axis(sweep, "availability", "a", by="I", out_png=out,
                              words={"a": "active processors a", "availability": "availability A"},
                              title="EP: availability by checkpoint interval")
    assert_png(out)
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == 8
    assert [ax.get_title() for ax in panels][:2] == ["I = 6 min", "I = 13.1 min"]
    assert fig._suptitle.get_text() == "EP: availability by checkpoint interval"
    assert fig._supxlabel.get_text() == "active processors a"
    assert fig._supylabel.get_text() == "availability A"
    # each panel: its own line with error bars over the others drawn faintly
    assert len(panels[0].get_lines()) >= 8


def test_cli_plot_labels_and_title(sweep, tmp_path, capsys):
    out = tmp_path / "w.png"
    assert cli_main(["plot", str(sweep.path), "--metric", "availability", "--x", "I",
                     "--fix", "a=6", "--label", "I=checkpoint interval I", "--title", "T",
                     "--out", str(out)]) == 0
    assert_png(out)
    assert cli_main(["plot", str(sweep.path), "--metric", "availability", "--x", "I",
                     "--fix", "a=6", "--label", "I", "--out", str(out)]) == 2
    assert "expected NAME=WORDS" in capsys.readouterr().err


def test_metric_vs_duration_axis_is_in_hours_on_log_scale(sweep, tmp_path):
    out = tmp_path / "I.png"
    fig = plot_metric_vs_axis(sweep, "availability", "I", fixed={"a": 6}, out_png=out)
    assert_png(out)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "I [h]"
    assert ax.get_xscale() == "log"
    lo, hi = ax.get_xlim()
    assert 0.05 < lo < 0.1 and 24 < hi < 50  # hours, not seconds
    assert "a = 6" in ax.get_title()


def test_metric_vs_axis_requires_other_axes_fixed(sweep):
    with pytest.raises(ValueError, match="axis 'I' has 8 values"):
        plot_metric_vs_axis(sweep, "availability", "a")


def test_heatmap_writes_png_with_log_hours_axis_and_colour_bar(sweep, tmp_path):
    out = tmp_path / "hm.png"
    fig = plot_heatmap(sweep, "availability", "a", "I", out_png=out)
    assert_png(out)
    ax, cax = fig.axes
    assert ax.get_xlabel() == "a" and ax.get_ylabel() == "I [h]"
    assert ax.get_yscale() == "log" and ax.get_xscale() == "linear"
    assert cax.get_ylabel() == "availability"
    z = np.asarray(ax.collections[0].get_array()).reshape(8, 8)  # rows I, columns a
    # the synthetic optimum is a = 6, I = 2 h; the nearest grid cell is I = 2.33 h
    iy, ix = np.unravel_index(np.nanargmax(z), z.shape)
    assert (ix, iy) == (5, 4)
    star = ax.lines[0]
    assert star.get_xdata()[0] == 6
    assert star.get_ydata()[0] == pytest.approx(np.geomspace(360.0, 86400.0, 8)[4] / 3600)


def test_heatmap_colour_bar_shows_units_in_hours(make_results, tmp_path):
    axes = synth.grid(a=[1.0, 2.0, 3.0], I=[3600.0, 7200.0, 14400.0])
    path = make_results(axes=axes, metrics={"expected_runtime": 3600.0 * np.arange(1, 10)[:, None]},
                        axis_units={"I": "s"}, metric_units={"expected_runtime": "s"},
                        model="markov_availability")
    fig = plot_heatmap(open_results(path), "expected_runtime", "a", "I",
                       out_png=tmp_path / "rt.png", mark="min")
    assert fig.axes[1].get_ylabel() == "expected_runtime [h]"
    z = np.asarray(fig.axes[0].collections[0].get_array())
    assert np.nanmax(z) == pytest.approx(9.0)  # hours


def test_cli_summary_prints_frame(sweep, capsys):
    assert cli_main(["summary", str(sweep.path)]) == 0
    out = capsys.readouterr().out
    assert "availability_ci95_lo" in out and "availability_ci95_hi" in out
    assert "I [s]" in out
    assert len([l for l in out.splitlines() if l and l.split()[0].isdigit()]) == 64


def test_cli_plot_and_heatmap_write_pngs(sweep, tmp_path):
    out = tmp_path / "a.png"
    assert cli_main(["plot", str(sweep.path), "--metric", "availability", "--x", "a",
                     "--by", "I", "--out", str(out)]) == 0
    assert_png(out)
    out = tmp_path / "I.png"
    assert cli_main(["plot", str(sweep.path), "--metric", "availability", "--x", "I",
                     "--fix", "a=6", "--out", str(out)]) == 0
    assert_png(out)
    out = tmp_path / "hm.png"
    assert cli_main(["heatmap", str(sweep.path), "--metric", "availability", "--x", "a",
                     "--y", "I", "--out", str(out)]) == 0
    assert_png(out)


def test_cli_reports_bad_input_with_exit_2(sweep, tmp_path, capsys):
    assert cli_main(["plot", str(sweep.path), "--metric", "nope", "--x", "a", "--by", "I",
                     "--out", str(tmp_path / "x.png")]) == 2
    assert "no metric 'nope'" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
    bad = tmp_path / "bad.h5"
    bad.write_bytes(b"not hdf5")
    assert cli_main(["summary", str(bad)]) == 2
    assert "not a faultsweep results file" in capsys.readouterr().err


@pytest.mark.parametrize("scale, unit", [(1.0, "s"), (60.0, "min"), (3600.0, "h"),
                                         (86400.0, "days")])
def test_durations_are_shown_in_the_unit_their_size_calls_for(make_results, tmp_path, scale,
                                                              unit):
    # A metric of 20..70 s reads in seconds, not as 0.006..0.019 h; the same numbers of
    # minutes, hours or days read in theirs.
    axes = synth.grid(a=[1.0, 2.0, 3.0])
    values = scale * np.array([20.0, 50.0, 70.0])[:, None] + np.zeros((3, 4))
    path = make_results(axes=axes, metrics={"mean_wait": values},
                        metric_units={"mean_wait": "s"})
    fig = plot_metric_vs_axis(open_results(path), "mean_wait", "a", out_png=tmp_path / "w.png")
    ax = fig.axes[0]
    assert ax.get_ylabel() == f"mean_wait [{unit}]"
    assert list(ax.lines[0].get_ydata()) == pytest.approx([20.0, 50.0, 70.0])
