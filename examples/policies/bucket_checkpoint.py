"""Bucketed prediction-driven checkpointing: the built-in strategy "bucket_all", in Python.

Zhang et al. §5.2.2: the day is cut into `buckets` equal buckets (time 0 is midnight). At the
start of each bucket the failure predictor says whether some node will fail within it, not
when or where. In a bucket it flags, every running job checkpoints every `interval` seconds
(paying the job's checkpoint_cost each time); in the others, none does. On the same job (the
same zhang table and predictor) both give the same results, bit for bit.

Job file (checkpoint_cost must be > 0, a predictor table and a failure process are required):
    strategy = { python = "policies/bucket_checkpoint.py", class = "BucketAll", buckets = 6 }
    predictor = { precision = 0.8, recall = 0.7 }
"""
import faultsweep_policy as fp

DAY = 86400.0


class BucketAll(fp.Strategy):
    params = {
        "buckets": 6,  # buckets per day (dividing 86400 s)
        "interval": None,  # s between checkpoints in a flagged bucket (None: min(1 h, bucket))
    }
    needs_predictor = True  # view.predicted at the ticks
    needs_failures = True
    checkpoints_jobs = True  # fp.Checkpoint: checkpoint_cost must be > 0

    def __init__(self, params, rng):
        super().__init__(params, rng)
        buckets = self.params["buckets"]
        if not isinstance(buckets, int) or buckets < 1 or 86400 % buckets != 0:
            raise ValueError(f"buckets = {buckets!r} must be an integer >= 1 dividing 86400")
        bucket = DAY / buckets
        interval = self.params["interval"]
        interval = min(3600.0, bucket) if interval is None else float(interval)
        per_bucket = bucket / interval if interval > 0 else 0.0
        if not (0 < interval <= bucket and abs(per_bucket - round(per_bucket)) <= 1e-9 * per_bucket):
            raise ValueError(f"interval = {interval!r} must divide the bucket ({bucket} s)")
        # A tick at every bucket start and every interval within it; one prediction per
        # bucket, over the whole bucket, made at its first tick.
        self.period, self.offset = interval, 0.0
        self.predict_window, self.predict_every = bucket, round(per_bucket)
        self.ticks = 0
        self.flagged = False

    def on_tick(self, view):
        if self.ticks % self.predict_every == 0:
            # Only whether the predictor reports a failure in the bucket counts.
            self.flagged = len(view.predicted) > 0
        self.ticks += 1
        if not self.flagged:
            return []
        return [fp.Checkpoint(int(j)) for j in view.running if view.job(int(j)).running]
