"""The editor on a cold kernel cache: answers at once, compiles in another process.

On a fresh install the physics kernels are not compiled yet.  The editor answers
from its first frame anyway: it builds its view under the ``defer`` policy
(``physics.kernels``), running the kernels as Python where that is quick (a scene's
sweeps take about a millisecond each) and reporting "pending" where it is not (a
large batch, a mesh's tree), so drawing never waits for the compiler.  (Commands
the user runs -- a scan, the playground -- follow the process's policy, ``auto``.)  Meanwhile ``KernelCompilation`` runs
``sweeplab warmup --json --jobs 1`` in a background process (one core: the other is
the window's): the open scene's pairs first
(float64, then float32, then the second opinions), then every other kernel.  After
each step the editor looks in the disk cache again (``kernels.refresh``), so what
was interpreted or pending runs as machine code from then on, and the view is built
anew.  The Results header says what is compiling and how far along.  When every step
is done the cache is marked warm and later starts skip all this.

A process, not a thread: numba compiles under one lock and mostly in Python, so a
compiling thread would take turns with the window for the interpreter.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterable

from sweeplab.physics import TriangleMesh, kernels, warmup
from sweeplab.physics.kernel_cache import is_warm
from sweeplab.scene.shape_kinds import build_shape


class KernelCompilation:
    """``sweeplab warmup --json --first STEP ...`` in a background process, its progress
    read by a thread.  Read ``step`` (the step compiling now), ``done``/``total``,
    ``first_done`` (the scene's steps are compiled), ``finished``, ``error`` and
    ``generation`` (counts the progress the scene's answers may have made: a view
    built before it moved is stale) from the window thread."""

    def __init__(self, first: list[str], command: list[str] | None = None):
        self.first = first
        self.total, self.done, self.generation = len(warmup.tasks()), 0, 0
        self.step = first[0] if first else ""
        self.first_done = not first
        self.finished = False
        self.error: str | None = None
        self.started = time.perf_counter()
        self._command = command or [sys.executable, "-m", "sweeplab", "warmup", "--json", "--jobs", "1",
                                    *(argument for name in first for argument in ("--first", name))]
        self._process = subprocess.Popen(self._command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self._thread = threading.Thread(target=self._follow, name="sweeplab kernel compilation", daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        remaining = set(self.first)
        assert self._process.stdout is not None and self._process.stderr is not None
        for line in self._process.stdout:
            try:
                progress = json.loads(line)
            except json.JSONDecodeError:
                continue
            finished_step = progress.get("finished")
            kernels.refresh()  # before the counters move: a view built after them sees the new machine code
            self.done, self.total = progress.get("done", self.done), progress.get("total", self.total)
            self.step = progress.get("step", "")
            if not self.first_done:  # (later steps compile nothing the open scene waits for)
                remaining.discard(finished_step)
                self.first_done = not remaining
                self.generation += 1
        errors = self._process.stderr.read()
        if self._process.wait() != 0:
            self.error = (errors.strip().splitlines() or [f"exit code {self._process.returncode}"])[-1][:300]
        kernels.refresh()
        self.first_done = self.finished = True
        self.generation += 1

    def stop(self) -> None:
        """End the background process (the window is closing)."""
        if self._process.poll() is None:
            self._process.terminate()

    def status(self) -> str:
        """One line: how far along, for how long, and what compiles now."""
        seconds = time.perf_counter() - self.started
        if self.error is not None:
            return f"compiling the kernels failed ({seconds:.0f} s): {self.error}"
        if self.finished:
            return f"every kernel compiled ({seconds:.0f} s)"
        part = "this scene's kernels" if not self.first_done else "the other kernels"
        return f"compiling {part} in the background: step {min(self.done + 1, self.total)} of {self.total}, " \
               f"{seconds:.0f} s: {self.step}"


def shape_pairs(scene) -> list[tuple[type, type]]:
    """The (moving, target) physics shape types a scene's sweeps take (targets that
    cannot be built are passed over: the view reports them)."""
    if scene.moving is None:
        return []
    found: list[type | None] = []
    for name in [scene.moving] + [target.name for target in scene.targets()]:
        scene_object = scene.object(name)
        try:
            found.append(type(build_shape(scene_object.kind, scene_object.params)))
        except (TypeError, ValueError):
            found.append(None)
    moving, targets = found[0], found[1:]
    return [(moving, target) for target in targets if moving is not None and target is not None]


def scene_steps(pairs: Iterable[tuple[type, type]]) -> list[str]:
    """The warmup steps a scene's (moving, target) shape types need, float64 first,
    then float32, then the second opinions and, with a mesh, the mesh functions."""
    pairs = list(pairs)
    names = []
    for dtype in ("float64", "float32"):
        names += [warmup.step_name(pair, dtype) for pair in warmup.served_pairs(pairs)]
        if any(TriangleMesh in pair for pair in pairs):
            names.append(f"mesh contacts, overlap, first contact {dtype}")
    names.append(warmup.SECOND_OPINIONS)
    return list(dict.fromkeys(names))


def start_if_cold(pairs: Iterable[tuple[type, type]]) -> KernelCompilation | None:
    """A running ``KernelCompilation`` (the scene's ``pairs`` first) if the kernel cache
    is not warm, else None."""
    if is_warm():
        return None
    return KernelCompilation(scene_steps(pairs))
