"""Where the panels drew the items the window tests check: what a person would see
cut off, hidden behind a tab or off-screen.

Every rectangle is window pixels, top-down, ``(x0, y0, x1, y1)``.  An item's
``clip`` is the rectangle ImGui clips it to when it is drawn (its window's inner
rectangle, or its table cell's), so a person sees the whole item only when its
``rect`` lies inside ``clip``.  ``text_width`` is how wide its text is drawn (0: no
text of its own) and ``region_right`` where the region it was laid out in ends on
the right (a table cell's: its column's edge, wherever the table is scrolled), so
a cell's text is cut by its column where ``rect[0] + text_width > region_right``.
``frame`` is ImGui's frame count when it was drawn: an item of a panel hidden behind
another tab keeps its old frame (an item of a window ImGui lays out but hides this
frame, as it does a window appearing behind another tab, is not remembered).  Read
by the window tests' drivers (``tests/app/layout_driver.py``: what is cut or hidden;
``tests/app/window_driver.py``: where to click a field, a scene-list row or a button);
the editor never reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from imgui_bundle import imgui


@dataclass(frozen=True)
class Drawn:
    rect: tuple[float, float, float, float]
    clip: tuple[float, float, float, float]
    text_width: float
    region_right: float
    frame: int


DRAWN: dict[str, Drawn] = {}
"""The last drawing of each remembered item, by name (``"scan button"``, ``"results
point t"``)."""


def remember(name: str, text: str = "") -> None:
    """Remember the last item drawn as ``name``, with the width of ``text`` (its text
    as drawn, for an item wider or narrower than its text)."""
    if imgui.internal.get_current_window().hidden:
        return
    low, high = imgui.get_item_rect_min(), imgui.get_item_rect_max()
    draw_list = imgui.get_window_draw_list()
    clip_low, clip_high = draw_list.get_clip_rect_min(), draw_list.get_clip_rect_max()
    right = imgui.get_cursor_screen_pos().x + imgui.get_content_region_avail().x
    DRAWN[name] = Drawn((low.x, low.y, high.x, high.y), (clip_low.x, clip_low.y, clip_high.x, clip_high.y),
                        imgui.calc_text_size(text).x if text else 0.0, right, imgui.get_frame_count())


def remember_rect(name: str, rect: tuple[float, float, float, float], clip: tuple[float, float, float, float]) -> None:
    """Remember something drawn straight into a draw list (no ImGui item): its
    rectangle and the clip rectangle it was drawn under."""
    DRAWN[name] = Drawn(rect, clip, 0.0, clip[2], imgui.get_frame_count())
