import faultsweep_policy as fp


class Mine(fp.Strategy):
    warning_lead = -5

    def on_warning(self, view, node, time):
        return []
