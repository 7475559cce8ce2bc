"""How faultsweep loads a policy class from a job's .py file and checks it before a run.

Every error is a ``PolicyError`` whose text names the file and line at fault; faultsweep turns
it into an input error (exit 2) before any output file exists.
"""

from __future__ import annotations

import importlib.util
import inspect
import linecache
import os
import sys
import traceback
from typing import Any, Dict, List

import numpy as np

from . import Allocator, Policy, QueuePolicy, SizeChooser, Strategy

# kind -> (base class, method, the arguments after self)
KINDS = {
    "allocator": (Allocator, "allocate", ("view", "count")),
    "queue": (QueuePolicy, "select", ("view",)),
    "moldable_size": (SizeChooser, "choose", ("view",)),
    # A strategy's methods depend on what it asks for: checked by strategy_needs().
    "strategy": (Strategy, None, ()),
}

_modules: Dict[str, Any] = {}


class PolicyError(Exception):
    """A policy file or class that cannot be used: PolicyError(field, message), the field of
    the job's table at fault ("python", "class" or a parameter) and a message naming the
    file:line."""


def where(obj: Any) -> str:
    """file:line of a class or function."""
    try:
        return f"{inspect.getsourcefile(obj)}:{inspect.getsourcelines(obj)[1]}"
    except (OSError, TypeError):
        return "?"


def user_traceback(exc: BaseException, path: str) -> str:
    """The traceback, the file:line in the policy's own file first."""
    frames = traceback.extract_tb(exc.__traceback__)
    lines = [f"{f.filename}:{f.lineno}" for f in frames if os.path.abspath(f.filename) == path]
    if isinstance(exc, SyntaxError) and exc.filename:
        lines.append(f"{exc.filename}:{exc.lineno}")
    # The frames of the user's code only (not faultsweep's loader, not importlib's).
    here = os.path.dirname(os.path.abspath(__file__))
    own = [f for f in frames if not f.filename.startswith(("<", here))]
    text = "".join(["Traceback (most recent call last):\n"] + traceback.format_list(own) +
                   traceback.format_exception_only(type(exc), exc))
    head = lines[-1] + ": " if lines else ""
    return f"{head}{type(exc).__name__}: {exc}\n{text.rstrip()}"


def load_module(path: str, source: bytes) -> Any:
    """The module of `path`, imported once per process from `source`: the bytes faultsweep read
    once and stored with the job (their SHA-256 is in the results file), never the file as it
    is now, which may have been edited since the run began."""
    path = os.path.abspath(path)
    if path in _modules:
        return _modules[path]
    name = "faultsweep_user_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_loader(name, loader=None, origin=path)
    module = importlib.util.module_from_spec(spec)
    module.__file__ = path
    sys.modules[name] = module
    # Tracebacks quote these lines, not the file's current ones (mtime None: never reloaded).
    text = source.decode("utf-8", errors="replace")
    linecache.cache[path] = (len(source), None, text.splitlines(keepends=True), path)
    try:
        exec(compile(source, path, "exec", dont_inherit=True), module.__dict__)
    except Exception as e:  # the user's code: anything may fail
        sys.modules.pop(name, None)
        raise PolicyError("python", f"cannot import {path}: {user_traceback(e, path)}") from None
    _modules[path] = module
    return module


def _check_method(cls: type, base: type, method: str, args: tuple, kind: str) -> None:
    """A PolicyError unless `cls` overrides base.<method> with a signature taking `args`."""
    fn = getattr(cls, method, None)
    if fn is None or fn is getattr(base, method, None) or not callable(fn):
        raise PolicyError("class", f"{where(cls)}: class {cls.__name__} has no method "
                          f"{method}(self, {', '.join(args)}) (every {kind} needs it)")
    try:
        inspect.signature(fn).bind(None, *args)
    except TypeError as e:
        raise PolicyError("class", f"{where(fn)}: {cls.__name__}.{method}{inspect.signature(fn)} cannot be "
                          f"called as {method}(self, {', '.join(args)}): {e}") from None


