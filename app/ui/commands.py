"""Every editor command, once: its menu entry, key chords, help text and action.

The menu bar, the Shortcuts panel and the window's key bindings are all built
from ``COMMANDS``, so they cannot disagree (a menu entry showing Ctrl+O that did
nothing is how this table came about).  An action takes the ``Editor`` and the
panels' state (for the dialogs it opens).  Chords are ``"ctrl+shift+z"``-style,
in pyglet's key names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from imgui_bundle import imgui

from sweeplab.editor import Editor

if TYPE_CHECKING:
    from sweeplab.ui.state import PanelState

KEY_NAMES = {"bracketleft": "[", "bracketright": "]", "delete": "Delete", "tab": "Tab", "f1": "F1"}


def _always(editor: Editor) -> bool:
    return True


def _has_selection(editor: Editor) -> bool:
    return editor.selected is not None


def _has_moving(editor: Editor) -> bool:
    return editor.scene.moving is not None


@dataclass(frozen=True)
class Command:
    menu: str
    label: str
    run: Callable[[Editor, PanelState], None]
    keys: tuple[str, ...] = ()
    enabled: Callable[[Editor], bool] = _always
    checked: Callable[[Editor, PanelState], bool] | None = None
    """For toggles: whether the entry shows a check mark."""

    def key_label(self) -> str:
        """``"Ctrl+Shift+Z / Ctrl+Y"``: the chords as the menu and the help show them."""
        def chord(keys: str) -> str:
            return "+".join(KEY_NAMES.get(part, part.title() if len(part) > 1 else part.upper())
                            for part in keys.split("+"))
        return " / ".join(chord(keys) for keys in self.keys)


def ask_if_unsaved(editor: Editor, panels: PanelState, action: str) -> None:
    """Run ``action`` ("new", "open" or "close") now, or, with unsaved changes, ask
    Save / Discard / Cancel first (``ui._unsaved_dialog``)."""
    if editor.dirty:
        panels.pending = action
    else:
        run_pending(editor, panels, action)


def run_pending(editor: Editor, panels: PanelState, action: str) -> None:
    if action == "new":
        editor.new()
    elif action == "open":
        panels.path_dialog, panels.path_text = "open", str(editor.path or "")
    elif action == "close":
        panels.quit = True


def _save(editor: Editor, panels: PanelState) -> None:
    if not editor.save():
        panels.path_dialog, panels.path_text = "save as", "scene.json"


def _save_as(editor: Editor, panels: PanelState) -> None:
    panels.path_dialog, panels.path_text = "save as", str(editor.path or "scene.json")


def copy_as_pytest(editor: Editor, panels: PanelState | None) -> None:
    source = editor.copy_as_pytest()
    if source is not None:
        imgui.set_clipboard_text(source)
        editor.say("copied a pytest function to the clipboard")


def _toggle(panels: PanelState, flag: str) -> None:
    setattr(panels, flag, not getattr(panels, flag))


def _toggle_help(editor: Editor, panels: PanelState) -> None:
    panels.show_help = not panels.show_help


def _toggle_minkowski(editor: Editor, panels: PanelState) -> None:
    editor.mesh_display.minkowski = not editor.mesh_display.minkowski


def _editor(method: str, *arguments) -> Callable[[Editor, PanelState], None]:
    """An action that calls an ``Editor`` method."""
    return lambda editor, panels: getattr(editor, method)(*arguments)


COMMANDS = (
    Command("File", "New", lambda editor, panels: ask_if_unsaved(editor, panels, "new"), ("ctrl+n",)),
    Command("File", "Open...", lambda editor, panels: ask_if_unsaved(editor, panels, "open"), ("ctrl+o",)),
    Command("File", "Save", _save, ("ctrl+s",)),
    Command("File", "Save as...", _save_as, ("ctrl+shift+s",)),
    Command("File", "Save as fixture (a regression test)...", _editor("request_fixture_dialog"), ("ctrl+shift+f",)),
    Command("File", "Copy as pytest", copy_as_pytest, ("ctrl+shift+c",), enabled=_has_moving),
    Command("File", "Copy as C++ test...", lambda editor, panels: setattr(panels, "copy_language", "C++"),
            enabled=_has_moving),
    Command("File", "Copy as Rust test...", lambda editor, panels: setattr(panels, "copy_language", "Rust"),
            enabled=_has_moving),
    Command("Edit", "Undo", _editor("undo"), ("ctrl+z",), enabled=lambda editor: editor.history.can_undo()),
    Command("Edit", "Redo", _editor("redo"), ("ctrl+shift+z", "ctrl+y"),
            enabled=lambda editor: editor.history.can_redo()),
    Command("Edit", "Duplicate the selected shape", _editor("duplicate"), ("ctrl+d",), enabled=_has_selection),
    Command("Edit", "Delete the selected shape", _editor("delete"), ("delete",), enabled=_has_selection),
    Command("Edit", "Make the selected shape the moving one", _editor("make_selected_moving"), ("m",),
            enabled=_has_selection),
    Command("Edit", "Select the next shape", _editor("select_next"), ("tab",)),
    Command("View", "Frame the selected shape (everything when none)", _editor("frame_selected"), ("f",)),
    Command("View", "Minkowski difference (teaching view)", _toggle_minkowski,
            checked=lambda editor, panels: editor.mesh_display.minkowski),
    Command("View", "Shortcuts", _toggle_help, ("f1",), checked=lambda editor, panels: panels.show_help),
    Command("View", "Legend (the colours of the view)", lambda editor, panels: _toggle(panels, "show_legend"),
            ("ctrl+l",), checked=lambda editor, panels: panels.show_legend),
    Command("View", "Shape names in the view", lambda editor, panels: _toggle(panels, "show_labels"),
            ("ctrl+shift+l",), checked=lambda editor, panels: panels.show_labels),
    Command("View", "Reset the panel layout", lambda editor, panels: setattr(panels, "reset_layout", True)),
    Command("Tools", "Gizmo: translate", _editor("use_translate"), ("t",)),
    Command("Tools", "Gizmo: rotate", _editor("use_rotate"), ("r",)),
    Command("Tools", "Gizmo: resize a capsule (axis: length, across: radius), sphere or polyhedron",
            _editor("use_scale"), ("s",)),
    Command("Tools", "Gizmo on the end pose: drag it to set the sweep (rotate: its rings turn it)",
            _editor("toggle_end_pose"), ("e",),
            checked=lambda editor, panels: editor.end_pose),
    Command("Tools", "Gizmo on the pivot the moving shape turns about: drag it to move the pivot",
            _editor("toggle_pivot_handle"), ("p",), enabled=_has_moving,
            checked=lambda editor, panels: editor.pivot_handle),
    Command("Tools", "Reset the pivot to the moving shape's centroid", _editor("reset_pivot"),
            enabled=lambda editor: editor.scene.pivot is not None),
    Command("Tools", "Nudge along x", _editor("set_nudge_axis", 0), ("x",),
            checked=lambda editor, panels: editor.nudge_axis == 0),
    Command("Tools", "Nudge along y", _editor("set_nudge_axis", 1), ("y",),
            checked=lambda editor, panels: editor.nudge_axis == 1),
    Command("Tools", "Nudge along z", _editor("set_nudge_axis", 2), ("z",),
            checked=lambda editor, panels: editor.nudge_axis == 2),
    Command("Tools", "Nudge -", _editor("nudge", -1), ("bracketleft",)),
    Command("Tools", "Nudge +", _editor("nudge", +1), ("bracketright",)),
    Command("Tools", "Nudge by one ulp (off: by epsilon)", _editor("toggle_nudge_mode"), ("u",),
            checked=lambda editor, panels: editor.nudge_by_ulp),
    Command("Tools", "Nudge the direction (off: the selected shape)", _editor("toggle_nudge_target"), ("n",),
            checked=lambda editor, panels: editor.nudge_direction),
)

MENUS = ("File", "Edit", "View", "Tools")

GESTURES = (
    ("Left click", "select the shape under the mouse (empty space: none); Shift adds or removes it"),
    ("Middle drag", "orbit the camera"),
    ("Right drag / Shift+middle drag", "pan the camera"),
    ("Wheel", "zoom"),
    ("Escape", "close a dialog"),
)
"""Mouse gestures and keys the window handles itself (shown in the Shortcuts panel)."""
