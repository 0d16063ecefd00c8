"""The legend: the colours the 3D view shows now, in a corner of the view.

It is drawn into the viewport's background draw list, clipped to the view: under
every panel and dialog (a window of its own was drawn over "Restore autosave?") and
never past the view's edge (it spilled over the Inspector when the view was
narrow).  It lists only the colours the view draws with at the moment, as many
columns as fit in ``WIDTH_SHARE`` of the view's width, and sits in the corner that
covers the fewest contact and feature points and shapes' pivots (the bottom right
unless something shows there).
"""

from __future__ import annotations

import math

import numpy as np
from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.scene.shape_kinds import KINDS
from sweeplab.ui.drawn import remember_rect
from sweeplab.ui.state import PanelState
from sweeplab.view import frame as view_frame
from sweeplab.view import model as view_model

ENTRIES = (
    (view_model.START, "start"),
    (view_model.TIME_OF_IMPACT, "time of impact"),
    (view_model.END, "end"),
    (view_model.PATH, "swept path"),
    (view_model.HIT, "target hit"),
    (view_model.EARLIEST, "first hit (outline)"),
    (view_model.MISS, "target missed"),
    (view_model.OVERLAP, "overlapping at start"),
    (view_model.CONTACT, "contact point"),
    (view_model.NORMAL, "contact normal"),
    (view_model.SEPARATION, "separation (depth)"),
    (view_model.FEATURE, "feature touched"),
    (view_model.SELECTED, "selected (outline)"),
    (view_model.INTERVAL, "touching (every hit)"),
    (view_model.ENGINE, "another engine's answer"),
    (view_model.SLIDE, "collide and slide"),
    (view_model.GHOST, "turning: poses along the way"),
    (view_model.ARC, "turning: path of the farthest point"),
    (view_model.PIVOT, "turning: pivot and its path"),
    (view_model.ADVANCE, "advancement iteration's pose"),
    (view_frame.FRAME_CONTACT, "playground frame: contact"),
    (view_frame.FRAME_IMPULSE, "playground frame: normal x impulse"),
    (view_frame.JOINT_HELD, "playground frame: joint held"),
    (view_frame.JOINT_BROKEN, f"playground frame: joint off by {view_frame.BROKEN_AT:g}+"),
)
"""Each colour of the view and what it means."""

WIDTH_SHARE = 0.6
"""The legend takes at most this share of the view's width (one column at least)."""
MARGIN = 6.0
"""Pixels between the legend and the view's edge, and inside the legend around its rows."""
CORNERS = ((1, 1), (0, 1), (1, 0), (0, 0))
"""(right, bottom) of each corner, in order of preference."""


def shown_entries(view: view_model.ViewModel) -> list[tuple[tuple, str]]:
    """The entries whose colour the view draws with (fills, outlines, lines, points),
    told apart by red, green and blue (a colour is drawn at several opacities)."""
    used = [colour for drawable in view.drawables for colour in (drawable.fill, drawable.outline)]
    used += [batch.color for batch in view.lines] + [batch.color for batch in view.points]
    drawn = {_rgb(colour) for colour in used}
    return [(colour, meaning) for colour, meaning in ENTRIES if _rgb(colour) in drawn]


def _rgb(colour) -> tuple[float, float, float]:
    red, green, blue = (round(float(value), 4) for value in colour[:3])
    return red, green, blue


def grid(count: int, cell_width: float, view_width: float) -> tuple[int, int]:
    """(columns, rows) for ``count`` entries of ``cell_width`` pixels: as many columns
    as fit in ``WIDTH_SHARE`` of the view's width, at least one, at most ``count``."""
    if count < 0 or not cell_width > 0:
        raise ValueError(f"count must be >= 0 and cell_width > 0, got count={count!r}, cell_width={cell_width!r}")
    columns = max(1, min(count, math.floor(WIDTH_SHARE * view_width / cell_width)))
    return columns, math.ceil(count / columns)


def corner(view_rect, box: tuple[float, float], points: np.ndarray, top_reserved: float) -> tuple[float, float]:
    """The top-left pixel of a ``box`` (width, height) in the corner of ``view_rect``
    (x, y, width, height) that holds the fewest ``points`` (window pixels, (n, 2)),
    the first of ``CORNERS`` on a tie.  The top corners start ``top_reserved`` pixels
    down (the status line)."""
    x, y, width, height = view_rect
    box_width, box_height = box
    points = np.asarray(points, float).reshape(-1, 2)

    def place(right: int, bottom: int) -> tuple[float, float]:
        left = x + width - MARGIN - box_width if right else x + MARGIN
        top = y + height - MARGIN - box_height if bottom else y + top_reserved
        return left, top

    def covered(right: int, bottom: int) -> int:
        left, top = place(right, bottom)
        inside = ((points[:, 0] >= left) & (points[:, 0] <= left + box_width)
                  & (points[:, 1] >= top) & (points[:, 1] <= top + box_height))
        return int(inside.sum())

    return place(*min(CORNERS, key=lambda c: (covered(*c), CORNERS.index(c))))


def legend(editor: Editor, state: PanelState) -> None:
    """The colours of the 3D view, in a corner of it (View > Legend)."""
    view = editor.view()
    entries = shown_entries(view)
    if not entries:
        return
    x, y, width, height = state.view_rect
    style = imgui.get_style()
    swatch, row = imgui.get_text_line_height(), imgui.get_text_line_height_with_spacing()
    cell = swatch + style.item_inner_spacing.x + max(imgui.calc_text_size(m).x for _, m in entries) \
        + style.item_spacing.x * 2
    columns, rows = grid(len(entries), cell, width)
    box = (columns * cell - style.item_spacing.x * 2 + 2 * MARGIN, rows * row - style.item_spacing.y + 2 * MARGIN)
    shapes = [KINDS[o.kind].pivot(o.params) for o in editor.scene.objects]  # where each shape's name is shown
    points = np.concatenate([np.reshape(shapes, (-1, 3))] + [batch.positions for batch in view.points])
    pixels = editor.camera.project(points, (width, height), ahead_only=True) + (x, y)
    left, top = corner(state.view_rect, box, pixels, row + 2 * MARGIN)
    draw_list = imgui.get_background_draw_list()
    draw_list.push_clip_rect((x, y), (x + width, y + height), True)
    draw_list.add_rect_filled((left, top), (left + box[0], top + box[1]), imgui.get_color_u32((0.06, 0.06, 0.08, 0.7)),
                              4.0)
    for number, (colour, meaning) in enumerate(entries):
        cell_left, cell_top = left + MARGIN + number % columns * cell, top + MARGIN + number // columns * row
        draw_list.add_rect_filled((cell_left + 2, cell_top + 2), (cell_left + swatch - 2, cell_top + swatch - 2),
                                  imgui.get_color_u32((*colour[:3], 1.0)))
        draw_list.add_text((cell_left + swatch + style.item_inner_spacing.x, cell_top),
                           imgui.get_color_u32((1.0, 1.0, 1.0, 0.9)), meaning)
    draw_list.pop_clip_rect()
    remember_rect("legend", (left, top, left + box[0], top + box[1]), (x, y, x + width, y + height))
