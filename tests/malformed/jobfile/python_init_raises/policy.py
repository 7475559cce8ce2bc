import faultsweep_policy as fp
class Mine(fp.Allocator):
    def __init__(self, params, rng):
        raise ValueError("bad setup")
    def allocate(self, view, count):
        return []
