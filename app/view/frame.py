"""A recorded playground frame drawn over the scene: each contact of the step as a
point and its normal as an arrow whose length is the contact's normal impulse,
scaled so that the frame's largest is ``ARROW`` times ``scale`` long (the editor
gives the largest body's reach: the scene's own extent may be a 200-unit path).
A contact that took no impulse (a pair leaving) is its point alone."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sweeplab.scene import tessellate
from sweeplab.view.model import LineBatch, PointBatch, ViewModel

FRAME_CONTACT = (1.0, 0.3, 0.55, 1.0)
FRAME_IMPULSE = (1.0, 0.75, 0.85, 1.0)
ARROW = 1.5
"""The largest impulse's arrow, in units of ``scale``."""


def with_frame_contacts(view: ViewModel, points, normals, impulses, scale: float) -> ViewModel:
    """``view`` (a copy) with the contacts at ``points`` (n, 3) along unit ``normals``
    (n, 3) carrying ``impulses`` (n,) drawn on top; ``view`` itself when n is 0.

        arrow_k = normal_k · impulse_k / max_j |impulse_j| · ARROW · scale"""
    points, normals = (np.asarray(a, float).reshape(-1, 3) for a in (points, normals))
    impulses = np.asarray(impulses, float).reshape(-1)
    if not len(points):
        return view
    largest = float(np.max(np.abs(impulses)))
    lengths = impulses / largest * ARROW * scale if largest > 0 else np.zeros_like(impulses)
    return replace(view, lines=[*view.lines, LineBatch(tessellate.arrows(points, normals * lengths[:, None]),
                                                       FRAME_IMPULSE, 3.0, on_top=True)],
                   points=[*view.points, PointBatch(points, FRAME_CONTACT, 11.0)])
