"""How faultsweep loads a policy class from a job's .py file and checks it before a run.

Every error is a ``PolicyError`` whose text names the file and line at fault; faultsweep turns
it into an input error (exit 2) before any output file exists.
"""

from __future__ import annotations

import importlib.util
import inspect
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


def load_module(path: str) -> Any:
    """The module of `path`, imported once per process."""
    path = os.path.abspath(path)
    if path in _modules:
        return _modules[path]
    name = "faultsweep_user_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise PolicyError("python", f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
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


def load_class(path: str, class_name: str, kind: str, keys: List[str]) -> type:
    """The class, checked: it exists, has the kind's method with a matching signature and
    declares every parameter in `keys`."""
    base, method, args = KINDS[kind]
    path = os.path.abspath(path)
    module = load_module(path)
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
    for d in items:
        if isinstance(d, Move):
            out.append((1, int(d.job), int(d.from_node), int(d.to_node), float(d.overhead)))
        elif isinstance(d, Hold):
            out.append((0, -1, int(d.node), -1, 0.0))
        elif isinstance(d, Release):
            out.append((2, -1, int(d.node), -1, 0.0))
        elif isinstance(d, Checkpoint):
            out.append((3, int(d.job), -1, -1, 0.0))
        elif isinstance(d, CallAt):
            out.append((4, -1, -1, -1, float(d.time)))
        else:
            raise DecisionError(f"{d!r} in its list, which is not a decision "
                                "(faultsweep_policy.Move, Hold, Checkpoint, Release or CallAt)")
    return out
