"""The Inspector's fields for the sweep's turn: the rotation vector (exact), its angle
in degrees (any size: a gizmo ring gives at most a half turn each way from where a
drag starts, a typed angle several turns), the interpolation, and the pivot (shown as
"centroid" until set; dragged with the gizmo on the pivot, P)."""

from __future__ import annotations

import math

from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.scene.model import INTERPOLATIONS
from sweeplab.ui.drawn import remember
from sweeplab.ui.fields import exact_number_field, vector_field
from sweeplab.view.turn import pivot_of


def turn_fields(editor: Editor) -> None:
    scene = editor.scene
    changed, rotation = vector_field("rotation", scene.rotation)
    if changed:
        editor.set_rotation(rotation)
    angle = math.degrees(math.sqrt(sum(component * component for component in scene.rotation)))
    changed, degrees = exact_number_field("degrees", angle, "turn in degrees")
    remember("turn degrees")
    if changed:
        editor.set_turn_angle(math.radians(degrees))
    imgui.text("interpolation")
    imgui.same_line()
    imgui.set_next_item_width(-1)
    position = INTERPOLATIONS.index(scene.interpolation)
    changed, position = imgui.combo("##interpolation", position, list(INTERPOLATIONS))
    remember("interpolation")
    if changed:
        editor.set_interpolation(INTERPOLATIONS[position])
    if scene.moving is None:
        return
    if scene.pivot is None:
        imgui.text_disabled(f"pivot: centroid {_point(pivot_of(scene))}")
        remember("pivot centroid")
    else:
        changed, pivot = vector_field("pivot", scene.pivot)
        if changed:
            editor.set_pivot(pivot)
        if imgui.small_button("pivot to centroid"):
            editor.reset_pivot()
        remember("pivot to centroid")


def _point(point) -> str:
    return "(" + ", ".join(f"{value:.4g}" for value in point) + ")"
