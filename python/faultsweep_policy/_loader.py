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

from . import Allocator, Policy, QueuePolicy, SizeChooser

# kind -> (base class, method, the arguments after self)
KINDS = {
    "allocator": (Allocator, "allocate", ("view", "count")),
    "queue": (QueuePolicy, "select", ("view",)),
    "moldable_size": (SizeChooser, "choose", ("view",)),
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
    fn = getattr(cls, method, None)
    if fn is None or fn is getattr(base, method, None) or not callable(fn):
        raise PolicyError("class", f"{where(cls)}: class {class_name} has no method "
                          f"{method}(self, {', '.join(args)}) (every {kind} needs it)")
    try:
        inspect.signature(fn).bind(None, *args)
    except TypeError as e:
        raise PolicyError("class", f"{where(fn)}: {class_name}.{method}{inspect.signature(fn)} cannot be "
                          f"called as {method}(self, {', '.join(args)}): {e}") from None
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
