"""First fit: the lowest free node ids (the built-in allocator "first_fit", in Python)."""
import numpy as np

import faultsweep_policy as fp


class FirstFit(fp.Allocator):
    def allocate(self, view, count):
        return np.flatnonzero(view.free)[:count]
