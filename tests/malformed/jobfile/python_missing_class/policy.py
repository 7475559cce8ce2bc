import faultsweep_policy as fp
class Other(fp.Allocator):
    def allocate(self, view, count):
        return []