def load_class(path: str, class_name: str, kind: str, keys: List[str], source: bytes) -> type:
    """The class, checked: it exists, has the kind's method with a matching signature and
    declares every parameter in `keys`."""
    base, method, args = KINDS[kind]
    path = os.path.abspath(path)
    module = load_module(path, source)
    cls = getattr(module, class_name, None)
    if not inspect.isclass(cls):
        found = sorted(n for n, v in vars(module).items()
                       if inspect.isclass(v) and v.__module__ == module.__name__)
        raise PolicyError("class", f"{path} has no class {class_name} (its classes: "
                          f"{', '.join(found) if found else 'none'})")
    if method is not None:
        _check_method(cls, base, method, args, kind)
    declared = getattr(cls, "params", {})
    if not isinstance(declared, dict):
        raise PolicyError("class", f"{where(cls)}: {class_name}.params must be a dict of defaults")
    for k in keys:
        if k not in declared:
            raise PolicyError(k, f"{where(cls)}: class {class_name} has no parameter {k!r} (its "
                              f"parameters, in {class_name}.params: "
                              f"{', '.join(sorted(declared)) if declared else 'none'})")
    if not issubclass(cls, Policy):
        raise PolicyError("class", f"{where(cls)}: class {class_name} must derive from "
                          f"faultsweep_policy.{base.__name__}")
    return cls


def make(cls: type, path: str, params: Dict[str, Any], seed_words: List[int]) -> Any:
    """A fresh instance for one replica, its generator seeded from the task's stream."""
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed_words)))
    try:
        return cls(params, rng)
    except Exception as e:
        raise PolicyError("class", f"{cls.__name__}(...) failed: {user_traceback(e, os.path.abspath(path))}"
                          ) from None


def describe(exc: BaseException, tb: Any, path: str) -> str:
    """The text of an exception a policy raised during a run (`tb`: its traceback)."""
    if tb is not None:
        exc = exc.with_traceback(tb)
    return user_traceback(exc, os.path.abspath(path))


def _method(obj: Any, name: str, args: tuple, why: str) -> None:
    """A PolicyError unless the strategy overrides Strategy.<name> with a signature taking
    `args`."""
    _check_method(type(obj), Strategy, name, args, f"strategy that declares {why}")


def strategy_needs(obj: Any, metrics: List[str]) -> Dict[str, Any]:
    """What a strategy instance asks of the engine (its class attributes, which __init__ may
    override from its parameters), checked: a period needs on_tick, job_ends on_job_end, and
    each of its metrics must be one of `metrics`."""
    cls = type(obj)
    period = getattr(obj, "period", None)
    out: Dict[str, Any] = {"period": float("inf") if period is None else period}
    lead = getattr(obj, "warning_lead", None)
    out["warning_lead"] = float("inf") if lead is None else lead
    for name in ("period", "offset", "warning_lead"):
        value = getattr(obj, "offset", 0.0) if name == "offset" else out[name]
        positive = name != "offset"
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 or (
                positive and not value > 0):
            raise PolicyError("class", f"{where(cls)}: {cls.__name__}.{name} = {value!r} must be "
                              f"a number of seconds, {'> 0 (None: never)' if positive else '>= 0'}")
        out[name] = float(value)
    window = getattr(obj, "predict_window", None)
    if window is not None and (isinstance(window, bool) or not isinstance(window, (int, float))
                               or not window > 0):
        raise PolicyError("class", f"{where(cls)}: {cls.__name__}.predict_window = {window!r} must "
                          "be a number of seconds > 0 (None: the period)")
    out["predict_window"] = 0.0 if window is None else float(window)
    every = getattr(obj, "predict_every", 1)
    if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or not 1 <= every <= 2**31 - 1:
        raise PolicyError("class", f"{where(cls)}: {cls.__name__}.predict_every = {every!r} must "
                          "be an integer >= 1 (ticks)")
    out["predict_every"] = int(every)
    first = getattr(obj, "first_call", None)
    if first is not None and (isinstance(first, bool) or not isinstance(first, (int, float))
                              or first != first):
        raise PolicyError("class", f"{where(cls)}: {cls.__name__}.first_call = {first!r} must be "
                          "a number of seconds (None: never)")
    out["first_call"] = float("inf") if first is None else float(first)
    for name in ("job_ends", "failures", "failure_times", "needs_failures",
                 "stateless_queue_only", "needs_predictor", "checkpoints_jobs"):
        value = getattr(obj, name, False)
        if not isinstance(value, bool):
            raise PolicyError("class", f"{where(cls)}: {cls.__name__}.{name} = {value!r} must be "
                              "True or False")
        out[name] = value
    if out["period"] != float("inf"):
        _method(obj, "on_tick", ("view",), f"period = {out['period']!r}")
    if out["warning_lead"] != float("inf"):
        _method(obj, "on_warning", ("view", "node", "time"),
                f"warning_lead = {out['warning_lead']!r}")
    if out["needs_predictor"] and out["period"] == float("inf"):
        raise PolicyError("class", f"{where(cls)}: {cls.__name__}.needs_predictor = True needs a "
                          "period: the predictor reports at the ticks (view.predicted)")
    if out["job_ends"]:
        _method(obj, "on_job_end", ("view", "job"), "job_ends = True")
    if out["failures"]:
        _method(obj, "on_failure", ("view", "node", "time", "job"), "failures = True")
    if out["first_call"] != float("inf"):
        _method(obj, "on_call", ("view",), f"first_call = {out['first_call']!r}")
    for m in getattr(obj, "metrics", ()):
        if m not in metrics:
            raise PolicyError("class", f"{where(cls)}: {cls.__name__}.metrics names {m!r}, which "
                              f"is not a strategy metric (one of: {', '.join(metrics) or 'none'})")
    return out


