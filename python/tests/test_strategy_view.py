"""What a Python runtime strategy sees of the engine's predictor, on a tiny job."""

import re
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Fails the run (exit 4) unless view.predicted is a read-only int32 array of node ids at every
# tick, non-empty at some ticks, and empty at the ticks between two predictions.
POLICY = """
import numpy as np
import faultsweep_policy as fp

class Watch(fp.Strategy):
    period = 3600
    needs_predictor = True
    predict_every = 2

    def __init__(self, params, rng):
        super().__init__(params, rng)
        self.ticks = self.reports = 0

    def on_tick(self, view):
        p = view.predicted
        assert p.dtype == np.int32 and not p.flags.writeable, (p.dtype, p.flags)
        assert ((p >= 0) & (p < view.nodes)).all(), p
        assert self.ticks % 2 == 0 or len(p) == 0, (self.ticks, p)
        self.ticks += 1
        self.reports += len(p) > 0
        return []

    def on_job_end(self, view, job):
        return []

    def report(self):
        assert self.reports > 0, "the predictor never reported a node"
        return {}
"""


def test_a_strategy_sees_the_predictors_reports(run_cluster_job):
    r = run_cluster_job(POLICY, "Watch", 'predictor = { precision = 0.9, recall = 0.9 }',
                        replicas=2)
    assert r.returncode == 0, r.stderr


def test_the_loader_checks_the_prediction_needs():
    import faultsweep_policy as fp
    from faultsweep_policy import _loader

    class Ticks(fp.Strategy):
        period = 600
        needs_predictor = checkpoints_jobs = True
        predict_window, predict_every = 3600, 6

        def on_tick(self, view):
            return []

    needs = _loader.strategy_needs(Ticks({}, None), [])
    assert (needs["needs_predictor"], needs["checkpoints_jobs"]) == (True, True)
    assert (needs["predict_window"], needs["predict_every"]) == (3600.0, 6)
    for attr, value, text in [("predict_every", 0, "an integer >= 1"),
                              ("predict_window", -1, "> 0 (None: the period)"),
                              ("checkpoints_jobs", 1, "True or False"),
                              ("period", None, "needs a period")]:
        s = Ticks({}, None)
        setattr(s, attr, value)
        with pytest.raises(_loader.PolicyError, match=re.escape(text)):
            _loader.strategy_needs(s, [])
    assert _loader.decisions([fp.Checkpoint(3)]) == [(3, 3, -1, -1, 0.0)]


def test_the_docs_name_every_strategy_attribute_and_decision():
    import faultsweep_policy as fp

    doc = (ROOT / "docs" / "python-policies.md").read_text()
    attrs = [a for a in fp.Strategy.__annotations__ if a != "params"]
    assert attrs and "needs_predictor" in attrs
    missing = [a for a in attrs + ["Move", "Hold", "Checkpoint", "Release", "CallAt", "predicted"]
               if f"`{a}" not in doc and f"fp.{a}(" not in doc]
    assert not missing, missing
