#!/usr/bin/python3
"""Compare two results files of one job, written by two faultsweep builds (scripts/equivalence.sh).

The gate for a change that may move results in their last bits:
  - every real metric (/results/<metric>, /summary/<metric>/*) within relative 1e-12 of the old
    value, or within 1e-12 x the metric's scale (the largest |value| of that metric in either file)
    where the values are near zero;
  - every integral metric (all its values whole numbers in the old file: counts, decisions, a
    chosen k) identical;
  - /results/done, /points, /inputs and everything under /records (every start, end and node set of
    a recorded schedule) identical;
  - NaN where the old file has NaN, and nowhere else.
The file's own metadata (created_utc, git_sha, faultsweep_version, compiler, results_version) may
differ. Prints one line per metric with the largest relative difference, then PASS or FAIL;
exit 0 on PASS, 1 on FAIL, 2 when a file cannot be read.

  equivalence_compare.py OLD.h5 NEW.h5 [--rtol 1e-12] [--label NAME]
"""
import argparse
import sys

import numpy as np

try:
    import h5py
except ImportError:  # pragma: no cover
    sys.exit("equivalence_compare.py: needs h5py (Debian: python3-h5py)")

META = {"created_utc", "git_sha", "faultsweep_version", "compiler", "results_version"}


def datasets(f):
    out = {}
    f.visititems(lambda name, obj: out.__setitem__(name, obj) if isinstance(obj, h5py.Dataset) else None)
    return out


def rel_diff(a, b):
    """Largest |a - b| / max(|a|, |b|) over finite pairs (0 where both are 0)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    fin = np.isfinite(a) & np.isfinite(b)
    if not fin.any():
        return 0.0
    d = np.abs(a[fin] - b[fin])
    m = np.maximum(np.abs(a[fin]), np.abs(b[fin]))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(d == 0, 0.0, d / np.where(m == 0, 1.0, m))
    return float(r.max())


def compare_real(a, b, rtol):
    """(ok, largest relative difference, why) for two arrays of a real metric."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return False, float("inf"), f"shape {a.shape} vs {b.shape}"
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if (nan_a != nan_b).any():
        return False, float("inf"), f"NaN in {int((nan_a != nan_b).sum())} place(s) of one file only"
    inf_a, inf_b = np.isinf(a), np.isinf(b)
    if (inf_a != inf_b).any() or (a[inf_a] != b[inf_b]).any():
        return False, float("inf"), "an infinite value differs"
    fin = np.isfinite(a)
    if not fin.any():
        return True, 0.0, ""
    scale = max(float(np.abs(a[fin]).max()), float(np.abs(b[fin]).max()))
    d = np.abs(a[fin] - b[fin])
    m = np.maximum(np.abs(a[fin]), np.abs(b[fin]))
    ok = (d <= rtol * m) | (d <= rtol * scale)
    worst = rel_diff(a, b)
    if ok.all():
        return True, worst, ""
    i = int(np.argmax(np.where(ok, 0.0, d)))
    return False, worst, f"{a[fin][i]!r} vs {b[fin][i]!r} (scale {scale:.3g})"


def integral(x):
    x = np.asarray(x)
    if x.dtype.kind in "iub":
        return True
    if x.dtype.kind != "f":
        return False
    fin = x[np.isfinite(x)]
    return bool(np.all(fin == np.round(fin)))


def same_exactly(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype.kind != b.dtype.kind:
        return False
    if a.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rtol", type=float, default=1e-12)
    ap.add_argument("--label", default="")
    a = ap.parse_args(argv)
    label = a.label or a.new
    try:
        fo, fn = h5py.File(a.old, "r"), h5py.File(a.new, "r")
    except OSError as e:
        print(f"equivalence: {label}: cannot read: {e}", file=sys.stderr)
        return 2
    failures = []
    for key in sorted(set(fo.attrs) | set(fn.attrs)):
        if key in META:
            continue
        va, vb = fo.attrs.get(key), fn.attrs.get(key)
        if va is None or vb is None or not same_exactly(np.asarray(va), np.asarray(vb)):
            failures.append(f"root attribute {key}: {va!r} vs {vb!r}")
    do, dn = datasets(fo), datasets(fn)
    for name in sorted(set(do) ^ set(dn)):
        failures.append(f"/{name}: only in {'the old' if name in do else 'the new'} file")
    rows = []
    for name in sorted(set(do) & set(dn)):
        x, y = do[name][()], dn[name][()]
        real_metric = name.startswith(("results/", "summary/")) and name != "results/done"
        if real_metric and np.asarray(x).dtype.kind == "f" and not integral(x):
            ok, worst, why = compare_real(x, y, a.rtol)
            rows.append((name, "real", worst, ok))
            if not ok:
                failures.append(f"/{name}: beyond relative {a.rtol:g}: {why}")
        else:
            ok = same_exactly(x, y)
            rows.append((name, "exact", 0.0 if ok else float("inf"), ok))
            if not ok:
                failures.append(f"/{name}: must be identical and is not")
    for name, kind, worst, ok in rows:
        if name.startswith("results/") and name != "results/done":
            print(f"  {label}: {name[len('results/'):]:<32} {kind:<5} largest relative "
                  f"difference {worst:.3g}{'' if ok else '  FAIL'}")
    for f in failures:
        print(f"  {label}: FAIL {f}")
    print(f"equivalence: {label}: {'PASS' if not failures else 'FAIL'} "
          f"({len(rows)} datasets, {len(failures)} failure(s))")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
