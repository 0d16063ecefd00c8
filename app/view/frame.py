"""A recorded playground frame drawn over the scene: each contact of the step as a
point and its normal as an arrow whose length is the contact's normal impulse,
scaled so that the frame's largest is ``ARROW`` times ``scale`` long (the editor
gives the largest body's reach: the scene's own extent may be a 200-unit path).
A contact that took no impulse (a pair leaving) is its point alone.  Each joint is
the segment between its two anchors, coloured by its error: ``JOINT_HELD`` at none,
``JOINT_BROKEN`` at ``BROKEN_AT`` or more, mixed linearly between.  A pool's water
(``playground.pool``) is a see-through ``WATER`` surface through its columns' heights."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sweeplab.scene import tessellate
from sweeplab.view.model import Drawable, LineBatch, PointBatch, ViewModel

FRAME_CONTACT = (1.0, 0.3, 0.55, 1.0)
FRAME_IMPULSE = (1.0, 0.75, 0.85, 1.0)
JOINT_HELD = (0.3, 0.9, 0.35, 1.0)
JOINT_BROKEN = (1.0, 0.15, 0.1, 1.0)
BROKEN_AT = 1e-2
"""A joint error (units or radians) drawn all ``JOINT_BROKEN``: a centimetre, or 0.6°,
is far past a held joint's (a resting pendulum's: 1e-15, a rope bridge's stretch
under load: a few per cent of a link)."""
WATER = (0.2, 0.5, 0.95, 0.45)
"""The pool's surface: blue, see-through (the bodies in it show)."""
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


def joint_colour(error: float) -> tuple[float, ...]:
    """``JOINT_HELD`` mixed towards ``JOINT_BROKEN`` by error / ``BROKEN_AT`` (at most 1).

        s = min(error / BROKEN_AT, 1),   colour = (1 - s) · held + s · broken   (exact at both ends)"""
    share = min(max(float(error), 0.0) / BROKEN_AT, 1.0)
    return tuple((1 - share) * held + share * broken for held, broken in zip(JOINT_HELD, JOINT_BROKEN, strict=True))


def with_joint_errors(view: ViewModel, ends, errors) -> ViewModel:
    """``view`` (a copy) with each joint's segment ``ends`` (n, 2, 3) drawn on top in
    its error's colour (``errors`` (n,)); ``view`` itself when n is 0."""
    ends = np.asarray(ends, float).reshape(-1, 2, 3)
    if not len(ends):
        return view
    lines = [LineBatch(segment[None], joint_colour(error), 3.0, on_top=True) for segment, error in zip(
        ends, np.asarray(errors, float).reshape(-1), strict=True)]
    return replace(view, lines=[*view.lines, *lines])


def surface_mesh(corner, cell_size: float, heights) -> tessellate.Mesh:
    """A water surface over a grid of columns (``heights`` (nx, ny), the first column's
    corner at ``corner`` = (x0, y0), z up) as triangles: a vertex at each column
    corner, at the mean height of the (up to four) columns that meet there, so the
    surface reaches the pool's walls; two triangles a column."""
    heights = np.asarray(heights, float)
    nx, ny = heights.shape
    padded = np.pad(heights, 1, mode="edge")
    z = (padded[:-1, :-1] + padded[1:, :-1] + padded[:-1, 1:] + padded[1:, 1:]) / 4  # (nx + 1, ny + 1)
    x = corner[0] + np.arange(nx + 1) * cell_size
    y = corner[1] + np.arange(ny + 1) * cell_size
    grid = np.stack([*np.meshgrid(x, y, indexing="ij"), z], axis=-1)
    a, b, c, d = grid[:-1, :-1], grid[1:, :-1], grid[1:, 1:], grid[:-1, 1:]
    triangles = np.concatenate([np.stack([a, b, c], axis=-2), np.stack([a, c, d], axis=-2)]).reshape(-1, 3, 3)
    return tessellate.Mesh(triangles)


def with_water(view: ViewModel, corner, cell_size: float, heights) -> ViewModel:
    """``view`` (a copy) with the water surface (``surface_mesh``) drawn in ``WATER``."""
    return replace(view, drawables=[*view.drawables, Drawable(surface_mesh(corner, cell_size, heights), WATER,
                                                              outline_width=0.0, point_size=0.0)])
