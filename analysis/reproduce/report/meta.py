"""Run metadata of a page: per results file its git revision, creation time, job file and
SHA-256s of the job and of every input (all stored in the file by `faultsweep run`), replicas,
complete or not, and the wall time and ranks of the run that wrote it (RESULTS/timings.tsv,
written by scripts/reproduce.sh)."""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import h5py


def _text(v) -> str:
    if isinstance(v, bytes):
        return v.decode()
    if hasattr(v, "item") and getattr(v, "shape", None) == ():
        v = v.item()  # a numpy scalar
        return v.decode() if isinstance(v, bytes) else str(v)
    return str(v)


@dataclass
class FileMeta:
    path: str
    git_sha: str = ""
    created_utc: str = ""
    job_file: str = ""
    job_sha256: str = ""
    replicas: str = ""
    complete: bool = False
    inputs: list[tuple[str, str]] = field(default_factory=list)  # (path, sha256)
    wall_s: str = "not recorded"
    ranks: str = ""
    mode: str = ""
    filetype: str = ""  # "faultsweep-fit" for a `faultsweep fit` file (no sweep, no replicas)

    def complete_text(self) -> str:
        """A sweep's results file is complete when every point's replicas are in; a fit file
        has no partial state (the fit writes it in one piece after reading the whole log)."""
        if self.filetype == "faultsweep-fit":
            return "yes (a fit of the whole log, written in one piece)"
        return "yes" if self.complete else "NO"


def timings(results: Path) -> dict[str, dict]:
    """Results file (resolved path) -> the last 'ran' line of timings.tsv for it."""
    out: dict[str, dict] = {}
    f = results / "timings.tsv"
    if not f.exists():
        return out
    names = ("job", "out", "seconds", "ranks", "mode", "status", "utc")
    with f.open() as fh:
        for rec in csv.reader(fh, delimiter="\t"):
            row = dict(zip(names, rec))
            if row.get("status") == "ran":
                out[str(Path(row["out"]).resolve())] = row
    return out


def file_meta(path: Path, times: dict[str, dict]) -> FileMeta:
    m = FileMeta(str(path))
    with h5py.File(path, "r") as f:
        a = f.attrs
        m.git_sha = _text(a.get("git_sha", ""))
        m.created_utc = _text(a.get("created_utc", ""))
        m.job_file = _text(a.get("job_file_name", ""))
        m.job_sha256 = _text(a.get("job_file_sha256", ""))
        m.replicas = _text(a.get("replicas_max", ""))
        m.complete = int(a.get("complete", 0)) == 1
        m.filetype = _text(a.get("filetype", ""))
        if m.filetype == "faultsweep-fit" and a.get("log_file") is not None:
            m.job_file = m.job_file or f"faultsweep fit {Path(_text(a['log_file'])).name}"
        if "inputs" in f:
            for name in sorted(f["inputs"], key=lambda s: int(s) if s.isdigit() else s):
                e = f["inputs"][name].attrs
                m.inputs.append((_text(e.get("path", "")), _text(e.get("sha256", ""))))
    t = times.get(str(path.resolve()))
    if t:
        m.wall_s, m.ranks, m.mode = t["seconds"], t["ranks"], t["mode"]
    return m


def page_meta(sources: list[str], results: Path) -> list[FileMeta]:
    times = timings(results)
    files = []
    for s in sources:
        p = Path(s)
        files += sorted(p.glob("*.h5")) if p.is_dir() else [p]
    return [file_meta(p, times) for p in files if p.exists()]
