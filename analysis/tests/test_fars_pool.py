"""The FARS report page's spare-pool table and the trace explanation written from it
(reproduce/report/fars_pool.py), on a small synthetic results file."""
import numpy as np

from reproduce.report import fars_pool as fp
from test_fars import R, factors, scaled_metrics

STRATEGIES = ["none", "fsd_d", "sul_d", "jfr_d"]
LOADS = [0.3, 0.84]
# Per (load, strategy != none): mean pool nodes, empty fraction, unmoved jobs.
POOL = {0.3: (200.0, 0.05, 3.0), 0.84: (13.0, 0.86, 640.0)}


def write(make_results, pool=True):
    axes = {"workload.target_load": [x for x in LOADS for _ in STRATEGIES],
            "strategy": [s for _ in LOADS for s in STRATEGIES]}
    cs = [factors(s, i) for i, s in enumerate(axes["strategy"])]
    rows = [scaled_metrics(c) for c in cs]
    metrics = {m: np.array([r[m] for r in rows]) for m in rows[0]}
    if pool:
        for k, name in enumerate(fp.METRICS):
            metrics[name] = np.array(
                [np.full(R, 0.0 if s == "none" else POOL[x][k] + 0.01 * (STRATEGIES.index(s) - 2))
                 for x, s in zip(axes["workload.target_load"], axes["strategy"])])
    return make_results("load_trace.h5", axes=axes, metrics=metrics, model="cluster")


def test_one_row_per_load_and_strategy_with_the_measured_pool(make_results):
    rows = fp.pool_rows(write(make_results))
    assert [(r["load"], r["strategy"]) for r in rows] == [
        (x, s) for x in LOADS for s in STRATEGIES[1:]]
    top = [r for r in rows if r["load"] == 0.84]
    assert abs(np.mean([r["pool"] for r in top]) - 13.0) < 0.02
    assert all(abs(r["empty"] - 0.86) < 0.02 for r in top)
    # The composite gain is the paired one of fars_data (1 - c^2 per replica).
    sul = next(r for r in top if r["strategy"] == "sul_d")
    assert 0.3 < sul["gain"].mean < 0.4
    table = fp.pool_table(rows)
    assert len(table.rows) == 6 and table.rows[0][1] == "FSD-D" and table.rows[3][0] == "0.84"


def test_the_trace_explanation_is_written_from_the_numbers(make_results):
    text = fp.trace_explanation(fp.pool_rows(write(make_results)))
    assert "load 0.84" in text and "averages 13 nodes" in text
    assert "empty at 85-87 % of the ticks" in text and "about 640 suspicious jobs" in text
    assert "at load 0.3 the pool averages 200 nodes and the composite gain is" in text


def test_a_file_without_the_pool_metrics_gives_no_table(make_results):
    assert fp.pool_rows(write(make_results, pool=False)) == []
    assert fp.trace_explanation([]) is None
