"""Tables 3.2, 3.3, 3.5 and Figs. 3.2-3.6 of Gottumukkala's thesis (2008) from a `faultsweep fit`
file, beside the thesis's ASC White numbers.

    python3 analysis/reproduce/gottumukkala_fit.py FIT.h5 [--system S ...] [--out DIR] [--no-figures]

For each system: Table 3.2 (how often each law has the highest K-S p, and how often it is within
the file's tie_tolerance of the best, as percentages of the fitted nodes), Table 3.3 (K-S p of the
exponential, Weibull and lognormal fits of systems of k nodes, in order and at random), Table 3.5
(min / max / mean / median / std of the per-node Weibull shape and scale; the thesis's table
swaps the two labels: its "scale" row, 0.47-1.58, is the shape), and figures (PNG):
fit_S_cdf.png (Fig. 3.2: empirical vs fitted CDFs of the node with most TTFs),
fit_S_spearman.png (Fig. 3.3), fit_S_acf.png (Fig. 3.4), fit_S_dw.png (Fig. 3.5),
fit_S_params.png (Fig. 3.6).
Exit status: 0 done, 2 bad arguments or not a faultsweep-fit file.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import h5py
import numpy as np
import pandas as pd

LAWS_DEFAULT = ["exponential", "weibull", "gamma", "lognormal"]
# ASC White (thesis Table 3.2): law -> (nodes with the highest p, percentage of nodes).
THESIS_3_2 = {"gamma": (79, 88.8), "lognormal": (75, 84.3), "exponential": (54, 60.7), "weibull": (80, 89.9)}
# Thesis Table 3.3 (in order | random): k -> p of the three columns as printed, read as
# exponential, Weibull, lognormal (the column headers are lost in the text).
THESIS_3_3_ORDER = {2: (0.2628, 0.8679, 0.5409), 4: (0.2049, 0.4310, 0.9034), 8: (0.1916, 0.9980, 0.8571),
                    16: (0.0818, 0.9845, 0.3269), 32: (0.0002, 0.6300, 0.0438), 64: (0.0001, 0.7122, 0.1538),
                    128: (0.0001, 0.2652, 0.0779), 256: (0.0001, 0.0599, 0.0001), 350: (0.0001, 0.0388, 0.0001)}
THESIS_3_3_RANDOM = {2: (0.6060, 0.4460, 0.6573), 4: (0.9940, 0.8151, 0.9852), 8: (0.2272, 0.5758, 0.7485),
                     16: (0.3193, 0.7091, 0.4671), 32: (0.4829, 0.4829, 0.2460), 64: (0.0224, 0.2484, 0.0785),
                     128: (0.0001, 0.1169, 0.0061), 256: (0.0001, 0.0453, 0.0001), 350: (0.0001, 0.0159, 0.0001)}
# Thesis Table 3.5 (labels corrected): shape and scale (hours) over ASC White's nodes.
THESIS_3_5 = {"shape": (0.4659, 1.582, 0.8396, 0.7923, 0.2374), "scale_h": (323.4, 5107, 2132, 1884, 1459)}
STATS = ("min", "max", "mean", "median", "std")


def _attr(obj, name, default=None):
    v = obj.attrs.get(name, default)
    return v.decode() if isinstance(v, bytes) else v


def open_fit(path) -> h5py.File:
    f = h5py.File(path, "r")
    if _attr(f, "filetype") != "faultsweep-fit":
        raise ValueError(f"{path}: filetype is {_attr(f, 'filetype')!r}, expected 'faultsweep-fit'")
    if int(_attr(f, "schema_version", -1)) != 1:
        raise ValueError(f"{path}: schema_version {_attr(f, 'schema_version')} is not 1")
    return f


def systems_of(f) -> list[str]:
    return [s for s in str(_attr(f, "systems", "")).split(",") if s]


def _indented(frame: pd.DataFrame, **kw) -> list[str]:
    return ["  " + line for line in frame.to_string(**kw).splitlines()]


def table_3_2(f, g) -> list[str]:
    laws = str(_attr(f, "laws")).split(",")
    n = int(_attr(g, "nodes_fitted"))
    best = g["best_law/best_count"][()]
    good = g["best_law/as_good_count"][()]
    frame = pd.DataFrame({
        "law": laws,
        "best": best.astype(int),
        "as good": good.astype(int),
        "% as good": 100 * good / n if n else np.nan,
        "thesis: best": [THESIS_3_2.get(law, (np.nan, np.nan))[0] for law in laws],
        "%": [THESIS_3_2.get(law, (np.nan, np.nan))[1] for law in laws],
    })
    return ([f"Table 3.2 analogue: {n} nodes fitted (thesis: ASC White, 89 nodes)"]
            + _indented(frame, index=False, float_format=lambda v: f"{v:.1f}"))


def table_3_3(g) -> list[str]:
    k = g["system_of_k"]
    rows = []
    for random, thesis in ((0, THESIS_3_3_ORDER), (1, THESIS_3_3_RANDOM)):
        for i in np.flatnonzero(k["random"][()] == random):
            kk = int(k["k"][i])
            th = thesis.get(kk)
            rows.append(["at random" if random else "in order", kk, int(k["ttf_count"][i]),
                         *(k[f"{law}_ks_p"][i] for law in ("exponential", "weibull", "lognormal")),
                         " / ".join(f"{v:.4f}" for v in th) if th else ""])
    frame = pd.DataFrame(rows, columns=["nodes", "k", "ttfs", "exponential", "weibull",
                                        "lognormal", "thesis (exp / Weibull / lognormal)"])
    return (["Table 3.3 analogue: K-S p of systems of k nodes, the thesis beside"]
            + _indented(frame, index=False, float_format=lambda v: f"{v:.4f}"))


def table_3_5(g) -> list[str]:
    s = g["summary"]
    rows = {}
    for name, key, th in (("shape", "weibull_shape", THESIS_3_5["shape"]),
                          ("scale h", "weibull_scale_h", THESIS_3_5["scale_h"])):
        ours = s[key][()]
        cens = s[key.replace("weibull_", "weibull_censored_")][()]
        rows[name] = [f"{o:.4g} [{c:.4g}]" for o, c in zip(ours, cens)]
        rows[f"{name}, thesis"] = [f"{t:.4g}" for t in th]
    rows["MTTF h"] = [f"{o:.4g}" for o in s["weibull_mttf_h"][()]]
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=list(STATS))
    return (["Table 3.5 analogue: per-node Weibull parameters (uncensored fits; censored in "
             "brackets)"] + _indented(frame))


def figures(g, system: str, out: Path) -> list[Path]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from scipy import stats

    written = []
    nodes, ttf = g["nodes"], g["ttf"]
    counts = nodes["ttf_count"][()]
    i = int(np.argmax(counts))
    x = np.sort(ttf["ttf_h"][()][ttf["node_index"][()] == i])
    fig, ax = plt.subplots(figsize=(6, 4))
    if len(x):
        ax.step(x, np.arange(1, len(x) + 1) / len(x), where="post", label="empirical", color="k")
        grid = np.linspace(0, x[-1], 400)
        cdfs = {
            "exponential": lambda p1, p2: stats.expon(scale=p1).cdf(grid),
            "weibull": lambda p1, p2: stats.weibull_min(p1, scale=p2).cdf(grid),
            "gamma": lambda p1, p2: stats.gamma(p1, scale=p2).cdf(grid),
            "lognormal": lambda p1, p2: stats.lognorm(p2, scale=np.exp(p1)).cdf(grid),
        }
        for law, cdf in cdfs.items():
            p1, p2 = nodes[f"{law}_p1"][i], nodes[f"{law}_p2"][i]
            if np.isfinite(p1):
                ax.plot(grid, cdf(p1, p2), label=f"{law} (K-S p {nodes[f'{law}_ks_p'][i]:.3f})")
    ax.set_xlabel("TTF (h)")
    ax.set_ylabel("CDF")
    ax.set_title(f"System {system}, node {int(nodes['node_id'][i])}: {len(x)} TTFs (Fig. 3.2)")
    ax.legend(fontsize=7)
    written.append(_save(fig, out / f"fit_{system}_cdf.png"))

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.hist(g["spearman"][()], bins=np.linspace(-1, 1, 21), color="0.5", edgecolor="k")
    ax.set_xlabel("Spearman rho of the i-th TTFs of node pairs")
    ax.set_ylabel("pairs")
    ax.set_title(f"System {system} (Fig. 3.3)")
    written.append(_save(fig, out / f"fit_{system}_spearman.png"))

    fig, ax = plt.subplots(figsize=(6, 4))
    order = np.argsort(counts)
    ax.plot(np.arange(len(order)), nodes["acf1"][()][order], ".", label="lag-1 autocorrelation")
    ax.plot(np.arange(len(order)), 2 / np.sqrt(np.maximum(counts[order], 1)), "r-", lw=0.8,
            label="2 / sqrt(n)")
    ax.set_xlabel("nodes ordered by number of TTFs")
    ax.set_ylabel("lag-1 autocorrelation of TTFs")
    ax.set_title(f"System {system} (Fig. 3.4)")
    ax.legend(fontsize=7)
    written.append(_save(fig, out / f"fit_{system}_acf.png"))

    k = g["system_of_k"]
    sel = k["random"][()] == 0
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.semilogx(k["k"][()][sel], k["durbin_watson"][()][sel], "o-")
    ax.axhline(2, color="0.5", lw=0.8)
    ax.set_xlabel("nodes k (in order)")
    ax.set_ylabel("Durbin-Watson of system TTFs")
    ax.set_title(f"System {system} (Fig. 3.5)")
    written.append(_save(fig, out / f"fit_{system}_dw.png"))

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.5))
    a1.plot(nodes["weibull_p2"][()], ".")
    a1.set_xlabel("node (row)")
    a1.set_ylabel("Weibull scale (h)")
    a2.plot(nodes["weibull_mttf_h"][()], ".")
    a2.set_xlabel("node (row)")
    a2.set_ylabel("MTTF (h)")
    fig.suptitle(f"System {system} (Fig. 3.6)")
    written.append(_save(fig, out / f"fit_{system}_params.png"))
    return written


def _save(fig, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--system", action="append", help="only these systems (repeatable)")
    ap.add_argument("--out", help="folder for PNGs (default: the file's folder)")
    ap.add_argument("--no-figures", action="store_true")
    a = ap.parse_args(argv)
    try:
        f = open_fit(a.file)
        chosen = a.system or systems_of(f)
        out = Path(a.out) if a.out else Path(a.file).resolve().parent
        for s in chosen:
            if f"system_{s}" not in f:
                raise ValueError(f"{a.file}: no system {s} (has {', '.join(systems_of(f))})")
            g = f[f"system_{s}"]
            print(f"== system {s}: {int(_attr(g, 'records'))} records, {int(_attr(g, 'nodes'))} nodes, "
                  f"{int(_attr(g, 'nodes_without_ttf'))} without a TTF, {int(_attr(g, 'zero_ttfs'))} "
                  f"same-minute repeats dropped")
            for line in table_3_2(f, g) + table_3_3(g) + table_3_5(g):
                print(line)
            if not a.no_figures:
                out.mkdir(parents=True, exist_ok=True)
                for p in figures(g, s, out):
                    print(f"wrote {p}")
    except (OSError, ValueError, KeyError) as e:
        print(f"gottumukkala_fit.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
