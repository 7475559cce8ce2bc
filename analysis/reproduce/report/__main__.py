"""python3 -m reproduce.report --results DIR --out DIR [--mode quick|full|tiny]
                                [--markdown DIR] [--papers PAPER...]

Builds OUT/index.html and OUT/<paper>.html (figures in OUT/<paper>/ and OUT/*.png) from the
results files under DIR (DIR/<paper>/*.h5, as scripts/reproduce.sh writes them), and with
--markdown the same tables as DIR/<paper>.md. Exit status (one line on stderr for each error):
0; 2 bad arguments or a results file of another kind; 3 a results file that cannot be read
(empty, cut short, damaged) or a report file that cannot be written."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from faultsweep_analysis.report_args import add_report_arguments

from reproduce.report import fars_page, gottumukkala_page, plank_page, zhang_page
from reproduce.report.meta import page_meta
from reproduce.report.render_html import index_html, page_html
from reproduce.report.render_md import page_md

from faultsweep_analysis.files import FileProblem, check_hdf5, one_line

BUILDERS = {"plank": plank_page.build, "zhang": zhang_page.build, "fars": fars_page.build,
            "gottumukkala": gottumukkala_page.build}


def build(results: Path, out: Path, mode: str, papers: list[str], markdown: Path | None = None):
    out.mkdir(parents=True, exist_ok=True)
    pages, metas = [], {}
    for key in papers:
        page = BUILDERS[key](results, out)  # each row's grade follows from it (grades.py)
        meta = page_meta(page.sources, results)
        (out / f"{key}.html").write_text(page_html(page, meta, mode, out))
        if markdown is not None:
            markdown.mkdir(parents=True, exist_ok=True)
            (markdown / f"{key}.md").write_text(page_md(page, meta, mode))
        pages.append(page)
        metas[key] = meta
    (out / "index.html").write_text(index_html(pages, metas, mode))
    return pages


def run(args) -> int:
    results = Path(args.results)
    if not results.is_dir():
        print(f"report: --results {results}: not a directory", file=sys.stderr)
        return 2
    try:
        # Every results file the pages may read is looked at first: a damaged one is named in
        # one line, before any page is written.
        for paper in args.papers:
            for path in sorted((results / paper).rglob("*.h5")):
                check_hdf5(path)
        pages = build(results, Path(args.out), args.mode, args.papers,
                      Path(args.markdown) if args.markdown else None)
    except FileProblem as e:
        print(f"report: error: {e}", file=sys.stderr)
        return e.code
    except ValueError as e:
        print(f"report: error: {one_line(e)}", file=sys.stderr)
        return 2
    except OSError as e:
        where = f"{e.filename}: " if getattr(e, "filename", None) else ""
        print(f"report: error: {where}{one_line(e.strerror or e)}", file=sys.stderr)
        return 3
    for p in pages:
        print(f"report: {p.key}: {len(p.rows)} rows, {len(p.figures)} figures")
    print(f"report: {Path(args.out) / 'index.html'}")
    return 0


def main(argv=None) -> int:
    parser = add_report_arguments(argparse.ArgumentParser(prog="python3 -m reproduce.report"))
    return run(parser.parse_args(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    sys.exit(main())
