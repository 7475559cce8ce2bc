"""Write a faultsweep scheduling policy in Python.

A job file names a class of a ``.py`` file instead of a built-in policy::

    allocator = { python = "policies/cool_nodes.py", class = "CoolNodes", threshold = 3 }
    queue = { python = "policies/my_easy.py", class = "MyEasy" }
    moldable_size = { python = "policies/my_sizes.py", class = "MySizes" }
    strategy = { python = "policies/my_strategy.py", class = "MyStrategy" }

The other keys of the table are the policy's parameters: each must be declared, with its
default, in the class attribute ``params``; the job's values (which may be swept axes) are in
``self.params``. faultsweep makes a fresh instance for every replica, so a policy may keep state
on ``self``. ``self.rng`` is a numpy ``Generator`` seeded from the task (seed, replica, the
policy's kind, class and parameters): results stay a pure function of (point, replica, seed)
on any number of ranks and after ``--resume``. Draw random numbers only from it.

The engine calls the policy with a read-only view. Its numpy arrays look at the engine's own
buffers without copying; they are valid during the call only (copy what you keep) and cannot be
written. The engine checks every decision and stops the run with an error naming the rule a
decision broke.
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, Sequence

import numpy as np

__all__ = ["Policy", "Allocator", "QueuePolicy", "SizeChooser", "Strategy", "AllocationView",
           "QueueView", "SizeView", "StrategyView", "Move", "Hold", "Release", "Checkpoint",
           "CallAt"]


class Policy:
    """Base of every policy kind: parameters and the per-replica random generator."""

    #: The parameters the class accepts, with their defaults. A job-file key that is not here
    #: is an error found by ``faultsweep check``.
    params: ClassVar[Dict[str, Any]] = {}

    def __init__(self, params: Dict[str, Any], rng: np.random.Generator) -> None:
        """Called once per replica. ``params``: the job's values for the keys of ``params``
        (the defaults fill in the rest); ``rng``: this replica's generator."""
        self.params: Dict[str, Any] = {**type(self).params, **params}
        self.rng: np.random.Generator = rng


class AllocationView:
    """What an allocator sees (the engine provides it; documented here for type hints).

    Attributes:
        now: simulated time (s).
        job: the id of the job about to start.
        est_wall: its estimated wall time for this execution (s).
        progress: the work it has committed already (s; > 0 after a restart).
        nodes: machine size.
        free_count: number of free nodes (up, idle, held by no job).
        free: bool array, one entry per node: free now.
        free_words: the free set as uint64 words, bit ``n % 64`` of word ``n // 64`` (no copy).
        failures: int64 array, failures of each node so far (no copy).
        last_failure: float64 array, time of each node's last failure, -inf if none (no copy).
        last_repair: float64 array, time of each node's last repair, -inf if none (no copy).
    """

    now: float
    job: int
    est_wall: float
    progress: float
    nodes: int
    free_count: int
    free: np.ndarray
    free_words: np.ndarray
    failures: np.ndarray
    last_failure: np.ndarray
    last_repair: np.ndarray


class Allocator(Policy):
    """Which free nodes a starting job gets."""

    def allocate(self, view: AllocationView, count: int) -> Sequence[int]:
        """Return ``count`` distinct node ids, each free in ``view`` (a list or an integer
        numpy array). Called once per job start (also for restarts after a failure)."""
        raise NotImplementedError


