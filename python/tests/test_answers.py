"""The loader's reading of a policy's answers: integers only (a float is never truncated, a
bool is not an id), 64 bits at most, and the value named when it refuses one; its import runs
the bytes it is given, not the file as it is now."""
import numpy as np
import pytest

import faultsweep_policy as fp
from faultsweep_policy import _loader as L


def test_integers_accepts_ints_and_numpy_integers():
    assert L.integers([3, np.int32(4), np.int64(5)], "allocate()").tolist() == [3, 4, 5]
    assert L.integers(range(3), "select()").tolist() == [0, 1, 2]
    assert L.integers([], "select()").dtype == np.int64


@pytest.mark.parametrize("answer, said", [
    ([1.0], "returned 1.0 (float), which is not an integer"),
    (np.array([2.0]), "returned 2.0 (float64), which is not an integer"),
    ([True], "returned True (bool), which is not an integer"),
    ([2**70], f"returned {2**70}, which is out of range"),
    ([-2**63 - 1], f"returned {-2**63 - 1}, which is out of range"),
    (["3"], "returned '3' (str), which is not an integer"),
    ("3", "must return a sequence of integers"),
    (7, "must return a sequence of integers"),
    ([[1, 2]], "must return a flat sequence of integers"),
])
def test_integers_refuses_naming_the_value(answer, said):
    with pytest.raises(L.AnswerError, match=None) as e:
        L.integers(answer, "allocate()")
    assert said in str(e.value)
    assert str(e.value).startswith("allocate() ")


def test_integer_bounds():
    assert L.integer(2**63 - 1, "choose()") == 2**63 - 1
    with pytest.raises(L.AnswerError, match="out of range"):
        L.integer(2**63, "choose()")
    with pytest.raises(L.AnswerError, match=r"3\.0 \(float\), which is not an integer"):
        L.integer(3.0, "choose()")


def test_decisions_refuse_non_integer_ids():
    assert L.decisions([fp.Hold(np.int64(2))]) == [(0, -1, 2, -1, 0.0)]
    for bad, said in [(fp.Hold(2.5), "Hold(2.5) in its list: 2.5 (float)"),
                      (fp.Release(True), "Release(True) in its list: True (bool)"),
                      (fp.Move(1, 2, 2**70), f"in its list: {2**70}, which is out of range"),
                      (fp.Checkpoint("x"), "Checkpoint(x) in its list: 'x' (str)")]:
        with pytest.raises(L.DecisionError) as e:
            L.decisions([bad])
        assert said in str(e.value)


def test_the_import_runs_the_given_bytes_not_the_file(tmp_path):
    f = tmp_path / "p.py"
    f.write_text("X = 'on disk'\n")
    m = L.load_module(str(f), b"X = 'given'\n")
    assert m.X == "given"
