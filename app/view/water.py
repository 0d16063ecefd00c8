"""A playground's water drawn over the scene: the surface as a translucent square of
the plane (``SURFACE``, blue, a third opaque: the bodies show through it; its grid
in ``SURFACE_EDGE``), and each
body's waterline, the loop where the surface cuts it, as a line on top
(``WATERLINE``), so the part under water reads at a glance.

Plain data in (the plane, the loops; ``playground.buoyancy`` computes them in the
editor), drawables out: no physics here."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sweeplab.scene import tessellate
from sweeplab.view.model import Drawable, LineBatch, ViewModel

SURFACE = (0.15, 0.45, 0.95, 0.32)
SURFACE_EDGE = (0.3, 0.6, 1.0, 0.6)
WATERLINE = (0.55, 0.95, 1.0, 1.0)


def with_water_plane(view: ViewModel, point, up, half_size: float, loops) -> ViewModel:
    """``view`` (a copy) with the water's surface, a square of ``half_size`` about
    ``point`` on the plane through it with unit normal ``up``, and the closed
    ``loops`` (each (k, 3), k >= 3; shorter ones are skipped) drawn on top."""
    square = tessellate.plane_patch(up, 0.0, half_size).translated(point)  # (with its grid)
    surface = Drawable(square, SURFACE, SURFACE_EDGE, 1.0, 0.0)
    segments = [np.stack([loop, np.roll(loop, -1, axis=0)], axis=1) for loop in loops if len(loop) >= 3]
    lines = [LineBatch(np.concatenate(segments), WATERLINE, 3.0, on_top=True)] if segments else []
    return replace(view, drawables=[*view.drawables, surface], lines=[*view.lines, *lines])