class AnswerError(TypeError):
    """A policy's answer that is not what the engine reads (integers in range): the message
    names the value."""


_INT64 = (-2**63, 2**63 - 1)


def _not_integer(value: Any) -> str:
    """Why `value` is not an id the engine reads ("" if it is one): an int or numpy integer (not
    a bool) that fits 64 bits. A float is refused even when whole: it is a computation gone
    wrong more often than a node id."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        return f"{value!r:.60} ({type(value).__name__}), which is not an integer" + (
            " (convert it with int() if that is what you mean)"
            if isinstance(value, (float, np.floating)) else "")
    if not _INT64[0] <= int(value) <= _INT64[1]:
        return f"{int(value)}, which is out of range (no such node, position or size)"
    return ""


def integer(value: Any, what: str) -> int:
    """`value` as an int, else AnswerError naming it (`what`: "choose()")."""
    why = _not_integer(value)
    if why:
        raise AnswerError(f"{what} returned {why}")
    return int(value)


def integers(result: Any, what: str) -> np.ndarray:
    """A sequence of integers as an int64 array, every element checked by integer()."""
    if isinstance(result, (str, bytes)):
        raise AnswerError(f"{what} must return a sequence of integers, got {result!r:.60}")
    try:
        items = list(result)
    except TypeError:
        raise AnswerError(f"{what} must return a sequence of integers, got "
                          f"{type(result).__name__} {result!r:.60}") from None
    out = np.empty(len(items), dtype=np.int64)
    for i, v in enumerate(items):
        if isinstance(v, np.ndarray) or isinstance(v, (list, tuple)):
            raise AnswerError(f"{what} must return a flat sequence of integers, got {v!r:.60} "
                              "inside it")
        out[i] = integer(v, what)
    return out


class DecisionError(TypeError):
    """A strategy's answer that is not a list of decisions."""


def decisions(result: Any) -> List[tuple]:
    """The decisions a strategy returned as (kind, job, a, b, value) tuples: kind 0 hold,
    1 move (value: the overhead), 2 release, 3 checkpoint, 4 call (value: the time). Raises
    DecisionError naming what is not a decision."""
    from . import CallAt, Checkpoint, Hold, Move, Release
    if result is None:
        return []
    try:
        items = list(result)
    except TypeError:
        raise DecisionError(f"{result!r}, which is not a list of decisions (faultsweep_policy"
                            ".Move, Hold, Checkpoint, Release or CallAt)") from None
    out = []
    def n(d: Any, v: Any) -> int:  # a job or node id, checked (a float is never truncated)
        why = _not_integer(v)
        if why:
            raise DecisionError(f"{d!r} in its list: {why}")
        return int(v)

    for d in items:
        if isinstance(d, Move):
            out.append((1, n(d, d.job), n(d, d.from_node), n(d, d.to_node), float(d.overhead)))
        elif isinstance(d, Hold):
            out.append((0, -1, n(d, d.node), -1, 0.0))
        elif isinstance(d, Release):
            out.append((2, -1, n(d, d.node), -1, 0.0))
        elif isinstance(d, Checkpoint):
            out.append((3, n(d, d.job), -1, -1, 0.0))
        elif isinstance(d, CallAt):
            out.append((4, -1, -1, -1, float(d.time)))
        else:
            raise DecisionError(f"{d!r} in its list, which is not a decision "
                                "(faultsweep_policy.Move, Hold, Checkpoint, Release or CallAt)")
    return out
