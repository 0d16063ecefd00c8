"""One lane's answer, as every sweep kernel returns it, and the arrays a batch of
answers is written to.

A lane kernel answers a ``LaneAnswer``: the time of first contact ``t`` (NaN where
there is no hit), the contact ``point`` and ``normal`` as 3-vector tuples (the normal
pointing from the target towards the moving shape), the ``depth`` of an initial
overlap (> 0; NaN where the shapes do not overlap at t = 0) and the target's feature
(``feature_code``: ``core.VERTEX``, ``EDGE`` or ``FACE``, and its ``feature_index``;
-1 and -1 where there is no hit).  numba compiles the NamedTuple as the plain tuple it is, so a
kernel reads ``answer.t`` at the cost of ``answer[0]``; an entry Python calls for one
lane (``ball.ball_core_answer`` ...) returns it ``plain``.

A batch writes lane i's answer to row i of six arrays (``answer_arrays``,
``store_answer``): a ``Contact`` of its lanes.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from sweeplab.physics.geometry import like
from sweeplab.physics.kernels import kernel


class LaneAnswer(NamedTuple):
    """One lane's answer (module docstring); floats in the lane's dtype."""

    t: float
    point: tuple
    normal: tuple
    depth: float
    feature_code: int
    feature_index: int


class Contact(NamedTuple):
    """A batch's answers: ``t`` NaN where no hit; ``depth`` > 0 overlapping, NaN otherwise;
    ``point`` is on the inflated target's surface (core point + target radius * normal);
    ``feature_code``/``feature_index`` -1 where no hit."""

    t: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    depth: np.ndarray
    feature_code: np.ndarray
    feature_index: np.ndarray


@kernel
def miss(template):
    """The answer of a lane that hits nothing: t, point, normal and depth NaN, feature
    code and index -1 (in ``template``'s float type)."""
    nan = like(template, math.nan)
    return LaneAnswer(nan, (nan, nan, nan), (nan, nan, nan), nan, -1, -1)


@kernel
def plain(answer):
    """``answer`` as the plain tuple it is, for an entry Python calls (``*_answer``):
    numba hands a NamedTuple to Python by calling its class.  One sphere-triangle lane
    called through its machine code, as ``sweep/scalar`` calls it, took 2.58 us
    returning a ``LaneAnswer`` and 0.95 us returning the plain tuple (best of 15 rounds
    here): more than the kernel itself."""
    return answer.t, answer.point, answer.normal, answer.depth, answer.feature_code, answer.feature_index


def answer_arrays(count: int, dtype) -> tuple:
    """Room for ``count`` lanes' answers: t, point (count, 3), normal (count, 3), depth in
    ``dtype``, feature code and index in int64 (what ``store_answer`` writes)."""
    return (np.empty(count, dtype), np.empty((count, 3), dtype), np.empty((count, 3), dtype), np.empty(count, dtype),
            np.empty(count, np.int64), np.empty(count, np.int64))


@kernel
def store_answer(out, i, answer):
    """Lane ``i``'s ``answer`` into row i of ``out`` (``answer_arrays``)."""
    t, point, normal, depth, code, index = answer
    out_t, out_point, out_normal, out_depth, out_code, out_index = out
    out_t[i], out_depth[i], out_code[i], out_index[i] = t, depth, code, index
    for k in range(3):
        out_point[i, k], out_normal[i, k] = point[k], normal[k]
