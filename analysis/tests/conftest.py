"""Puts analysis/ (the package root) and this folder (the synthetic-file writer) on sys.path,
and offers `make_results`, which writes a schema-1 results file into tmp_path."""
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for p in (HERE.parent, HERE):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import synth  # noqa: E402


@pytest.fixture
def make_results(tmp_path):
    counter = iter(range(1_000_000))

    def make(name=None, **kwargs):
        path = tmp_path / (name or f"results_{next(counter)}.h5")
        return synth.write_results(path, **kwargs)

    return make
