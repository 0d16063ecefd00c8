"""Where a fuzzing campaign's tasks run: worker processes on this machine (every core
by default), or an existing Dask distributed cluster; an engine that crashes a
worker (a segfault, an abort) does not end the run.

A *task* is a picklable value (``Task``): called in a worker with a ``Marker``, it
answers its result; before each engine call it marks which of its queries is in the
engine, so that when the worker dies the query that killed it is known, and
``task.after_crash(position)`` says what to run instead (the same task with that
query reported as a crash, not asked again), or ``None`` to give it up.
``workers(jobs, scheduler)`` says where tasks run; its ``map`` answers the results
in the tasks' order, whoever ran them: merged in order, a run's report does not
depend on how many processes ran it.

On this machine each of ``jobs`` threads drives one worker process of its own (a
``ProcessPoolExecutor`` of one, started by ``spawn``: a fresh interpreter that loads
the numba kernels from the disk cache, ``NUMBA_CACHE_DIR`` inherited), kept from
task to task.  A worker that dies breaks only its own pool: the thread reads the
position its task marked, starts a fresh worker and runs ``after_crash``'s task there.  On a Dask cluster
(``distributed.Client(address)``, the ``cluster`` extra) the scheduler places the
tasks; a worker that dies is restarted by its nanny and the task retried, and a task
that keeps killing workers (``KilledWorker``) is run here, in one process, to find
its crash.

Adapters hold engine objects that do not pickle: a task carries an ``AdapterRecipe``
(a module-level factory by its import path, and its options) and the worker builds
the adapter once per process.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import multiprocessing
import os
import queue
import struct
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sweeplab.engines import Adapter

NO_QUERY = -1
"""What a marker holds while no query of its task is in the engine."""


class ClusterUnavailable(RuntimeError):
    """Dask distributed is not installed (the message says which extra to install), or
    no scheduler answers at the address."""


class WorkerLost(RuntimeError):
    """A worker died where no engine call was marked (out of memory, a crash in
    sweeplab's own code): not a finding; the run cannot go on."""


@dataclass(frozen=True)
class AdapterRecipe:
    """How a worker builds an adapter: ``factory`` is ``"module:callable"`` (module
    level, so any process imports it), called with ``options`` (name, value pairs)."""

    factory: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of_engine(cls, name: str, **options) -> AdapterRecipe:
        """The recipe of a registered engine (``sweeplab.engines.engine(name, **options)``)."""
        return cls("sweeplab.engines:engine", (("name", name), *sorted(options.items())))

    def build(self) -> Adapter:
        """The adapter, built once per process and recipe."""
        if self not in _BUILT:
            module, _, attribute = self.factory.partition(":")
            _BUILT[self] = getattr(importlib.import_module(module), attribute)(**dict(self.options))
        return _BUILT[self]


_BUILT: dict[AdapterRecipe, Adapter] = {}


class Marker:
    """The position of the query a task has in the engine now, kept in a file of 8
    bytes that outlives the worker (the kernel keeps a dead process's writes) and that
    holds ``NO_QUERY`` until the task marks (``clear_marker``, before the task is sent);
    with no file (on a cluster) marking does nothing."""

    def __init__(self, path: Path | None = None):
        self._descriptor = os.open(path, os.O_WRONLY) if path is not None else None

    def __call__(self, position: int) -> None:
        if self._descriptor is not None:
            os.pwrite(self._descriptor, struct.pack("<q", position), 0)

    def close(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None


def clear_marker(path: Path) -> None:
    """The marker in ``path`` set to ``NO_QUERY`` (created if need be)."""
    path.write_bytes(struct.pack("<q", NO_QUERY))


def marked(path: Path) -> int | None:
    """The position a dead worker's marker in ``path`` held last; ``None`` when it was
    ``NO_QUERY`` (the worker died outside an engine call, or before its task began)."""
    (position,) = struct.unpack("<q", path.read_bytes())
    return None if position == NO_QUERY else position


class Task(Protocol):
    def __call__(self, mark: Callable[[int], None]) -> Any:
        """The task's result; ``mark(position)`` before each engine call, ``mark(NO_QUERY)`` after."""

    def after_crash(self, position: int | None) -> Task | None:
        """The task to run instead of this one, whose worker died while ``position``
        was marked (``None``: outside an engine call); ``None`` gives the task up."""


def _run_marked(task: Task, marker_path: Path | None) -> Any:
    """In a worker: ``task`` run with a marker in ``marker_path`` (or none)."""
    marker = Marker(marker_path)
    try:
        return task(marker)
    finally:
        marker.close()


class _Lane:
    """One worker process on this machine and its marker file; a fresh process after a crash."""

    def __init__(self, marker_path: Path):
        self.marker_path = marker_path
        self.pool: ProcessPoolExecutor | None = None

    def run(self, task: Task | None) -> Any:
        while task is not None:
            if self.pool is None:
                self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            clear_marker(self.marker_path)
            try:
                return self.pool.submit(_run_marked, task, self.marker_path).result()
            except BrokenProcessPool:  # the worker died: its marker names the query in the engine
                self.close()
                task = task.after_crash(marked(self.marker_path))
        return None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None


class Workers(Protocol):
    def map(self, tasks: Sequence[Task]) -> list:
        """The results of ``tasks``, in order."""


class ThisProcess:
    """Tasks run in this process, one after another: no worker to start, and a
    debugger steps into the engine's calls; an engine's crash ends the run."""

    def map(self, tasks: Sequence[Task]) -> list:
        return [task(Marker()) for task in tasks]


class HereWorkers:
    """``jobs`` worker processes of this machine, each started on its first task and
    kept for the next ones (a fresh interpreter costs seconds: sweeplab's imports and
    the kernels loaded from the cache)."""

    def __init__(self, jobs: int, folder: Path):
        self.lanes = [_Lane(folder / f"marker-{number}") for number in range(jobs)]
        self.free: queue.SimpleQueue[_Lane] = queue.SimpleQueue()
        for lane in self.lanes:
            self.free.put(lane)

    def map(self, tasks: Sequence[Task]) -> list:
        def on_a_lane(task: Task) -> Any:
            lane = self.free.get()
            try:
                return lane.run(task)
            finally:
                self.free.put(lane)

        with ThreadPoolExecutor(len(self.lanes)) as threads:
            return list(threads.map(on_a_lane, tasks))

    def close(self) -> None:
        for lane in self.lanes:
            lane.close()


class ClusterWorkers:
    """The workers of a Dask cluster (a ``distributed.Client``); a task that kept
    killing workers (``KilledWorker``) is run here, in one process, to find its crash."""

    def __init__(self, client, killed_worker: type[Exception], here: Callable[[], Workers]):
        self.client, self.killed_worker, self.here = client, killed_worker, here

    def map(self, tasks: Sequence[Task]) -> list:
        results = []
        for task, future in zip(tasks, self.client.map(_run_marked, list(tasks), marker_path=None, pure=False),
                                strict=True):
            try:
                results.append(future.result())
            except self.killed_worker:
                results.append(self.here().map([task])[0])
        return results


@contextlib.contextmanager
def workers(jobs: int = 1, scheduler: str | None = None) -> Iterator[Workers]:
    """Where tasks run: the Dask cluster whose scheduler is at ``scheduler``, or ``jobs``
    worker processes here, or this process for ``jobs`` 0; ``ClusterUnavailable`` when
    Dask is missing or no scheduler answers."""
    if jobs < 0:
        raise ValueError(f"jobs must be 0 or more, got {jobs}")
    with tempfile.TemporaryDirectory(prefix="sweeplab-campaign-") as folder, contextlib.ExitStack() as stack:
        def here(jobs: int) -> HereWorkers:
            started = HereWorkers(jobs, Path(folder))
            stack.callback(started.close)
            return started

        if scheduler is None:
            yield ThisProcess() if jobs == 0 else here(jobs)
            return
        try:
            from distributed import Client, KilledWorker
        except ImportError as error:
            raise ClusterUnavailable(f"--scheduler needs Dask distributed: pip install 'sweeplab[cluster]' "
                                     f"({error})") from None
        try:
            client = stack.enter_context(Client(scheduler))
        except OSError as error:  # no scheduler there (distributed gives up after its connect timeout)
            raise ClusterUnavailable(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        yield ClusterWorkers(client, KilledWorker, functools.cache(lambda: here(1)))
