import faultsweep_policy as fp
class Mine(fp.Allocator):
    params = {"threshold": 3}
    def allocate(self, view, count):
        return []
