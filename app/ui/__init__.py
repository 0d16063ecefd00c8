"""The ImGui side of the editor, one file per thing on screen.

``panels`` (the frame: ``draw_ui`` calls everything in order; the scene list and
the inspector), ``menus``, ``dialogs``, ``results`` (answers and every hit along
the path), ``gizmo``, ``overlays`` (legend, names, status, compiling, shortcuts),
``tools`` (fixtures, nudge, perturbation scan), ``meshes`` (sphere trees,
separating axes), ``fields`` (exact text fields), ``layout`` (docking),
``commands`` (menus, shortcuts and help from one table) and ``state``.
"""
