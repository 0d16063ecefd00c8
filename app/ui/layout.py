"""The editor's window layout: ImGui docking, with the 3D view in the middle.

A dockspace covers the window; its central node stays empty (ImGui passes input
through it) and the 3D view is drawn in that node's rectangle, so no panel covers
the view and panels dock beside each other, or as tabs, never on top.  The
default layout puts the scene list, inspector and nudge tools on the left, the
analysis panels (meshes, separating axes, perturbation scan, fixture) as tabs on
the right and the results below the view.  Users rearrange it by dragging tabs;
ImGui keeps it in ``layout_file()`` between runs, and View > Reset layout
rebuilds the default.
"""

from __future__ import annotations

import os
from pathlib import Path

from imgui_bundle import imgui

LEFT = ("Scene", "Inspector", "Nudge")
RIGHT = ("Lesson", "Playground", "Conservative advancement", "Hits along the path", "Meshes", "Separating axes",
         "Perturbation scan", "Fixture: expected vs actual")
BOTTOM = ("Results", "Queries")
PANELS = LEFT + BOTTOM + RIGHT
"""Every docked panel, by window name."""
LEFT_WIDTH, RIGHT_WIDTH, BOTTOM_HEIGHT = 0.22, 0.27, 0.3
"""Fractions of the window the default layout gives the left and right columns and,
of the middle column, the results."""


def layout_file() -> Path:
    """Where ImGui keeps the layout: ``$XDG_CONFIG_HOME/sweeplab/layout.ini``."""
    folder = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "sweeplab"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "layout.ini"


def dock_panels(reset: bool = False) -> tuple[float, float, float, float]:
    """The dockspace for this frame (call before any panel); builds the default
    layout on first use or when ``reset``.  Returns the 3D view's rectangle (x, y,
    width, height) in window pixels, top-down."""
    viewport = imgui.get_main_viewport()
    dockspace = imgui.dock_space_over_viewport(0, viewport, imgui.DockNodeFlags_.passthru_central_node)
    root = imgui.internal.dock_builder_get_node(dockspace)
    if reset or root is None or root.is_leaf_node():
        _build_default(dockspace, viewport)
    central = imgui.internal.dock_builder_get_central_node(dockspace)
    if central is None:
        return viewport.work_pos.x, viewport.work_pos.y, viewport.work_size.x, viewport.work_size.y
    return central.pos.x, central.pos.y, max(central.size.x, 1.0), max(central.size.y, 1.0)


def _build_default(dockspace: int, viewport) -> None:
    builder = imgui.internal
    builder.dock_builder_remove_node(dockspace)
    builder.dock_builder_add_node(dockspace, imgui.DockNodeFlags_.passthru_central_node
                                  | imgui.internal.DockNodeFlagsPrivate_.dock_space)
    builder.dock_builder_set_node_size(dockspace, viewport.work_size)
    left = builder.dock_builder_split_node(dockspace, imgui.Dir.left, LEFT_WIDTH)
    right = builder.dock_builder_split_node(left.id_at_opposite_dir, imgui.Dir.right,
                                            RIGHT_WIDTH / (1 - LEFT_WIDTH))
    bottom = builder.dock_builder_split_node(right.id_at_opposite_dir, imgui.Dir.down, BOTTOM_HEIGHT)
    scene = builder.dock_builder_split_node(left.id_at_dir, imgui.Dir.up, 0.32)
    inspector = builder.dock_builder_split_node(scene.id_at_opposite_dir, imgui.Dir.up, 0.62)
    for name, node in zip(LEFT, (scene.id_at_dir, inspector.id_at_dir, inspector.id_at_opposite_dir), strict=True):
        builder.dock_builder_dock_window(name, node)
    for name in RIGHT:
        builder.dock_builder_dock_window(name, right.id_at_dir)
    for name in BOTTOM:
        builder.dock_builder_dock_window(name, bottom.id_at_dir)
    builder.dock_builder_finish(dockspace)
