import faultsweep_policy as fp
class Mine(fp.Strategy):
    needs_predictor = True
    job_ends = True
    def on_job_end(self, view, job):
        return []
