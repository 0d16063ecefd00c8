"""The editor on a cold kernel cache: compile in the background, show what compiles.

On a fresh install numba compiles each physics kernel on its first use, which takes
seconds per pair.  Rather than freeze its window for that, the editor runs the
compilation in a thread (``KernelCompilation``): first the open scene itself (its
view model, float32 lens, traces and reference answers included: exactly what the
editor will ask for), then every other step of ``physics.warmup``.  Until the scene
step is done the editor draws the shapes with no answers and a panel says which
kernel is compiling; it draws the answers as soon as the scene's pairs are ready.
When every step is done the cache is marked warm and later starts skip all this.

numba compiles under one lock, so the window thread never compiles while the
thread does (it asks for no physics until the scene is ready); kernels already
compiled run from any thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from numba.core import event

from sweeplab.physics import warmup
from sweeplab.physics.kernel_cache import is_warm, mark_warm


class _CompileListener(event.Listener):
    """Remembers the name of the kernel numba is compiling (any thread)."""

    def __init__(self, owner: KernelCompilation):
        self.owner = owner

    def on_start(self, compile_event) -> None:
        dispatcher = compile_event.data.get("dispatcher")
        function = getattr(dispatcher, "py_func", None)
        if function is not None:
            self.owner.kernel = f"{function.__module__}.{function.__qualname__}"

    def on_end(self, compile_event) -> None:
        self.owner.compiled += 1


class KernelCompilation:
    """Compiles ``scene_step`` then the rest of the warmup in a daemon thread.
    Read ``scene_ready``, ``finished``, ``step`` (name), ``done``/``total`` (steps),
    ``kernel`` (the one compiling now), ``compiled`` (kernels so far) and ``error``
    from the window thread."""

    def __init__(self, scene_step: Callable[[], object]):
        self.steps = [warmup.Task("this scene", scene_step)] + warmup.tasks()
        self.total, self.done = len(self.steps), 0
        self.step, self.kernel, self.compiled = self.steps[0].name, "", 0
        self.scene_ready = self.finished = False
        self.error: str | None = None
        self.started = time.perf_counter()
        self._listener = _CompileListener(self)
        self._thread = threading.Thread(target=self._run, name="sweeplab kernel compilation", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        event.register("numba:compile", self._listener)
        try:
            for done, step in enumerate(self.steps):
                self.done = done
                self.step = step.name
                try:
                    step.run()
                except Exception:
                    if self.done > 0:
                        raise
                    # the scene's own error: the window reports it when it builds the view; compile the rest
                if self.done == 0:
                    self.scene_ready = True
            self.done = self.total
            mark_warm()
        except Exception as error:
            self.error = f"{self.step}: {type(error).__name__}: {error}"
        finally:
            event.unregister("numba:compile", self._listener)
            self.scene_ready = self.finished = True

    def status(self) -> str:
        """One line: which step, how long, how many kernels so far, which one now."""
        seconds = time.perf_counter() - self.started
        return f"{self.step} ({seconds:.0f} s, {self.compiled} kernels compiled): {self.kernel}"


def start_if_cold(scene_step: Callable[[], object]) -> KernelCompilation | None:
    """A running ``KernelCompilation`` if the kernel cache is not warm, else None."""
    if is_warm():
        return None
    return KernelCompilation(scene_step)
