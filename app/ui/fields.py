"""Text fields that keep floats exact and commit when left.

A number shows its shortest round-trip text (``repr``) and typed text is read by
``scene.number_text.parse_number`` (a decimal, correctly rounded, or a hex float,
exactly), so a typed value is kept bit-exact.  Typed text is committed when the
field is left — Enter, Tab (which enters no other field: the keyboard goes back to the
shortcuts), or a click elsewhere — and Escape reverts it.  Text that
is no finite number is not applied: the field shows its old value again and
``take_refusal`` says why (the status line shows it).
"""

from __future__ import annotations

from imgui_bundle import imgui

from sweeplab.ui.drawn import remember
from sweeplab.scene.number_text import parse_number

_drafts: dict[int, str] = {}
"""Text being typed, per field (imgui id), until the field is left."""

_refusal: list[str] = []
"""Why the last typed number was not applied, until ``take_refusal`` takes it."""


def committed_text(label: str, shown: str) -> str | None:
    """A text field showing ``shown``; returns the typed text once the field is left
    after an edit — Enter, Tab, or a click elsewhere — else None.  Escape reverts.
    Tab leaves the field without entering the next one: the keyboard goes back to the
    editor's shortcuts (ImGui's tabbing would hold it in the next field)."""
    field = imgui.get_id(label)
    edited, text = imgui.input_text(label, _drafts.get(field, shown))
    if edited:
        _drafts[field] = text
    if imgui.is_item_active() and imgui.is_key_pressed(imgui.Key.tab):
        imgui.internal.nav_move_request_cancel()  # no tabbing into the next field
        imgui.internal.clear_active_id()
        typed = _drafts.pop(field, None)
        return typed if typed is not None and typed != shown else None
    if not imgui.is_item_deactivated():
        return None
    typed = _drafts.pop(field, None)
    return typed if typed is not None and typed != shown and imgui.is_item_deactivated_after_edit() else None


def exact_number_field(label: str, value: float, name: str | None = None) -> tuple[bool, float]:
    """A number shown as its shortest round-trip text; the typed text is read by
    ``parse_number`` when the field is left, so typed values are kept bit-exact.
    Returns (changed, value); text that is no finite number leaves the value as it was
    and is refused by ``name`` (default: ``label``), for ``take_refusal``."""
    text = committed_text(label, repr(float(value)))
    if text is None:
        return False, value
    try:
        return True, parse_number(text, name or label)
    except ValueError as error:
        _refusal[:] = [f"not applied: {error}"]
        return False, value


def take_refusal() -> str | None:
    """Why a typed number was last refused (once; None when none was since)."""
    return _refusal.pop() if _refusal else None


def vector_field(label: str, value) -> tuple[bool, list[float]]:
    """Three exact number fields on one row; returns (changed as a field is left, values)."""
    values, changed = list(value), False
    imgui.push_id(label)
    spacing = imgui.get_style().item_spacing.x  # between the fields, and before the label
    width = (imgui.get_content_region_avail().x - imgui.calc_text_size(label).x - 3 * spacing) / 3
    for axis in range(3):
        imgui.set_next_item_width(width)
        edited, number = exact_number_field(f"##{axis}", values[axis], f"{label}[{axis}]")
        remember(f"{label}[{axis}]")
        if edited:
            values[axis], changed = number, True
        imgui.same_line()
    imgui.text(label)
    imgui.pop_id()
    return changed, values
