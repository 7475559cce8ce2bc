import faultsweep_policy as fp
class Mine(fp.Strategy):
    period = 600
    needs_predictor = True
    def on_tick(self, view):
        return []
