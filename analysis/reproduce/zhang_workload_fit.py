"""Fit the `zhang` synthetic workload source to the CTC-SP2 window of jobs/zhang.

Zhang et al. (JSSPP 2004) §3.1 take their workload from a hyper-Erlang-of-common-order model of
an LLNL trace, citing [11] = Franke, Jann, Moreira, Pattnaik & Jette, "Evaluation of Parallel Job
Scheduling for ASCI Blue-Pacific", SC'99 (the method is Jann et al., "Modeling of workload in
MPPs", JSSPP 1997). Neither paper is in /work/shared/papers and the Zhang paper prints none of
the fitted parameters, so we fit the same model family to the CTC-SP2 window instead:

  run times: hyper-Erlang of common order n with m branches, maximum likelihood by EM
             (branch weights p_i, rates r_i; M-step r_i = n sum_j w_ij / sum_j w_ij x_j), order
             and branch count chosen by BIC over n in 1..4, m in 2..4;
  sizes:     the generator's Lublin-Feitelson rigid-size model (serial_prob, pow2_prob,
             two-stage log-uniform lo / mid / hi / p_low), maximum likelihood of the exact
             discrete size law over a grid (hi fixed at log2(nodes));
  arrivals:  Poisson with the window's mean gap (the generator has no other arrival model).

    python3 analysis/reproduce/zhang_workload_fit.py data/workloads/CTC-SP2-1996-3.1-cln.swf.gz

prints the parameters as a TOML workload table for jobs/zhang/sensitivity/synthetic*.toml.
"""
from __future__ import annotations

import argparse
import gzip
import math
import sys
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln


def read_window(path, nodes: int = 320, max_jobs: int = 14000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(submit_s, runtime_s, size) of the first `max_jobs` usable jobs, as the SWF reader keeps
    them (size = requested processors, else allocated; run time > 0; 1 <= size <= nodes;
    sorted by submit time, then job number)."""
    opener = gzip.open if str(path).endswith(".gz") else open
    rows = []
    with opener(path, "rt") as f:
        for line in f:
            if line.startswith(";") or not line.strip():
                continue
            p = line.split()
            if len(p) != 18:
                continue
            jid, sub, rt, alloc, req = float(p[0]), float(p[1]), float(p[3]), float(p[4]), float(p[7])
            size = req if req > 0 else alloc
            if sub < 0 or rt <= 0 or size <= 0 or size > nodes:
                continue
            rows.append((sub, jid, rt, size))
    rows.sort()
    a = np.array(rows[:max_jobs], dtype=float)
    return a[:, 0] - a[0, 0], a[:, 2], a[:, 3].astype(int)


# ------------------------------------------------------------------------------ hyper-Erlang
@dataclass
class HyperErlangFit:
    order: int
    probs: np.ndarray
    means: np.ndarray  # branch means n / r_i, seconds
    loglik: float

    @property
    def bic(self) -> float:
        k = 2 * len(self.probs) - 1
        return -2 * self.loglik + k * math.log(self.n)

    n: int = 0

    def mean(self) -> float:
        return float(np.sum(self.probs * self.means))

    def scv(self) -> float:
        """Squared coefficient of variation: E[X^2] / E[X]^2 - 1 with E[X^2] = sum p (n+1)/n m^2."""
        m2 = float(np.sum(self.probs * self.means ** 2 * (self.order + 1) / self.order))
        return m2 / self.mean() ** 2 - 1


def _branch_logpdf(x: np.ndarray, order: int, rates: np.ndarray) -> np.ndarray:
    """[m, N] log Erlang(order, rate) densities."""
    lx = np.log(x)
    return (order * np.log(rates)[:, None] + (order - 1) * lx[None, :]
            - rates[:, None] * x[None, :] - gammaln(order))


def fit_hyper_erlang(x, branches: int, order: int, iters: int = 2000, tol: float = 1e-10) -> HyperErlangFit:
    """EM for a hyper-Erlang of common order (Thümmler, Buchholz & Telek 2006, the common-order
    case): E-step branch responsibilities, M-step weights and rates in closed form."""
    x = np.asarray(x, dtype=float)
    xs = np.sort(x)
    groups = np.array_split(xs, branches)
    rates = np.array([order / g.mean() for g in groups])
    probs = np.full(branches, 1.0 / branches)
    prev = -math.inf
    ll = prev
    for _ in range(iters):
        logp = np.log(probs)[:, None] + _branch_logpdf(x, order, rates)
        top = logp.max(axis=0)
        tot = top + np.log(np.exp(logp - top).sum(axis=0))
        ll = float(tot.sum())
        w = np.exp(logp - tot)
        s = w.sum(axis=1)
        probs = s / s.sum()
        rates = order * s / (w @ x)
        if ll - prev < tol * abs(ll):
            break
        prev = ll
    order_idx = np.argsort(order / rates)
    return HyperErlangFit(order, probs[order_idx], (order / rates)[order_idx], ll, n=len(x))


def select_hyper_erlang(x, orders=(1, 2, 3, 4), branches=(2, 3, 4)) -> HyperErlangFit:
    """The fit of least BIC over the given orders and branch counts."""
    fits = [fit_hyper_erlang(x, m, n) for n in orders for m in branches]
    return min(fits, key=lambda f: f.bic)


# ------------------------------------------------------------------------------------- sizes
def _two_stage_cdf(u, lo, mid, hi, p_low):
    u = np.asarray(u, dtype=float)
    a = np.clip((u - lo) / (mid - lo), 0, 1) if mid > lo else (u >= lo).astype(float)
    b = np.clip((u - mid) / (hi - mid), 0, 1) if hi > mid else (u >= hi).astype(float)
    return p_low * a + (1 - p_low) * b


def size_pmf(nodes: int, serial: float, pow2: float, lo: float, mid: float, p_low: float,
             hi: float | None = None) -> np.ndarray:
    """P(size = s), s = 1..nodes, of the generator's LublinSizes (workload/generators.cpp):
    serial w.p. serial, else u ~ two-stage log-uniform and 2^round(u) (capped at the largest
    power of two <= nodes) w.p. pow2, else round(2^u)."""
    hi = math.log2(nodes) if hi is None else hi
    pmf = np.zeros(nodes + 1)
    pmf[1] += serial
    top = int(math.floor(math.log2(nodes)))
    edges = np.arange(top + 1) + 0.5
    c = _two_stage_cdf(edges, lo, mid, hi, p_low)
    pk = np.diff(np.concatenate([[0.0], c]))
    pk[-1] += 1 - c[-1]  # rounds above the largest power of two are capped there
    for k, p in enumerate(pk):
        pmf[2 ** k] += (1 - serial) * pow2 * p
    s = np.arange(1, nodes + 1)
    up = _two_stage_cdf(np.log2(s + 0.5), lo, mid, hi, p_low)
    down = _two_stage_cdf(np.log2(np.maximum(s - 0.5, 1e-300)), lo, mid, hi, p_low)
    pmf[1:] += (1 - serial) * (1 - pow2) * (up - down)
    return pmf[1:]


def fit_sizes(sizes, nodes: int, lo: float = 0.8) -> dict:
    """Maximum likelihood over a grid of serial_prob, pow2_prob, mid, p_low (lo = Lublin's 0.8,
    hi = log2(nodes))."""
    sizes = np.asarray(sizes, dtype=int)
    counts = np.bincount(sizes, minlength=nodes + 1)[1:]
    best = None
    f1 = counts[0] / counts.sum()
    for serial in np.clip(f1 - np.arange(0, 0.1, 0.01), 0, 1):
        for pow2 in np.arange(0.30, 0.96, 0.05):
            for mid in np.arange(lo + 0.25, math.log2(nodes) - 0.2, 0.25):
                for p_low in np.arange(0.05, 0.96, 0.05):
                    pmf = size_pmf(nodes, serial, pow2, lo, mid, p_low)
                    with np.errstate(divide="ignore"):
                        ll = float(np.sum(counts * np.log(np.where(pmf > 0, pmf, 1e-300))))
                    if best is None or ll > best[0]:
                        best = (ll, dict(serial_prob=round(float(serial), 3), pow2_prob=round(float(pow2), 2),
                                         size_lo_log2=lo, size_mid_log2=round(float(mid), 2),
                                         size_p_low=round(float(p_low), 2)))
    return best[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("swf")
    ap.add_argument("--nodes", type=int, default=320)
    ap.add_argument("--max-jobs", type=int, default=14000)
    args = ap.parse_args(argv)
    submit, rt, size = read_window(args.swf, args.nodes, args.max_jobs)
    fit = select_hyper_erlang(rt)
    sz = fit_sizes(size, args.nodes)
    gap = float(np.diff(submit).mean())
    print(f"# {len(rt)} jobs; run time mean {rt.mean():.0f} s, scv {rt.var() / rt.mean() ** 2:.2f}; "
          f"fit mean {fit.mean():.0f} s, scv {fit.scv():.2f}, order {fit.order}, "
          f"{len(fit.probs)} branches, log-lik {fit.loglik:.1f}")
    print(f"# serial {np.mean(size == 1):.3f}; mean gap {gap:.1f} s")
    shown = [round(float(p), 4) for p in fit.probs[:-1]]  # printed to sum to 1 exactly
    probs = ", ".join(f"{p:.4f}" for p in shown + [1 - sum(shown)])
    means = ", ".join(f"{m:.0f}s" for m in fit.means)
    print(f'workload = {{ source = "zhang", jobs = {len(rt)}, mean_interarrival = "{gap:.1f}s", '
          f'runtime_order = {fit.order}, runtime_probs = "{probs}", runtime_means = "{means}", '
          + ", ".join(f"{k} = {v}" for k, v in sz.items()) + " }")
    return 0


if __name__ == "__main__":
    sys.exit(main())
