"""HTML rendering: index.html and one self-contained page per paper (inline CSS, figures as PNG
files next to the page, evidence documents copied into evidence/, no network)."""
from __future__ import annotations

import html
import shutil
from pathlib import Path

from reproduce.report.meta import FileMeta
from reproduce.report.grades import GRADES, RULES
from reproduce.report.rows import Page

REPO = Path(__file__).resolve().parents[3]
CSS = """body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em}
table{border-collapse:collapse;margin:.6em 0;font-size:13px}td,th{border:1px solid #ccc;
padding:3px 6px;vertical-align:top}th{background:#f0f0f0}.AGREE{color:#05660d;font-weight:bold}
.CONSISTENT{color:#2d6a8f;font-weight:bold}.DIFFERS-explained{color:#a05a00;font-weight:bold}
.DIFFERS-unexplained{color:#a00;font-weight:bold}.NOT-COMPARABLE{color:#666;font-weight:bold}.banner{padding:.5em 1em;background:#fff3cd;
border:1px solid #e0c060;font-weight:bold}.figs{display:flex;flex-wrap:wrap;gap:1em}
figure{margin:0;max-width:560px}figure img{max-width:560px;border:1px solid #ddd}
figcaption{font-size:12px}code{font-size:12px}.mono{font-family:monospace;font-size:11px}"""
BANNER = {"quick": "QUICK run: fewer replicas than the papers' settings (wide CIs); "
                   "scripts/reproduce.sh --full for the papers' settings",
          "tiny": "TINY run: one job per paper at 2 replicas, a smoke test; not a reproduction",
          "full": "FULL run: the papers' settings (the job files as committed)"}


def esc(s) -> str:
    return html.escape(str(s))


def evidence_href(ev: str, out: Path) -> str:
    """A page anchor stays; a repository file is copied into out/evidence/ and linked there."""
    if not ev or ev.startswith("#"):
        return ev
    path, _, anchor = ev.partition("#")
    src = REPO / path
    if not src.exists():
        return ""
    name = path.replace("/", "__") + ".txt"
    (out / "evidence").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, out / "evidence" / name)
    return f"evidence/{name}" + (f"#{anchor}" if anchor else "")


