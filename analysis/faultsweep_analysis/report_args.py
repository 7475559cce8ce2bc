"""The arguments of the reproduction report, defined once for both ways to start it:
`faultsweep-analysis report` (cli.py) and `python3 -m reproduce.report`. It lives here, below
both, so that neither has to import the other (cli.py starts the report; the report does not
need the rest of the command line)."""
from __future__ import annotations

import argparse

PAPERS = ("plank", "zhang", "fars", "gottumukkala")


def add_report_arguments(rep: argparse.ArgumentParser) -> argparse.ArgumentParser:
    rep.add_argument("--results", required=True, help="results root, e.g. results/quick")
    rep.add_argument("--out", required=True, help="report folder (index.html, one page per paper)")
    rep.add_argument("--mode", choices=("quick", "full", "tiny"), default="full")
    rep.add_argument("--markdown", help="also write the tables as Markdown into this folder")
    rep.add_argument("--papers", nargs="+", choices=PAPERS, default=list(PAPERS))
    return rep
