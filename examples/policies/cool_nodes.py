"""Cool nodes: a failure-aware allocator that lets recently failed nodes cool down.

Idea: a node that just came back from a repair is more likely to fail again soon (infant
mortality after a repair, shared causes such as a bad rack), so a job is better placed on nodes
that have been quiet for a while. Each free node gets a score

    score = failures so far + penalty  if its last failure is less than `cooldown` seconds ago

and a job takes the lowest scores. Among equal scores the choice is random, so that the work
(and the wear) spreads over the machine instead of piling up on the lowest ids.

Job file:
    allocator = { python = "policies/cool_nodes.py", class = "CoolNodes", cooldown = 86400 }
"""
import numpy as np

import faultsweep_policy as fp


class CoolNodes(fp.Allocator):
    params = {
        "cooldown": 86400.0,  # seconds after a failure during which a node is avoided
        "penalty": 1000.0,  # added to the score of a node still cooling down
    }

    def __init__(self, params, rng):
        super().__init__(params, rng)
        self.cooldown = float(self.params["cooldown"])
        self.penalty = float(self.params["penalty"])
        if self.cooldown < 0:
            raise ValueError(f"cooldown must be >= 0, got {self.cooldown}")

    def allocate(self, view, count):
        free = np.flatnonzero(view.free)
        score = view.failures[free].astype(float)
        recent = view.now - view.last_failure[free] < self.cooldown
        score[recent] += self.penalty
        # Random tie-breaks: sort by (score, a random key); the generator is this replica's.
        tie = self.rng.random(len(free))
        order = np.lexsort((tie, score))
        return free[order[:count]]
