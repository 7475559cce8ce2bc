import faultsweep_policy as fp
class Mine(fp.Strategy):
    period = 600
