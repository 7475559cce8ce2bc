"""Free size: a moldable job starts on min(requested, free) nodes if that is at least
`min_fraction` x requested, else it waits (the built-in moldable_size "free", in Python)."""
import math

import faultsweep_policy as fp


class FreeSize(fp.SizeChooser):
    params = {"min_fraction": 0.5}

    def choose(self, view):
        size = min(view.requested, max(0, view.free_nodes))
        # The tolerance keeps 0.5 x 4 = 2 from rounding up to 3.
        need = max(1, math.ceil(self.params["min_fraction"] * view.requested - 1e-9))
        return size if size >= need else 0
