#!/usr/bin/python3
"""Reference values for tests/unit/test_reliability_scipy.cpp, computed once with scipy.stats.

Run: /usr/bin/python3 tests/reference/reliability_reference.py   (scipy 1.10.1, numpy 1.24.2)
The samples are printed too: the C++ test holds them literally. Uncensored MLEs come from
scipy.stats.<law>.fit(x, floc=0) (gamma and lognormal in closed form there; the Weibull by
scipy's optimizer, refined here by a tight minimisation of scipy's own nnlf). scipy 1.10 has no
CensoredData, so censored MLEs maximise sum logpdf(failures) + sum logsf(censored) of
scipy.stats laws with scipy.optimize (Nelder-Mead, tolerances 1e-12). Standard errors: the
inverse of a central-difference Hessian of that log-likelihood (step 1e-4 relative).
K-S p-values: scipy.stats.kstest with method="exact" (n <= 100) and method="asymp".
"""
import numpy as np
from scipy import optimize, stats

rng = np.random.default_rng(20081110)
W = np.round(stats.weibull_min.rvs(0.8, scale=1500.0, size=30, random_state=rng), 1)
L = np.round(stats.lognorm.rvs(1.3, scale=np.exp(5.0), size=40, random_state=rng), 1)
C = np.array([2500.0, 800.0, 4000.0, 150.0])  # right-censored survivals added to W
BIG = np.round(stats.gamma.rvs(2.0, scale=300.0, size=500, random_state=rng), 3)

LAWS = {
    "weibull": (stats.weibull_min, lambda p: dict(c=p[0], scale=p[1])),
    "gamma": (stats.gamma, lambda p: dict(a=p[0], scale=p[1])),
    "lognormal": (stats.lognorm, lambda p: dict(s=p[1], scale=np.exp(p[0]))),
}


def loglik(law, p, x, c=()):
    d, kw = LAWS[law]
    if p[1] <= 0 or (law != "lognormal" and p[0] <= 0):
        return -np.inf
    return np.sum(d.logpdf(x, **kw(p))) + np.sum(d.logsf(np.asarray(c), **kw(p)))


def mle(law, x, c=()):
    d, _ = LAWS[law]
    if law == "weibull":
        k, _, s = d.fit(x, floc=0)
        p0 = [k, s]
    elif law == "gamma":
        a, _, s = d.fit(x, floc=0)
        p0 = [a, s]
    else:
        s, _, sc = d.fit(x, floc=0)
        p0 = [np.log(sc), s]
    if law == "weibull" or len(c):
        res = optimize.minimize(lambda p: -loglik(law, p, x, c), p0, method="Nelder-Mead",
                                options=dict(xatol=1e-12, fatol=1e-12, maxiter=20000))
        p0 = list(res.x)
    return p0


def se(law, p, x, c=()):
    h = [1e-4 * max(abs(v), 1e-3) for v in p]
    f = lambda a, b: loglik(law, [a, b], x, c)
    f0 = f(*p)
    H = np.zeros((2, 2))
    H[0, 0] = (f(p[0] + h[0], p[1]) - 2 * f0 + f(p[0] - h[0], p[1])) / h[0] ** 2
    H[1, 1] = (f(p[0], p[1] + h[1]) - 2 * f0 + f(p[0], p[1] - h[1])) / h[1] ** 2
    H[0, 1] = H[1, 0] = (f(p[0] + h[0], p[1] + h[1]) - f(p[0] + h[0], p[1] - h[1])
                         - f(p[0] - h[0], p[1] + h[1]) + f(p[0] - h[0], p[1] - h[1])) / (4 * h[0] * h[1])
    return np.sqrt(np.diag(np.linalg.inv(-H)))


def cdf(law, p):
    d, kw = LAWS[law]
    return lambda t: d.cdf(t, **kw(p))


def show(name, values):
    print(f"  {name}: {{{', '.join(repr(float(v)) for v in values)}}}")


print("samples")
show("W", W)
show("L", L)
show("C", C)
print(f"  BIG: gamma(2, 300) n=500, rng seed 20081110 (third draw); sum={BIG.sum()!r}")
print("exponential W: mean", W.mean(), "censored mean", (W.sum() + C.sum()) / len(W))
for law in LAWS:
    for tag, x, c in (("W", W, ()), ("L", L, ()), ("W+C", W, C)):
        p = mle(law, x, c)
        s = se(law, p, x, c)
        line = f"{law} {tag}: p = {p[0]!r}, {p[1]!r}; se = {s[0]!r}, {s[1]!r}; loglik = {loglik(law, p, x, c)!r}"
        if not len(c):
            ks = stats.kstest(x, cdf(law, p), method="exact")
            line += f"; ks D = {ks.statistic!r}, p_exact = {ks.pvalue!r}"
        print(line)
# The exponential K-S (a one-parameter law) on W, exact.
ks = stats.kstest(W, stats.expon(scale=W.mean()).cdf, method="exact")
print(f"exponential W: ks D = {ks.statistic!r}, p_exact = {ks.pvalue!r}")
# Asymptotic p on a large sample against its own gamma MLE.
a, _, s = stats.gamma.fit(BIG, floc=0)
ks = stats.kstest(BIG, stats.gamma(a, scale=s).cdf, method="asymp")
print(f"gamma BIG: p = {a!r}, {s!r}; ks D = {ks.statistic!r}, p_asymp = {ks.pvalue!r}")
print("kstwo.sf(0.1, 30) =", stats.kstwo.sf(0.1, 30), "; kstwo.sf(0.3, 10) =", stats.kstwo.sf(0.3, 10),
      "; kstwo.sf(0.05, 100) =", stats.kstwo.sf(0.05, 100), "; kstwobign.sf(1.0) =", stats.kstwobign.sf(1.0))
print("spearman(W[:20], L[:20]) =", stats.spearmanr(W[:20], L[:20]).correlation,
      "; pearson =", stats.pearsonr(W[:20], L[:20])[0])
e = W - W.mean()
print("durbin_watson(W) =", np.sum(np.diff(e) ** 2) / np.sum(e ** 2))
obs = np.array([30, 21, 16, 8, 5, 20.0])
exp_ = np.array([29.1, 19.8, 13.8, 9.8, 7.0, 20.5])
print("chisquare(Fig 4.3 counts, ddof=2) =", stats.chisquare(obs, exp_ * obs.sum() / exp_.sum(), ddof=2))
print("chi2.sf(1.365, 3) =", stats.chi2.sf(1.365, 3))
