"""The menu bar: built from ``commands.COMMANDS``, plus the Add menu and File > Recover."""

from __future__ import annotations

from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.scene import autosave
from sweeplab.scene.shape_kinds import KINDS
from sweeplab.ui.commands import COMMANDS, MENUS
from sweeplab.ui.layout import PANELS
from sweeplab.ui.lessons import lessons_menu
from sweeplab.ui.meshes import add_mesh_menu
from sweeplab.ui.state import PanelState


def menu_bar(editor: Editor, state: PanelState) -> None:
    """The menus, built from ``commands.COMMANDS`` (plus the Add menu and File > Recover)."""
    if not imgui.begin_main_menu_bar():
        return
    for menu in MENUS:
        if imgui.begin_menu(menu):
            for command in COMMANDS:
                if command.menu != menu:
                    continue
                checked = command.checked(editor, state) if command.checked is not None else False
                if imgui.menu_item(command.label, command.key_label(), checked, command.enabled(editor))[0]:
                    command.run(editor, state)
            if menu == "File":
                _recover_menu(editor)
            if menu == "View":
                _show_menu(state)
                lessons_menu(editor)
            imgui.end_menu()
        if menu == "Edit":
            _add_menu(editor, state)
    imgui.end_main_menu_bar()


def _show_menu(state: PanelState) -> None:
    """View > Show: every docked panel by name (a tab hidden behind another comes forward)."""
    if imgui.begin_menu("Show panel"):
        for name in PANELS:
            if imgui.menu_item_simple(name):
                state.focus = name
        imgui.end_menu()


def _recover_menu(editor: Editor) -> None:
    """File > Recover: the autosaves of untitled sessions, newest first."""
    found = autosave.untitled_autosaves()
    if imgui.begin_menu("Recover untitled work", bool(found)):
        for path in found[:20]:
            if imgui.menu_item_simple(path.name):
                editor.recover(path)
        imgui.end_menu()


def _add_menu(editor: Editor, state: PanelState) -> None:
    if not imgui.begin_menu("Add"):
        return
    for kind in KINDS:
        if kind == "mesh":
            if imgui.begin_menu("Mesh"):
                if add_mesh_menu(editor):
                    state.path_dialog, state.path_text = "mesh file", ""
                imgui.end_menu()
        elif kind == "polyhedron":
            if imgui.begin_menu("Polyhedron"):
                for shape in ("box", "tetrahedron", "random hull"):
                    if imgui.menu_item_simple(shape):
                        editor.add_polyhedron(shape)
                imgui.end_menu()
        elif imgui.menu_item_simple(kind.title()):
            editor.add(kind)
    imgui.end_menu()
