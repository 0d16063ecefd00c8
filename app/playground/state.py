"""A world's state at one instant: ``capture`` it into a ``WorldState``, ``restore``
it later, and the world continues bit for bit as it would have from there.

What is captured: every field of the world except ``LOG`` (the contact events, a
history that no step reads), and every field of each mutable dataclass object the
world holds (its bodies; joints and the like as they come) and every attribute of a
``BY_ATTRIBUTES`` object (the callbacks' tracker), kept with the object itself, so a
restore writes the values back into the same objects (a body or a joint held
elsewhere stays the world's) — except a class's ``DERIVED`` fields, caches that
are reset to their defaults and rebuilt on demand.  Arrays are copied; containers
rebuilt; physics shapes (immutable), frozen dataclasses, numbers, names and functions
are shared.  A value of any other type raises ``TypeError``: a field added to the world
must be one of these or taught here (``tests/playground/test_state.py`` holds every
field of ``World`` and ``Body`` to this).

``WorldState.nbytes`` is what a state holds of its own (arrays and containers, not the
shared shapes): the recorder's measure of a frame.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields, is_dataclass, replace
from typing import Any

import numpy as np

from sweeplab.physics.shapes import Shape

LOG = frozenset({"events"})
"""World fields that are a record, not state: ``events`` (``restore`` drops the events
after the state's ``contact_count``; earlier ones it no longer holds are not brought back)."""

DERIVED = {"Body": frozenset({"_pose", "_posed", "_inverse_key", "_inverse", "_reach"}),
           "World": frozenset({"_slots", "_static_boxes"})}
"""Per class name, fields that are caches of other fields, each keyed by what it was
built from (a body's posed shape, world inverse inertia and reach; the world's body
indices by name and static shapes' boxes): not captured, reset to their defaults."""

BY_ATTRIBUTES = frozenset({"ContactTracker"})
"""Plain classes (not dataclasses) whose objects are captured as a mutable dataclass's
are, by their attributes (``vars``): the callbacks' pairs in contact."""

SHARED = (str, bytes, int, float, bool, type(None), np.generic, Shape)
"""Immutable values kept by reference."""


@dataclass(frozen=True)
class WorldState:
    """``world``: the world's captured fields by name; ``objects``: each mutable
    dataclass object reached from them, with its captured fields by name; ``owner``:
    the world it was taken from (weakly held)."""

    world: dict[str, Any]
    objects: tuple[tuple[Any, dict[str, Any]], ...]
    nbytes: int
    owner: Callable[[], Any] = field(default=lambda: None, repr=False, compare=False)


def copy_of(state: WorldState, instance):
    """A new object like ``instance`` (a body, say) with its fields as ``state`` holds
    them, its caches fresh: the object as it was, for reading, the world untouched."""
    values = next(values for kept, values in state.objects if kept is instance)
    return replace(instance, **{name: _fresh(value) for name, value in values.items()})


def captured_fields(instance) -> list[str]:
    """The fields of a world, a mutable dataclass object or a ``BY_ATTRIBUTES`` object
    that a state captures."""
    left_out = DERIVED.get(type(instance).__name__, frozenset())
    if type(instance).__name__ == "World":
        left_out = left_out | LOG
    names = [f.name for f in fields(instance)] if is_dataclass(instance) else list(vars(instance))
    return [name for name in names if name not in left_out]


def capture(world) -> WorldState:
    """The world's state now (nothing of it shared with the world but immutable values)."""
    objects: dict[int, tuple[Any, dict[str, Any]]] = {}
    size = [0]
    values = {name: _kept(getattr(world, name), objects, size, f"World.{name}") for name in captured_fields(world)}
    return WorldState(values, tuple(objects.values()), size[0], weakref.ref(world))


def restore(world, state: WorldState) -> None:
    """The world put back to ``state``; ``state`` stays as it was (it may be restored
    again).  The events after the state's ``contact_count`` are dropped from the log.
    ``ValueError``, the world untouched, for a state that is not this world's."""
    if not isinstance(state, WorldState):
        raise ValueError(f"state must be a WorldState (World.snapshot()), not {type(state).__name__}")
    if state.owner() is not world:
        raise ValueError("state is a snapshot of another world")
    later = world.contact_count - state.world["contact_count"]
    for instance, values in ((world, state.world), *state.objects):
        for name, value in values.items():
            setattr(instance, name, _fresh(value))
        for name in DERIVED.get(type(instance).__name__, ()):
            setattr(instance, name, _default(instance, name))
    del world.events[max(len(world.events) - later, 0):]  # (none when the state is the later)


def _kept(value, objects: dict, size: list[int], where: str):
    """``value`` as a state keeps it (module docstring); ``size`` gathers its bytes."""
    if isinstance(value, SHARED) or callable(value) and not is_dataclass(value):
        return value
    if isinstance(value, np.ndarray):
        size[0] += array_bytes(value)
        return value.copy()
    if isinstance(value, (list, tuple, set, frozenset)):
        size[0] += sys.getsizeof(value)
        return type(value)(_kept(item, objects, size, where) for item in value)
    if isinstance(value, dict):
        size[0] += sys.getsizeof(value)
        return {_kept(k, objects, size, where): _kept(v, objects, size, where) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type) and type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return value
    if is_dataclass(value) and not isinstance(value, type) or type(value).__name__ in BY_ATTRIBUTES:
        if id(value) not in objects:
            objects[id(value)] = (value, {})  # before its fields: an object reached twice is kept once
            kept = {name: _kept(getattr(value, name), objects, size, f"{type(value).__name__}.{name}")
                    for name in captured_fields(value)}
            objects[id(value)][1].update(kept)
        return value
    raise TypeError(f"{where} holds a {type(value).__name__}, which a WorldState cannot capture "
                    "(playground/state.py: share it if immutable, copy it if not)")


def array_bytes(array: np.ndarray) -> int:
    """An array's bytes: its data and its header."""
    return array.nbytes + _ARRAY_HEADER


_ARRAY_HEADER = sys.getsizeof(np.empty(0))


def _fresh(value):
    """A copy of a kept value that the world may change without changing the state."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, (list, tuple, set, frozenset)):
        return type(value)(_fresh(item) for item in value)
    if isinstance(value, dict):
        return {key: _fresh(item) for key, item in value.items()}
    return value


def _default(instance, name: str):
    declared = next(f for f in fields(instance) if f.name == name)
    return declared.default_factory() if declared.default_factory is not MISSING else declared.default
