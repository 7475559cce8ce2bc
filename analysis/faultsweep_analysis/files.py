"""What is wrong with an input file, in one line and an exit code, before anything reads it.

The codes follow `faultsweep`'s own (docs/command-line.md): 2 for a file of another kind (not
HDF5 at all: a CSV, a log, a job file given by mistake) or a path that is not a file; 3 for a
file that could not be read (missing, unreadable, an HDF5 file cut short or damaged). h5py's
own messages name the C library's internals and span lines; these say what a user can do.
"""
from __future__ import annotations

import os
from pathlib import Path

import h5py

EXIT_BAD_INPUT = 2
EXIT_UNREADABLE = 3

# An HDF5 file starts with this signature at offset 0, or at 512, 1024, 2048, ... when the file
# has a user block (the format's rule).
_SIGNATURE = b"\x89HDF\r\n\x1a\n"


class FileProblem(Exception):
    """A file that cannot be used: `code` is the exit status, str(self) the one-line message."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


def _has_hdf5_signature(path: Path) -> bool:
    size = path.stat().st_size
    with open(path, "rb") as f:
        offset = 0
        while offset + len(_SIGNATURE) <= size:
            f.seek(offset)
            if f.read(len(_SIGNATURE)) == _SIGNATURE:
                return True
            offset = 512 if offset == 0 else 2 * offset
    return False


def one_line(text) -> str:
    """The first line of an error's text, without h5py's "(unable to open file: ...)" detail."""
    line = str(text).strip().splitlines()[0] if str(text).strip() else type(text).__name__
    return line


def check_hdf5(path) -> None:
    """Raise FileProblem unless `path` is an HDF5 file that opens and lists its root."""
    p = Path(path)
    if not p.exists():
        raise FileProblem(EXIT_UNREADABLE, f"{p}: no such file")
    if p.is_dir():
        raise FileProblem(EXIT_BAD_INPUT, f"{p}: a folder, not a results file (.h5)")
    if not os.access(p, os.R_OK):
        raise FileProblem(EXIT_UNREADABLE, f"{p}: not readable (permission denied)")
    if p.stat().st_size == 0:
        raise FileProblem(EXIT_UNREADABLE, f"{p}: empty file (0 bytes): cut short while "
                                           "being written or copied?")
    if not _has_hdf5_signature(p):
        raise FileProblem(EXIT_BAD_INPUT, f"{p}: not a faultsweep results file (not an "
                                          "HDF5 file)")
    try:
        with h5py.File(p, "r") as f:
            list(f.attrs.keys())
            list(f.keys())
    except (OSError, RuntimeError, KeyError) as e:
        raise FileProblem(EXIT_UNREADABLE, f"{p}: damaged or truncated HDF5 file "
                                           f"({p.stat().st_size} bytes; {one_line(e)})") from None
