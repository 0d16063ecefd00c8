"""The frame recorder: every step of a world kept (up to a memory budget), to look at
and to go back to, the way PhysX Visual Debugger and Box2D's samples let one find the
step where things went wrong.

Frame ``i`` is the world after its ``i``-th step since the recorder began (frame 0:
as it was then): its state (``state.WorldState``), the step's contact events (points,
normals, impulses), its ``StepStats``, its joints' errors and its size ``dt``.  ``record()`` after each
step keeps one (``amend()`` before it, after an edit between steps); ``seek(i)``
puts the world back to frame ``i``, from which it continues bit for bit as it did (a
step recorded there drops the frames after it: a new branch).

Memory: a frame's ``nbytes`` is its state's plus its events' (arrays, containers and
the objects themselves; the bodies' shapes are shared with the world, not counted).
When the frames kept pass ``budget_bytes`` the oldest are dropped (``dropped`` counts
them; the newest is always kept).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from sweeplab.playground.state import WorldState, array_bytes
from sweeplab.playground.stats import StepStats
from sweeplab.playground.world import ContactEvent, World

DEFAULT_BUDGET = 256 * 2 ** 20
"""Bytes of frames kept by default: ~49,000 frames of the bundled playground scene's
three bodies (measured: 5.5 kB a frame, median of its first 2 s; 3.5 to 8.6 kB), 14
minutes at 60 steps a second.  A frame costs ~0.15 ms to take there (a step 2.6 ms
with two of the three asleep); ``PlaygroundRun`` takes two a step (``amend``, ``record``)."""


@dataclass(frozen=True)
class JointFrame:
    """A joint at a frame: its bodies' names (``second`` None: the world), its position
    error (``World.joint_errors``: units, or radians for an axis or a limit) and its
    two anchors in the world, ``ends`` (2, 3)."""

    first: str
    second: str | None
    error: float
    ends: np.ndarray


@dataclass(frozen=True)
class Frame:
    """The world after a step: ``index`` (steps since the recorder began), ``dt``
    (``time`` less the previous frame's: the step's size to rounding; 0 for frame 0),
    ``state``, the step's ``events`` and ``stats``, its ``joints`` (each one's error
    and anchors after the step), and the bytes it holds."""

    index: int
    time: float
    dt: float
    state: WorldState
    events: tuple[ContactEvent, ...]
    stats: StepStats
    joints: tuple[JointFrame, ...]
    nbytes: int


class Recorder:
    """Frames of ``world``, from the one it is in now (frame 0) on."""

    def __init__(self, world: World, budget_bytes: int = DEFAULT_BUDGET):
        if not isinstance(world, World):
            raise ValueError(f"world must be a playground World, not {type(world).__name__}")
        if isinstance(budget_bytes, bool) or not isinstance(budget_bytes, int) or budget_bytes <= 0:
            raise ValueError(f"budget_bytes must be a positive whole number of bytes, not {budget_bytes!r}")
        self.world, self.budget_bytes = world, budget_bytes
        self.frames: list[Frame] = []
        """The frames kept, oldest first: ``frames[k]`` is frame ``first + k``."""
        self.dropped = 0
        """Frames dropped, oldest first, to keep within the budget."""
        self.nbytes = 0
        self.position = 0
        """The frame the world is at."""
        self._keep(self._frame(0, 0.0, (), StepStats()))

    @property
    def first(self) -> int:
        return self.dropped

    @property
    def last(self) -> int:
        return self.dropped + len(self.frames) - 1

    def record(self) -> Frame:
        """Keep the world's latest step as the frame after ``position`` (call after each step)."""
        self._drop_later()
        before = self.frames[-1]
        count = self.world.contact_count - before.state.world["contact_count"]
        events = tuple(self.world.events[len(self.world.events) - count:]) if count else ()
        frame = self._frame(before.index + 1, self.world.time - before.time, events, self.world.last_stats)
        self._keep(frame)
        return frame

    def amend(self) -> Frame:
        """The frame at ``position`` re-taken from the world as it is now: after an edit
        between steps (a body moved, a velocity set), which the next step starts from,
        so that a seek there replays it.  Its step's events and stats stay; the frames
        after it are dropped (another branch)."""
        self._drop_later()
        old = self.frames.pop()
        self.nbytes -= old.nbytes
        amended = self._frame(old.index, old.dt, old.events, old.stats)
        self.frames.append(amended)
        self.nbytes += amended.nbytes
        return amended

    def frame(self, index: int) -> Frame:
        """Frame ``index`` (``first`` to ``last``)."""
        return self.frames[self._offset(index)]

    def seek(self, index: int) -> Frame:
        """The world put back to frame ``index`` (``first`` to ``last``), its event log
        with it (the events of later frames dropped, of the frames sought past added)."""
        frame = self.frames[self._offset(index)]
        self.world.restore(frame.state)
        for passed in self.frames[self.position + 1 - self.dropped:index + 1 - self.dropped]:  # (none going back)
            self.world.events.extend(passed.events)
        self.position = index
        return frame

    def _offset(self, index) -> int:
        if isinstance(index, bool) or not isinstance(index, int) or not self.first <= index <= self.last:
            raise ValueError(f"index {index!r} is not a recorded frame (frames {self.first} to {self.last})")
        return index - self.dropped

    def _drop_later(self) -> None:
        """The frames after ``position`` dropped (the world was sent back to it)."""
        later = self.frames[self.position + 1 - self.dropped:]
        if later:
            self.nbytes -= sum(frame.nbytes for frame in later)
            del self.frames[self.position + 1 - self.dropped:]

    def _frame(self, index: int, dt: float, events: tuple[ContactEvent, ...], stats: StepStats) -> Frame:
        state, world = self.world.snapshot(), self.world
        joints = tuple(JointFrame(joint.first, joint.second, error, np.array(joint.anchors(*world.joint_bodies(joint))))
                       for joint, error in world.joint_errors().items())
        nbytes = state.nbytes + sys.getsizeof(state) + sys.getsizeof(stats) + sys.getsizeof(events) + sum(
            _event_bytes(event) for event in events) + sys.getsizeof(joints) + sum(
            sys.getsizeof(joint) + array_bytes(joint.ends) for joint in joints)
        return Frame(index, world.time, dt, state, events, stats, joints, nbytes + _FRAME_BYTES)

    def _keep(self, frame: Frame) -> None:
        """Add ``frame`` as the newest and the world's position; drop the oldest past the budget."""
        self.frames.append(frame)
        self.nbytes += frame.nbytes
        self.position = frame.index
        over = 0
        while self.nbytes > self.budget_bytes and over < len(self.frames) - 1:
            self.nbytes -= self.frames[over].nbytes
            over += 1
        del self.frames[:over]
        self.dropped += over


_FRAME_BYTES = sys.getsizeof(Frame(0, 0.0, 0.0, WorldState({}, (), 0), (), StepStats(), (), 0))


def _event_bytes(event: ContactEvent) -> int:
    return sys.getsizeof(event) + array_bytes(event.point) + array_bytes(event.normal)


