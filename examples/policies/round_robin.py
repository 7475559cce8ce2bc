"""Round robin: the next free ids after the last node handed out, wrapping around (the
built-in allocator "round_robin", in Python)."""
import numpy as np

import faultsweep_policy as fp


class RoundRobin(fp.Allocator):
    def __init__(self, params, rng):
        super().__init__(params, rng)
        self.cursor = 0  # first node id to try next time

    def allocate(self, view, count):
        free = np.flatnonzero(view.free)
        # The free ids from the cursor on, then those before it.
        start = np.searchsorted(free, self.cursor)
        nodes = np.concatenate((free[start:], free[:start]))[:count]
        if count > 0:
            self.cursor = (int(nodes[-1]) + 1) % view.nodes
        return nodes
