import faultsweep_policy as fp
class Mine(fp.Allocator):
    def allocate(self, view):
        return []
