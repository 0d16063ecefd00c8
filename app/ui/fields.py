"""Text fields that keep floats exact and commit when left.

A number shows its shortest round-trip text (``repr``) and typed text is parsed
by ``float`` (correctly rounded), so a typed value is kept bit-exact.  Typed text
is committed when the field is left — Enter, Tab, or a click elsewhere — and
Escape reverts it.
"""

from __future__ import annotations

from imgui_bundle import imgui

_drafts: dict[int, str] = {}
"""Text being typed, per field (imgui id), until the field is left."""

FIELD_RECTS: dict[str, tuple[float, float, float, float]] = {}
"""Where each inspector field was drawn last frame (x0, y0, x1, y1 in window pixels,
top-down), by label: ``"radius"``, ``"direction[0]"``.  For scripted input: the
window tests click fields through it."""


def remember_rect(name: str) -> None:
    low, high = imgui.get_item_rect_min(), imgui.get_item_rect_max()
    FIELD_RECTS[name] = (low.x, low.y, high.x, high.y)


def committed_text(label: str, shown: str) -> str | None:
    """A text field showing ``shown``; returns the typed text once the field is left
    after an edit — Enter, Tab, or a click elsewhere — else None.  Escape reverts."""
    field = imgui.get_id(label)
    edited, text = imgui.input_text(label, _drafts.get(field, shown))
    if edited:
        _drafts[field] = text
    if not imgui.is_item_deactivated():
        return None
    typed = _drafts.pop(field, None)
    return typed if typed is not None and typed != shown and imgui.is_item_deactivated_after_edit() else None


def exact_number_field(label: str, value: float) -> tuple[bool, float]:
    """A number shown as its shortest round-trip text; the typed text is parsed by
    ``float`` (correctly rounded) when the field is left, so typed values are kept
    bit-exact.  Returns (changed, value); text that is not a number is ignored."""
    text = committed_text(label, repr(float(value)))
    if text is None:
        return False, value
    try:
        return True, float(text)
    except ValueError:
        return False, value


def vector_field(label: str, value) -> tuple[bool, list[float]]:
    """Three exact number fields on one row; returns (changed as a field is left, values)."""
    values, changed = list(value), False
    imgui.push_id(label)
    spacing = imgui.get_style().item_spacing.x  # between the fields, and before the label
    width = (imgui.get_content_region_avail().x - imgui.calc_text_size(label).x - 3 * spacing) / 3
    for axis in range(3):
        imgui.set_next_item_width(width)
        edited, number = exact_number_field(f"##{axis}", values[axis])
        remember_rect(f"{label}[{axis}]")
        if edited:
            values[axis], changed = number, True
        imgui.same_line()
    imgui.text(label)
    imgui.pop_id()
    return changed, values
