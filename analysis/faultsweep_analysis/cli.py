"""Command line: faultsweep-analysis {summary,plot,heatmap,runtime-map} FILE.h5 ...
                faultsweep-analysis report --results DIR --out DIR (the reproduction report)
                faultsweep-analysis {gantt,timeline,wait-size} FILE.h5 --point P --replica R
                    --out PNG|SVG (a recorded replica: job file key sweep.record; gantt also
                    --from TIME --to TIME --nodes FIRST-LAST)
                faultsweep-analysis scaling CSV --out PNG (bench_scaling's output)
(or python3 -m faultsweep_analysis ... without installing the package).

Exit codes (one line on stderr for each error): 0 success; 2 bad arguments, or a file of
another kind (not HDF5, or HDF5 but not what the subcommand reads); 3 a file that could not be
read or written (missing, unreadable, an HDF5 file cut short or damaged, an output folder that
does not exist or is full).
"""
from __future__ import annotations

import argparse
import os
import sys
import warnings

import pandas as pd

from .report_args import add_report_arguments
from .files import EXIT_BAD_INPUT, EXIT_UNREADABLE, FileProblem, check_hdf5, one_line
from .results import open_results


def _fixed(pairs: list[str] | None) -> dict[str, str]:
    out = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--fix {pair!r}: expected AXIS=VALUE (e.g. --fix I=2h)")
        out[key.strip()] = value.strip()
    return out


def build_parser(prog: str = "faultsweep-analysis") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Summaries and figures from a faultsweep results file (HDF5, schema 1).",
    )
    sub = p.add_subparsers(dest="command", required=True)

    # argparse formats help text with %: a literal percent sign is written %%.
    s = sub.add_parser("summary",
                       help="print one row per point: axes, metric means and 95 %% CIs")
    s.add_argument("file")
    s.add_argument("--metrics", help="comma-separated metrics (default: all)")
    s.add_argument("--stats", default="mean,ci95_lo,ci95_hi",
                   help="comma-separated stats among n,mean,std,sem,ci95_lo,ci95_hi "
                        "(default: mean,ci95_lo,ci95_hi)")
    s.add_argument("--csv", metavar="OUT", help="also write the table as CSV")

    fix_help = "AXIS=VALUE: keep only points with this axis value (repeatable; durations " \
               "take suffixes s, min, h, d)"
    l = sub.add_parser("plot", help="a metric against one axis, one line per value of another")
    l.add_argument("file")
    l.add_argument("--metric", required=True)
    l.add_argument("--x", required=True, help="axis on the horizontal")
    l.add_argument("--by", help="one line per value of this axis")
    l.add_argument("--fix", action="append", metavar="AXIS=VALUE", help=fix_help)
    l.add_argument("--label", action="append", metavar="NAME=WORDS",
                   help="an axis or metric in words, e.g. --label 'a=active processors a' "
                        "(repeatable; the unit is added)")
    l.add_argument("--title", help="the figure's title (default: metric, model, fixed axes)")
    l.add_argument("--panels", choices=("auto", "yes", "no"), default="auto",
                   help="one panel per --by value (auto: when there are more than four)")
    l.add_argument("--out", required=True, help="PNG file to write")

    h = sub.add_parser("heatmap", help="a metric over two axes")
    h.add_argument("file")
    h.add_argument("--metric", required=True)
    h.add_argument("--x", required=True)
    h.add_argument("--y", required=True)
    h.add_argument("--fix", action="append", metavar="AXIS=VALUE", help=fix_help)
    h.add_argument("--mark", choices=["max", "min", "none"], default="max",
                   help="mark the largest (default) or smallest cell, or none")
    h.add_argument("--out", required=True, help="PNG file to write")
    r = sub.add_parser("runtime-map", help="Plank & Thomason's expected running time RT_a / A "
                       "over a x I with the optimum (a markov_availability file, mode evaluate)")
    r.add_argument("file", help="markov_availability results over axes a and I")
    r.add_argument("--sim", help="checkpoint_sim results over a and I: adds the simulation's "
                   "difference from the chain")
    r.add_argument("--out", required=True, help="PNG file to write")

    for name, what in (("gantt", "nodes x time: jobs, failures, repairs, migrations"),
                       ("timeline", "busy nodes and queue length over time"),
                       ("wait-size", "each job's wait against its size")):
        g = sub.add_parser(name, help=f"of a recorded replica (sweep.record): {what}")
        g.add_argument("file")
        g.add_argument("--point", type=int, default=0)
        g.add_argument("--replica", type=int, default=0)
        g.add_argument("--out", required=True, help="PNG or SVG file to write")
        if name == "gantt":
            g.add_argument("--from", dest="t_from", metavar="TIME",
                           help="start of the time window (seconds, or 90s, 5min, 2h, 3d)")
            g.add_argument("--to", dest="t_to", metavar="TIME", help="end of the time window")
            g.add_argument("--nodes", metavar="FIRST-LAST", help="node range, e.g. 0-31")

    c = sub.add_parser("scaling", help="cost curves of bench_scaling's CSV: slopes and a plot")
    c.add_argument("file", help="CSV written by build/bench/bench_scaling")
    c.add_argument("--out", required=True, help="PNG file to write")
    c.add_argument("--markdown", help="also write the cost table (jobs per CPU s, slopes, peak "
                   "memory) as Markdown to this file")
    rep = sub.add_parser("report", help="the reproduction report (HTML + Markdown) from the "
                         "results of scripts/reproduce.sh; needs analysis/ on PYTHONPATH")
    add_report_arguments(rep)
    return p


