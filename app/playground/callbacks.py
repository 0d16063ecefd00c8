"""Contact callbacks: begin, persist and end of a contact between two things.

A pair (a body and a static shape, or two bodies) is *in contact* in a step when a
contact between them was resolved in the step (an event) or they still touch at its
end (``World._come_to_rest``).  After each step, for each pair:

- ``on_begin``: in contact now, not after the last step;
- ``on_persist``: in contact now and after the last step (not called for a sleeping
  pair: it stays in contact, silent, until its island wakes);
- ``on_end``: in contact after the last step, not now.

Each call gets a ``ContactPair``: the names (a body first), the latest point and normal
(from the second towards the first) and the total normal impulse over the step (0 for
an end, and for a pair only touching at the step's end).  A callback may read the world
but must not step it.  The world's ``events`` list stays as it was: one event per
resolved contact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ContactPair:
    first: str
    second: str
    point: np.ndarray
    normal: np.ndarray
    impulse: float


Callback = Callable[[ContactPair], None]


class ContactTracker:
    """The pairs in contact after the last step, and the calls that a step's contacts make."""

    def __init__(self) -> None:
        self.in_contact: dict[tuple[str, str], ContactPair] = {}

    def update(self, now: dict[tuple[str, str], ContactPair], sleeping: set[tuple[str, str]],
               on_begin: Callback | None, on_persist: Callback | None, on_end: Callback | None) -> None:
        """Compare ``now`` (this step's pairs in contact) and the ``sleeping`` pairs (kept in
        contact, silent) with the last step's, call the callbacks, and remember ``now``."""
        before = self.in_contact
        current = dict(now)
        for pair in sleeping:
            if pair in before and pair not in current:
                current[pair] = before[pair]
        self.in_contact = current
        for pair, contact in current.items():
            if pair not in before:
                if on_begin is not None:
                    on_begin(contact)
            elif pair not in sleeping and on_persist is not None:
                on_persist(contact)
        if on_end is not None:
            for pair, contact in before.items():
                if pair not in current:
                    on_end(ContactPair(contact.first, contact.second, contact.point, contact.normal, 0.0))
