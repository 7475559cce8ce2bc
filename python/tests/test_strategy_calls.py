"""A Python runtime strategy called at times it names (first_call, CallAt) and after every
failure (failures = True), on a tiny job."""

import re

import pytest


# Fails the run (exit 4) unless on_call comes exactly at the asked times and on_failure after
# failures the engine has applied (the node is down; the job hit is no longer running).
POLICY = """
import faultsweep_policy as fp

class Calls(fp.Strategy):
    first_call = 600
    failures = True

    def __init__(self, params, rng):
        super().__init__(params, rng)
        self.expected, self.calls, self.failures_seen, self.jobs_hit = 600.0, 0, 0, 0

    def on_call(self, view):
        assert view.now == self.expected, (view.now, self.expected)
        self.calls += 1
        self.expected = view.now + 3600
        return [fp.CallAt(self.expected)]

    def on_failure(self, view, node, time, job):
        assert view.now == time and view.state[node] == 3, (view.now, time, view.state[node])
        if job >= 0:
            assert not view.job(job).running, job
            self.jobs_hit += 1
        self.failures_seen += 1
        return []

    def report(self):
        assert self.calls > 2 and self.failures_seen > 0 and self.jobs_hit > 0, (
            self.calls, self.failures_seen, self.jobs_hit)
        return {}
"""


def test_a_strategy_is_called_when_it_asks_and_after_failures(run_cluster_job):
    r = run_cluster_job(POLICY, "Calls", "")
    assert r.returncode == 0, r.stderr


def test_the_loader_checks_the_call_needs():
    import faultsweep_policy as fp
    from faultsweep_policy import _loader

    class Bare(fp.Strategy):
        pass

    for attr, value, text in [("first_call", 10, "on_call"), ("failures", True, "on_failure"),
                              ("first_call", "1h", "a number of seconds"),
                              ("failures", 1, "True or False")]:
        s = Bare({}, None)
        setattr(s, attr, value)
        with pytest.raises(_loader.PolicyError, match=re.escape(text)):
            _loader.strategy_needs(s, [])
    needs = _loader.strategy_needs(Bare({}, None), [])
    assert (needs["first_call"], needs["failures"]) == (float("inf"), False)
    assert _loader.decisions([fp.CallAt(5)]) == [(4, -1, -1, -1, 5.0)]