def _doc(title: str, body: list[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{esc(title)}</title><link rel=\"icon\" href=\"data:,\">"
            f"<style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _table(header, rows, cls=None) -> list[str]:
    out = ["<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>")
    return out + ["</table>"]


def counts(page: Page) -> dict[str, int]:
    """Rows per grade, in GRADES order (every grade present, 0 when none)."""
    return {g: sum(r.verdict == g for r in page.rows) for g in GRADES}


def grade_span(g: str, text: str | None = None) -> str:
    return f"<span class=\"{g}\">{esc(g if text is None else text)}</span>"


def counts_line(page: Page) -> str:
    c = counts(page)
    return ", ".join(grade_span(g, f"{n} {g}") for g, n in c.items())


def shown_why(r) -> tuple[str, str]:
    """(explanation, evidence) a reader needs: for a difference or other data; for AGREE or
    CONSISTENT only a link to the numbers behind a summary (a finding's table)."""
    if r.verdict.startswith("DIFFERS") or r.verdict == "NOT-COMPARABLE":
        return r.explanation, r.evidence
    return "", r.evidence if r.evidence.startswith("#") and r.evidence[1:] == r.item else ""


def page_html(page: Page, meta: list[FileMeta], mode: str, out: Path) -> str:
    body = [f"<p><a href=\"index.html\">All papers</a></p><h1>{esc(page.title)}</h1>",
            f"<p class=\"banner\">{esc(BANNER[mode])}</p>", f"<p>{esc(page.citation)}</p>",
            f"<p>{len(page.rows)} printed numbers or claims: {counts_line(page)}. The grades "
            "follow one rule table (docs/reproduce.md): AGREE within a tolerance stated in the "
            "row; CONSISTENT when the claim's direction or bound holds but its size is not "
            "checked; NOT-COMPARABLE on other data than the paper's.</p>"]
    body += [f"<p>Not in this report: {esc(n)}</p>" for n in page.notes]
    rows = []
    for r in page.rows:
        text, ev = shown_why(r)
        href = evidence_href(ev, out)
        why = esc(text) + (f" (<a href=\"{esc(href)}\">{'numbers' if not text else 'evidence'}"
                           "</a>)" if href else "")
        rows.append([esc(r.section), esc(r.item), esc(r.kind), esc(r.paper), esc(r.ours),
                     grade_span(r.verdict), esc(r.tolerance), why])
    body += ["<h2>Ours beside the paper</h2>"]
    body += _table(["where", "what", "claim", "paper", "ours (95 % interval, or exact)", "grade",
                    "rule: tolerance and why", "why it differs"], rows)
    for t in page.tables:
        body += [f"<h2 id=\"{esc(t.anchor)}\">{esc(t.title)}</h2>"]
        body += _table(t.header, [[esc(c) for c in r] for r in t.rows])
        if t.note:
            body.append(f"<p>{esc(t.note)}</p>")
    if page.figures:
        body += ["<h2>Figures</h2><div class=\"figs\">"]
        for f in page.figures:
            body.append(f"<figure><img src=\"{esc(f.png)}\" alt=\"{esc(f.paper)}\"><figcaption>"
                        f"<b>Paper:</b> {esc(f.paper)}<br><b>Ours:</b> {esc(f.ours)}</figcaption>"
                        "</figure>")
        body.append("</div>")
    body += ["<h2>Run metadata</h2>"]
    mrows = [[f"<code>{esc(Path(m.path).name)}</code>", esc(m.job_file), esc(m.git_sha),
              esc(m.created_utc), esc(m.replicas), esc(m.complete_text()),
              esc(m.wall_s), esc(m.ranks),
              "<span class=\"mono\">" + "<br>".join(f"{esc(Path(p).name)} {esc(s)}"
                                                    for p, s in m.inputs) + "</span>"]
             for m in meta]
    body += _table(["results file", "job file", "git revision", "created (UTC)", "replicas",
                    "complete", "wall time (s)", "ranks", "inputs (SHA-256)"], mrows)
    return _doc(page.title, body)


def index_html(pages: list[Page], metas: dict[str, list[FileMeta]], mode: str) -> str:
    revs = sorted({m.git_sha for ms in metas.values() for m in ms if m.git_sha})
    body = ["<h1>faultsweep: the papers reproduced</h1>",
            f"<p class=\"banner\">{esc(BANNER[mode])}</p>",
            "<p>For every number or claim a paper prints: ours beside it with its 95 % interval "
            "(or 'exact' for a deterministic value), a grade by the rules below, and why it "
            "differs where it does. All numbers are read from the results files when this "
            "report is built.</p>"]
    rows = []
    for p in pages:
        c = counts(p)
        ms = metas.get(p.key, [])
        wall = sum(int(m.wall_s) for m in ms if m.wall_s.isdigit())
        ranks = ", ".join(sorted({m.ranks for m in ms if m.ranks})) or "n/a"
        rows.append([f"<a href=\"{p.key}.html\">{esc(p.title)}</a>", str(len(p.rows)),
                     *(grade_span(g, str(n)) for g, n in c.items()), str(len(p.figures)),
                     str(len(ms)), str(wall), esc(ranks)])
    body += _table(["paper", "rows", *GRADES, "figures", "results files", "job wall time (s)",
                    "ranks"], rows)
    body += ["<h2>How a row is graded</h2>",
             "<p>Each row states the kind of claim the paper makes; one function (grades.py) "
             "turns it, the numbers and the tolerance into a grade, by these rules, in order:</p>"]
    body += _table(["claim", "when", "grade"], [[esc(k), esc(w), grade_span(g)]
                                                for k, w, g in RULES])
    body.append(f"<p>git revision of the results: {esc(', '.join(revs) or 'n/a')}</p>")
    return _doc("faultsweep reproduction report", body)