class QueueView:
    """What a queue policy sees (the engine provides it; documented here for type hints).

    Attributes:
        now: simulated time (s).
        free_nodes: free nodes now.
        waiting: int32 array, the waiting job ids in queue order (no copy).
        sizes: int32 array, their requested sizes in the same order (no copy).
        job_size: int32 array indexed by job id: the size of each job (no copy).
        job_est_wall: float64 array indexed by job id: estimated wall time of each job's next
            execution (s), from the user's estimate minus committed progress (no copy).
    """

    now: float
    free_nodes: int
    waiting: np.ndarray
    sizes: np.ndarray
    job_size: np.ndarray
    job_est_wall: np.ndarray

    def releases(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Expected future capacity sorted by time: (time s, nodes, job or -1 for a repair),
        from running jobs' estimated ends and repairs of down nodes."""
        raise NotImplementedError

    def start_size(self, job: int, free: int) -> int:
        """The nodes ``job`` starts with when ``free`` nodes are free, 0 if it must wait
        (rigid jobs: their size if it fits; moldable jobs: the size chooser's answer)."""
        raise NotImplementedError

    def sized_at_start(self, job: int) -> bool:
        """True if ``job`` is moldable and not started yet: its start size is the size
        chooser's (``start_size``), at most its requested size (``sizes``)."""
        raise NotImplementedError

    def est_wall_at(self, job: int, size: int) -> float:
        """Estimated wall time (s) of ``job`` if it starts on ``size`` nodes."""
        raise NotImplementedError


class QueuePolicy(Policy):
    """Which waiting jobs start now."""

    #: True for a policy that keeps state between passes (reservations): the engine then asks
    #: it after every change, also while no node is free.
    keeps_state: ClassVar[bool] = False

    def select(self, view: QueueView) -> Sequence[int]:
        """Return the positions in ``view.waiting`` of the jobs to start now, increasing; their
        sizes (``view.start_size`` for moldable jobs, else ``view.sizes``) must fit in
        ``view.free_nodes``. Called after every instant at which something changed."""
        raise NotImplementedError


class SizeView:
    """What a size chooser sees (the engine provides it; documented here for type hints).

    Attributes:
        now: simulated time (s).
        job: the moldable job about to start.
        requested: the nodes it requests.
        free_nodes: the nodes free for it now.
        estimate: the user's estimate of its run time at the requested size (s).
        nodes: machine size.
        free, free_words, failures, last_failure, last_repair: as in ``AllocationView`` (``free``
            is the free set when the scheduling pass began: jobs started earlier in the pass
            may take some of it).
    """

    now: float
    job: int
    requested: int
    free_nodes: int
    estimate: float
    nodes: int
    free: np.ndarray
    free_words: np.ndarray
    failures: np.ndarray
    last_failure: np.ndarray
    last_repair: np.ndarray

    def time_factor(self, size: int) -> float:
        """Run time on ``size`` nodes / run time on the requested size (the speedup law)."""
        raise NotImplementedError


class SizeChooser(Policy):
    """The size a moldable job starts with (rigid jobs keep their size)."""

    #: True if an answer may exceed the requested size (up to the free nodes); the run time then
    #: shrinks by the workload's speedup law.
    may_exceed_request: ClassVar[bool] = False

    def choose(self, view: SizeView) -> int:
        """Return the size the job starts with, 1 .. min(requested, free_nodes) (free_nodes if
        ``may_exceed_request``), or 0 to let it wait. Asked once per start, in queue order."""
        raise NotImplementedError


class StrategyView:
    """What a runtime strategy sees (the engine provides it; documented here for type hints).

    Attributes:
        now: simulated time (s).
        nodes: machine size.
        free_count: number of idle nodes.
        spare_count: number of nodes held as spares.
        free: bool array, one entry per node: idle now.
        state: uint8 array, one entry per node: 0 idle, 1 busy, 2 held (its job waits for a
            repair), 3 down, 4 spare (a copy).
        owner: int32 array, one entry per node: the job on it, or -1 (a copy).
        failures, last_failure, last_repair: as in ``AllocationView`` (no copy).
        running: int32 array, the running and suspended jobs, by estimated end (a copy).
        predicted: int32 array, at a tick of a strategy with ``needs_predictor``: the nodes
            the predictor reports as going to fail before the next tick (or within
            ``predict_window``); empty at other calls (no copy).
        checkpoint_cost: the cost of one checkpoint (s).
    """

    now: float
    nodes: int
    free_count: int
    spare_count: int
    free: np.ndarray
    state: np.ndarray
    owner: np.ndarray
    failures: np.ndarray
    last_failure: np.ndarray
    last_repair: np.ndarray
    running: np.ndarray
    predicted: np.ndarray
    checkpoint_cost: float

    def failure_times(self, node: int) -> np.ndarray:
        """float64 array, the times of every failure of ``node`` so far (no copy; the
        strategy must declare ``failure_times = True``)."""
        raise NotImplementedError

    def job(self, job: int) -> "JobView":
        """The running or suspended ``job``: an object with ``id``, ``size``, ``running``
        (False: suspended), ``nodes`` (int32 array, no copy), ``estimate``, ``elapsed``,
        ``progress``, ``exec_start``, ``waiting`` (s)."""
        raise NotImplementedError


class Move:
    """Move the process of ``job`` on node ``from_node`` to the idle or spare node
    ``to_node``. All moves of one job in a batch are applied together: the job keeps its work
    and restarts on its new nodes after ``overhead`` s (the largest of its moves')."""

    __slots__ = ("job", "from_node", "to_node", "overhead")

    def __init__(self, job: int, from_node: int, to_node: int, overhead: float = 0.0) -> None:
        self.job, self.from_node, self.to_node, self.overhead = job, from_node, to_node, overhead

    def __repr__(self) -> str:
        return f"Move({self.job}, {self.from_node}, {self.to_node}, {self.overhead})"


class _NodeDecision:
    """A decision about one node."""

    __slots__ = ("node",)

    def __init__(self, node: int) -> None:
        self.node = node

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.node})"


