"""The command table (#21 item 16): menus, shortcuts and help are built from one
list, so a menu entry cannot show a chord that does nothing (Ctrl+O did)."""

import os
from collections import Counter

import pytest

from sweeplab.cli import DEMO_SCENE
from sweeplab.editor import Editor
from sweeplab.scene.model import load
from sweeplab.ui.commands import COMMANDS, MENUS, ask_if_unsaved
from sweeplab.ui.legend import ENTRIES
from sweeplab.view import frame as view_frame
from sweeplab.ui.state import PanelState
from sweeplab.view import model as view_model


@pytest.fixture(scope="module")
def pyglet_keys():
    os.environ.setdefault("PYGLET_HEADLESS", "1")
    from pyglet.window import key

    return key


def test_every_chord_is_a_key_and_bound_once(pyglet_keys):
    from sweeplab.ui.keys import key_bindings

    bindings = key_bindings(pyglet_keys)
    chords = [chord for command in COMMANDS for chord in command.keys]
    assert len(bindings) == len(chords) == len(set(chords))
    assert bindings[(pyglet_keys.MOD_CTRL, pyglet_keys.O)].label == "Open..."
    assert all(command.menu in MENUS for command in COMMANDS)
    assert not [label for label, count in Counter(c.label for c in COMMANDS).items() if count > 1]


def test_a_modifier_key_sets_its_own_bit_on_press_and_clears_it_on_release(pyglet_keys):
    """#33 item 4: X11 reports a key's modifiers as they were before it (Shift's press:
    0, its release: MOD_SHIFT); the window told ImGui that, so Shift was off while held
    and on after it came up."""
    from sweeplab.ui.keys import modifiers_after

    key = pyglet_keys
    shift, ctrl = key.MOD_SHIFT, key.MOD_CTRL
    assert modifiers_after(key.LSHIFT, 0, True, key) == shift  # X11's press of Shift
    assert modifiers_after(key.RSHIFT, shift, False, key) == 0  # X11's release of Shift
    assert modifiers_after(key.LCTRL, shift, True, key) == shift | ctrl
    assert modifiers_after(key.RCTRL, shift | ctrl, False, key) == shift
    assert modifiers_after(key.DELETE, shift, True, key) == shift  # any other key: as reported
    assert modifiers_after(key.A, ctrl, False, key) == ctrl


def test_open_new_and_close_ask_first_when_there_are_unsaved_changes():
    editor, panels = Editor(load(DEMO_SCENE)), PanelState()
    ask_if_unsaved(editor, panels, "open")
    assert panels.path_dialog == "open" and panels.pending is None  # nothing unsaved: straight on
    panels.path_dialog = None
    editor.set_direction([1.0, 2.0, 3.0])
    for action in ("new", "open", "close"):
        ask_if_unsaved(editor, panels, action)
        assert panels.pending == action and panels.path_dialog is None and not panels.quit
        assert editor.scene.direction == [1.0, 2.0, 3.0]
        panels.pending = None


def test_every_command_runs_on_a_fresh_editor():
    """Each action, run as a click or a chord would (clipboard commands excepted: no
    ImGui context here), leaves a valid editor."""
    for command in COMMANDS:
        editor, panels = Editor(load(DEMO_SCENE)), PanelState()
        if "pytest" in command.label:
            continue
        if command.enabled(editor):
            command.run(editor, panels)
        assert editor.scene is not None


def test_the_legend_explains_every_colour_the_view_draws_with():
    legend = {color for color, _ in ENTRIES}
    drawn = {view_model.START, view_model.END, view_model.TIME_OF_IMPACT, view_model.PATH, view_model.MISS,
             view_model.HIT, view_model.OVERLAP, view_model.EARLIEST, view_model.CONTACT, view_model.NORMAL,
             view_model.SEPARATION, view_model.FEATURE, view_model.SELECTED, view_model.INTERVAL,
             view_frame.FRAME_CONTACT, view_frame.FRAME_IMPULSE, view_frame.JOINT_HELD, view_frame.JOINT_BROKEN}
    assert drawn <= legend
