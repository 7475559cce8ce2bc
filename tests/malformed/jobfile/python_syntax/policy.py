import faultsweep_policy as fp
class Mine(fp.Allocator)
    pass
