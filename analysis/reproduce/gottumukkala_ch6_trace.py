"""Failure trace for Gottumukkala §6.4.4: a 10,000-node system of heterogeneous Weibull nodes whose
(shape, scale) pairs are drawn (with replacement, seeded) from the per-node censored Weibull fits of
a real LANL system (`faultsweep fit ... --out FIT.h5`), each node an alternating renewal process
(Weibull time to failure from t = 0, then a constant repair). Writes the csv trace format
"time_s,node,downtime_s" that the cluster model replays (failures.process = "trace", format = "csv").

    build/faultsweep fit data/failures/lanl/LA-UR-05-7318-failure-data-1996-2005.csv.xz \
        --system 18 --out results/gottumukkala/fit18.h5
    /usr/bin/python3 analysis/reproduce/gottumukkala_ch6_trace.py results/gottumukkala/fit18.h5 \
        --system 18 --seed 1 --out results/gottumukkala/ch6_trace_1.csv

Only nodes with a fit (two or more failures in the log) can be drawn: the drawn machine is less
reliable than the real one (its never-failing nodes are left out), which the report states.
--scale-factor F multiplies every drawn scale by F (the sensitivity study's node-reliability axis:
F = 0.38 puts the median scale at ASC White's 1,884, Gottumukkala Table 3.5, read as hours; the
same seed draws the same nodes, so traces of one seed differ only in F). --shape-factor G multiplies
every shape (G = 0.85 puts the median at ASC White's 0.79, Table 3.5).
"""
from __future__ import annotations

import argparse
import sys

import h5py
import numpy as np


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("fit")
    ap.add_argument("--system", type=int, required=True)
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--years", type=float, default=2.0)
    ap.add_argument("--downtime-h", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale-factor", type=float, default=1.0,
                    help="multiply every node's scale (default 1)")
    ap.add_argument("--shape-factor", type=float, default=1.0,
                    help="multiply every node's shape (default 1)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    for name in ("scale_factor", "shape_factor"):
        v = getattr(a, name)
        if not (v > 0 and np.isfinite(v)):
            ap.error(f"--{name.replace('_', '-')} {v}: expected a number > 0")
    with h5py.File(a.fit, "r") as f:
        g = f[f"system_{a.system}/nodes"]
        shape = g["weibull_censored_p1"][()]
        scale_h = g["weibull_censored_p2"][()]
    ok = np.isfinite(shape) & np.isfinite(scale_h) & (shape > 0) & (scale_h > 0)
    if not ok.any():
        print("gottumukkala_ch6_trace.py: no fitted node in the fit file", file=sys.stderr)
        return 2
    shape, scale_h = shape[ok] * a.shape_factor, scale_h[ok] * a.scale_factor
    rng = np.random.default_rng(a.seed)
    pick = rng.integers(0, len(shape), a.nodes)
    horizon_s = a.years * 365 * 86400
    down_s = a.downtime_h * 3600
    rows = []
    for n in range(a.nodes):
        b, s = shape[pick[n]], scale_h[pick[n]] * 3600
        t = 0.0
        while True:
            t += s * rng.weibull(b)
            if t >= horizon_s:
                break
            rows.append((t, n))
            t += down_s
    rows.sort()
    with open(a.out, "w") as out:
        out.write("time_s,node,downtime_s\n")
        for t, n in rows:
            out.write(f"{t:.3f},{n},{down_s:g}\n")
    print(f"wrote {a.out}: {len(rows)} failures of {a.nodes} nodes over {a.years:g} years "
          f"(shapes drawn from {len(shape)} fitted nodes, median {np.median(shape[pick]):.3g}; "
          f"scale median {np.median(scale_h[pick]):.4g} h)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
