"""Small campaign tasks a worker process imports by name (module level, so they
pickle; light, so a worker starts quickly): ones that crash their process, fail or
answer."""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass


def crash(how: str) -> None:
    """End this process as an engine's bug would: ``abort`` (SIGABRT) or ``segfault``
    (SIGSEGV, a read of address 0)."""
    if how == "abort":
        os.abort()
    ctypes.string_at(0)



@dataclass(frozen=True)
class Echo:
    """A task that marks ``position`` (when given), then ends its process ``how``
    (``crash``; when given) or answers ``value``; after a crash, the task run instead
    answers ("after a crash at", the position marked), or none with ``give_up``."""

    value: object
    position: int | None = None
    how: str = ""
    give_up: bool = False

    def __call__(self, mark):
        if self.position is not None:
            mark(self.position)
        if self.how:
            crash(self.how)
        return self.value

    def after_crash(self, position):
        return None if self.give_up else Echo(("after a crash at", position))


@dataclass(frozen=True)
class Fails:
    """A task that raises an ordinary error (a bug, not a crash)."""

    def __call__(self, mark):
        raise ZeroDivisionError("a bug in a task")

    def after_crash(self, position):
        raise AssertionError("an error in a task is not a crash")