class Hold(_NodeDecision):
    """Hold the idle ``node`` as a spare: the queue never gets it until it is released."""

    __slots__ = ()


class Release(_NodeDecision):
    """Give the spare ``node`` back to the queue (it becomes idle)."""

    __slots__ = ()


class Checkpoint:
    """The running ``job`` checkpoints now: it keeps the work done so far and resumes after
    the job's ``checkpoint_cost`` s (the strategy must declare ``checkpoints_jobs = True``)."""

    __slots__ = ("job",)

    def __init__(self, job: int) -> None:
        self.job = job

    def __repr__(self) -> str:
        return f"Checkpoint({self.job})"


class CallAt:
    """Call the strategy's ``on_call`` at ``time`` (s, now or later): "call me at t"."""

    __slots__ = ("time",)

    def __init__(self, time: float) -> None:
        self.time = time

    def __repr__(self) -> str:
        return f"CallAt({self.time})"


class Strategy(Policy):
    """A runtime strategy: acts on the running cluster. It declares what it needs as class
    attributes; the engine calls it back and applies the decisions it returns (a list of
    ``Move``, ``Hold``, ``Checkpoint``, ``Release`` and ``CallAt``), applied holds first, then
    moves, then checkpoints, then releases; then the calls asked for are scheduled."""

    #: Call ``on_tick`` at ``offset + k * period`` s, k = 0, 1, ... (None: never). A period
    #: needs ``on_tick``.
    period: ClassVar[Any] = None
    offset: ClassVar[float] = 0.0
    #: Call ``on_job_end`` after every job completes (needs ``on_job_end``).
    job_ends: ClassVar[bool] = False
    #: Call ``on_call`` first at this time (s; None: never); any callback may ask for more
    #: calls with ``CallAt``. Either needs ``on_call``.
    first_call: ClassVar[Any] = None
    #: Call ``on_failure`` after every failure, once the engine has applied it.
    failures: ClassVar[bool] = False
    #: Call ``on_warning`` this many seconds before every failure the engine will inject (a
    #: perfect predictor; at the failure's time minus the lead, or now if later; None: never).
    warning_lead: ClassVar[Any] = None
    #: Keep every failure time of every node (``view.failure_times``).
    failure_times: ClassVar[bool] = False
    #: Traits checked by ``faultsweep check``: it needs a failure process; it works only with
    #: a queue that keeps no state between passes.
    needs_failures: ClassVar[bool] = False
    stateless_queue_only: ClassVar[bool] = False
    #: It reads the engine's failure predictor: the job must have a ``predictor`` table
    #: (``{ precision = p, recall = r }``), and at a tick ``view.predicted`` holds the nodes the
    #: predictor reports as going to fail before the next one. Needs a ``period``.
    needs_predictor: ClassVar[bool] = False
    #: With a predictor: each prediction covers ``predict_window`` s from its tick (None: the
    #: period) and is made at every ``predict_every``-th tick from the first; the ticks in
    #: between see an empty ``view.predicted``.
    predict_window: ClassVar[Any] = None
    predict_every: ClassVar[int] = 1
    #: It asks running jobs to checkpoint (``Checkpoint``): the job's ``checkpoint_cost`` must be
    #: > 0, and each such checkpoint costs it even with ``checkpoint = "none"``.
    checkpoints_jobs: ClassVar[bool] = False
    #: Metrics it may report (``report``): names of the cluster model's strategy metrics.
    metrics: ClassVar[Sequence[str]] = ()

    def on_tick(self, view: StrategyView) -> Sequence[Any]:
        """Every period: return the decisions (a list, empty for none)."""
        raise NotImplementedError

    def on_job_end(self, view: StrategyView, job: int) -> Sequence[Any]:
        """After ``job`` completed: return the decisions."""
        raise NotImplementedError

    def on_warning(self, view: StrategyView, node: int, time: float) -> Sequence[Any]:
        """``node`` will fail at ``time`` (s): return the decisions."""
        raise NotImplementedError

    def on_call(self, view: StrategyView) -> Sequence[Any]:
        """At ``first_call`` and at each time a ``CallAt`` asked for: return the decisions."""
        raise NotImplementedError

    def on_failure(self, view: StrategyView, node: int, time: float, job: int) -> Sequence[Any]:
        """``node`` failed at ``time`` (now); ``job`` is the job it interrupted (requeued or
        suspended by now), or -1: return the decisions."""
        raise NotImplementedError

    def report(self) -> Dict[str, float]:
        """At the end of a replica: {metric name: value} for the names in ``metrics``."""
        return {}
