import faultsweep_policy as fp
class Mine(fp.Strategy):
    period = 600
    checkpoints_jobs = True
    def on_tick(self, view):
        return []
