"""The ImGui side of the editor, one file per thing on screen.

``panels`` (the frame: ``draw_ui`` calls everything in order; the scene list and
the inspector), ``menus``, ``dialogs``, ``results`` (answers and every hit along
the path), ``gizmo``, ``overlays`` (names, status, compiling, shortcuts),
``legend`` (the view's colours, in a corner of it), ``tools`` (fixtures, nudge,
perturbation scan), ``meshes`` (sphere trees, separating axes), ``lessons``,
``playground``, ``queries``, ``fields`` (exact text fields), ``fit`` (widths that
fit a docked column), ``layout`` (docking), ``commands`` (menus, shortcuts and help
from one table), ``state``, and ``drawn`` (where items were drawn, read by the
window tests).
"""