def _warn_to_stderr(message, category, filename, lineno, file=None, line=None):
    print(f"warning: {message}", file=sys.stderr)


def main(argv=None, prog: str = "faultsweep-analysis") -> int:
    args = build_parser(prog).parse_args(argv)
    warnings.showwarning = _warn_to_stderr
    try:
        # Every input file is looked at before any work: one line for a missing, foreign or
        # damaged file instead of a traceback from deep inside h5py.
        for path in (getattr(args, "file", None), getattr(args, "sim", None)):
            if path and args.command != "scaling":
                check_hdf5(path)
        if args.command == "scaling":
            from .scaling import markdown_table, plot_scaling, read_scaling, slopes

            frame = read_scaling(args.file)
            with pd.option_context("display.width", 200):
                print(slopes(frame).to_string(index=False, float_format=lambda v: f"{v:.3g}"))
            plot_scaling(frame, args.out)
            print(args.out)
            if args.markdown:
                with open(args.markdown, "w", encoding="utf-8") as f:
                    f.write(markdown_table(frame))
                print(args.markdown)
            return 0
        if args.command == "report":
            from reproduce.report.__main__ import run  # the checkout's analysis/reproduce

            return run(args)
        if args.command in ("gantt", "timeline", "wait-size"):
            from . import gantt
            from .records import records

            r = records(args.file, args.point, args.replica)
            title = f"{args.file}: point {args.point}, replica {args.replica}"
            if args.command == "gantt":
                window = None
                if args.t_from is not None or args.t_to is not None:
                    window = (gantt.parse_time(args.t_from) if args.t_from else r.attrs["start_s"],
                              gantt.parse_time(args.t_to) if args.t_to else r.attrs["end_s"])
                nodes = gantt.parse_nodes(args.nodes) if args.nodes else None
                print(gantt.plot_gantt(r, args.out, title=title, window=window, nodes=nodes))
                return 0
            draw = {"timeline": gantt.plot_timeline,
                    "wait-size": gantt.plot_wait_vs_size}[args.command]
            print(draw(r, args.out, title=title))
            return 0
        res = open_results(args.file)
        if args.command == "summary":
            metrics = [m.strip() for m in args.metrics.split(",")] if args.metrics else None
            stats = [s.strip() for s in args.stats.split(",") if s.strip()]
            frame = res.frame(metrics=metrics, stats=stats)
            print(f"# {res.path}: model {res.model}, {len(res)} points, "
                  f"{'complete' if res.complete else 'INCOMPLETE'}")
            units = ", ".join(f"{n} [{res.units(n)}]" for n in res.axes + (metrics or res.metrics))
            print(f"# units as stored: {units}")
            with pd.option_context("display.max_rows", None, "display.max_columns", None,
                                   "display.width", 200):
                print(frame.to_string(float_format=lambda v: f"{v:.6g}"))
            if args.csv:
                frame.to_csv(args.csv)
        elif args.command == "plot":
            from .plots import plot_metric_vs_axis

            words = {}
            for pair in args.label or []:
                key, sep, text = pair.partition("=")
                if not sep or not key.strip() or not text.strip():
                    raise ValueError(f"--label {pair!r}: expected NAME=WORDS "
                                     "(e.g. --label 'a=active processors a')")
                words[key.strip()] = text.strip()
            plot_metric_vs_axis(res, args.metric, args.x, by=args.by, out_png=args.out,
                                fixed=_fixed(args.fix), words=words, title=args.title,
                                panels={"auto": None, "yes": True, "no": False}[args.panels])
            print(args.out)
        elif args.command == "heatmap":
            from .plots import plot_heatmap

            plot_heatmap(res, args.metric, args.x, args.y, out_png=args.out,
                         fixed=_fixed(args.fix), mark=None if args.mark == "none" else args.mark)
            print(args.out)
        elif args.command == "runtime-map":
            from .runtime_map import plot_runtime_map

            sim = open_results(args.sim) if args.sim else None
            print(plot_runtime_map(res, sim, out_png=args.out)[1])
    except FileProblem as e:
        print(f"error: {e}", file=sys.stderr)
        return e.code
    except (ValueError, KeyError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"error: {one_line(msg)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as e:  # reading a damaged file, or writing --out (missing folder, full disk)
        where = f"{e.filename}: " if getattr(e, "filename", None) else ""
        print(f"error: {where}{one_line(e.strerror or e)}", file=sys.stderr)
        return EXIT_UNREADABLE
    return 0


def console(prog: str = "faultsweep-analysis") -> int:
    """Entry point of the `faultsweep-analysis` script and of `python3 -m faultsweep_analysis`."""
    try:
        return main(prog=prog)
    except BrokenPipeError:  # output piped into head(1) and closed early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
