"""ImGuizmo on the selected shape, the end pose or the turn's pivot: move, turn,
resize; drags read exactly (``editor.gizmo_motion``), one undo step each.  On the end
pose the rings turn the sweep (``Editor.turn_end_pose``: a ring gives a step of the
turn each frame, so dragging round and round winds it past a half turn)."""

from __future__ import annotations

import numpy as np
from imgui_bundle import imgui, imguizmo

from sweeplab.editor import Editor
from sweeplab.editor.gizmo_motion import dragged_rotation, dragged_translation, float32_matrix
from sweeplab.scene.shape_kinds import KINDS, RigidMotion
from sweeplab.ui.state import PanelState
from sweeplab.view.turn import pivot_of


gizmo = imguizmo.im_guizmo


def gizmo_handles(editor: Editor, state: PanelState, size: tuple[int, int]) -> None:
    """ImGuizmo on the selected shape's pivot, on the end pose (at the turn's pivot
    carried to the end: its arrows set the direction, its rings the turn) or on the
    turn's pivot (its arrows move it)."""
    scene = editor.scene
    on_motion = (editor.end_pose or editor.pivot_handle) and scene.moving is not None
    if on_motion:
        pivot = pivot_of(scene) + (np.asarray(scene.direction) if editor.end_pose else 0.0)
    elif editor.selected is not None and editor.selected in scene.names():
        picked = scene.object(editor.selected)
        pivot = KINDS[picked.kind].pivot(picked.params)
    else:
        return
    x, y, width, height = state.view_rect
    gizmo.set_drawlist(imgui.get_background_draw_list())
    gizmo.set_rect(x, y, width, height)
    view = gizmo.Matrix16(np.asarray(editor.camera.view(), "f4").ravel().tolist())
    projection = gizmo.Matrix16(np.asarray(editor.camera.projection(width / height), "f4").ravel().tolist())
    selected = scene.object(editor.selected) if editor.selected is not None and editor.selected in scene.names() \
        else None
    resizing = (editor.gizmo_operation == "scale" and not on_motion and selected is not None
                and ("radius" in selected.params or selected.kind == "polyhedron"))
    if resizing:
        _resize_gizmo(editor, state, view, projection, selected)
        return
    before = float32_matrix(pivot)
    matrix = gizmo.Matrix16(before.ravel().tolist())
    operation = gizmo.OPERATION.rotate if editor.gizmo_operation == "rotate" and not editor.pivot_handle \
        else gizmo.OPERATION.translate
    changed = gizmo.manipulate(view, projection, operation, gizmo.MODE.world, matrix)
    _track_drag(editor, state, None)
    if not changed:
        return
    if on_motion and editor.pivot_handle:
        editor.shift_pivot(dragged_translation(before, matrix.values))
    elif on_motion and operation == gizmo.OPERATION.rotate:
        editor.turn_end_pose(dragged_rotation(before, matrix.values))
    elif on_motion:
        editor.shift_end_pose(dragged_translation(before, matrix.values))
    elif operation == gizmo.OPERATION.translate:
        editor.move_selected(RigidMotion.translate(dragged_translation(before, matrix.values)))
    else:
        editor.move_selected(RigidMotion(dragged_rotation(before, matrix.values), pivot, np.zeros(3)))


def _track_drag(editor: Editor, state: PanelState, params: dict | None) -> None:
    """Begin/end one undo step as the gizmo starts/stops being dragged; remember the
    parameters the drag started from."""
    using = gizmo.is_using()
    if using and not state.dragging:
        editor.begin_drag()
        state.drag_start = params
    if not using and state.dragging:
        editor.end_drag()
        state.drag_start = None
    state.dragging = using


def _resize_gizmo(editor: Editor, state: PanelState, view, projection, selected) -> None:
    """ImGuizmo's scale handles in the shape's own frame: the axis handle scales a
    capsule's length, the others its radius (a sphere: any handle, its radius; a
    polyhedron: each handle along its axis)."""
    kind = KINDS[selected.kind]
    start = state.drag_start if state.dragging and state.drag_start is not None else selected.params
    frame = np.eye(4)
    frame[:3, :3] = kind.axis_frame(start)
    frame[3, :3] = kind.pivot(start)
    matrix = gizmo.Matrix16(frame.astype("f4").ravel().tolist())
    changed = gizmo.manipulate(view, projection, gizmo.OPERATION.scale, gizmo.MODE.local, matrix)
    _track_drag(editor, state, dict(selected.params))
    if not changed or not state.dragging:
        return
    scales = np.linalg.norm(np.asarray(matrix.values, float).reshape(4, 4)[:3, :3], axis=1)
    if selected.kind == "polyhedron":  # every handle scales along its own axis
        editor.scale_selected(state.drag_start or selected.params, scales)
        return
    candidates = scales if selected.kind == "sphere" else scales[:2]  # the handle that moved most
    across = max(candidates, key=lambda factor: abs(factor - 1))
    editor.resize_selected(state.drag_start or selected.params, scales[2], across)
