"""Preventive migration: the built-in strategy "preventive_migrate", written in Python.

Every `interval` seconds, a process on a node that failed more than `max_failures` times in the
last `window` seconds moves to the idle node with the fewest failures in that window (ties: the
lowest id), if that node has at most `max_failures`; the job keeps its work and resumes after
`overhead` seconds. The riskiest processes move first, each to the safest idle node left. It
reports the metric preventive_moves (processes moved), like the built-in one: on the same job
both give the same results, bit for bit.

Job file:
    strategy = { python = "policies/preventive_migrate.py", class = "PreventiveMigrate",
                 interval = 600, window = 3600, max_failures = 1, overhead = 300 }
"""
import numpy as np

import faultsweep_policy as fp


class PreventiveMigrate(fp.Strategy):
    params = {
        "interval": 600.0,  # seconds between two looks
        "window": 3600.0,  # seconds of failure history that count
        "max_failures": 1,  # a node with more failures in the window is risky
        "overhead": 300.0,  # seconds a moved job waits before it resumes
    }
    failure_times = True  # view.failure_times(node): the failures of the last window
    metrics = ("preventive_moves",)

    def __init__(self, params, rng):
        super().__init__(params, rng)
        self.interval = float(self.params["interval"])
        self.window = float(self.params["window"])
        self.max_failures = int(self.params["max_failures"])
        self.overhead = float(self.params["overhead"])
        if not (self.interval > 0 and self.window > 0 and self.max_failures >= 0
                and self.overhead >= 0):
            raise ValueError("interval and window must be > 0, max_failures and overhead >= 0")
        # The first look one interval after the start, then every interval.
        self.period = self.interval
        self.offset = self.interval
        self.moves = 0

    def recent(self, view, node):
        """Failures of `node` in (now - window, now]."""
        t = view.failure_times(node)
        return len(t) - int(np.searchsorted(t, view.now - self.window, side="right"))

    def on_tick(self, view):
        risky = []  # (failures in the window, node, job)
        for job in view.running:
            j = view.job(job)
            if not j.running:
                continue
            for node in j.nodes:
                k = self.recent(view, node)
                if k > self.max_failures:
                    risky.append((k, int(node), job))
        if not risky:
            return []
        idle = [(k, int(n)) for n in np.flatnonzero(view.free)
                if (k := self.recent(view, n)) <= self.max_failures]
        idle.sort()
        risky.sort(key=lambda r: (-r[0], r[1]))
        pairs = min(len(risky), len(idle))
        self.moves += pairs
        return [fp.Move(int(job), node, idle[i][1], self.overhead)
                for i, (_, node, job) in enumerate(risky[:pairs])]

    def report(self):
        return {"preventive_moves": self.moves}
