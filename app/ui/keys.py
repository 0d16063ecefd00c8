"""The window's keyboard: command chords from the command table, ImGui's key names,
and the modifier bits a key event leaves held (no pyglet import: the key module is
passed in, so these run and are tested without a display)."""

from __future__ import annotations

from sweeplab.ui.commands import COMMANDS


def key_bindings(key_module) -> dict:
    """(modifiers, symbol) -> command, from ``commands.COMMANDS``."""
    bindings = {}
    for command in COMMANDS:
        for chord in command.keys:
            *modifiers, name = chord.split("+")
            symbol = getattr(key_module, name.upper())
            mask = (key_module.MOD_CTRL if "ctrl" in modifiers else 0) | (key_module.MOD_SHIFT if "shift" in modifiers
                                                                            else 0)
            bindings[(mask, symbol)] = command
    return bindings


def modifiers_after(symbol: int, modifiers: int, pressed: bool, key_module) -> int:
    """The Ctrl and Shift held once a key event is done.  X11 (so pyglet there) reports
    a key's modifiers as they were *before* it: Shift's own press says no Shift, its
    release says Shift.  A modifier key's own press sets its bit, its release clears it;
    any other key's modifiers are as reported."""
    bit = {key_module.LSHIFT: key_module.MOD_SHIFT, key_module.RSHIFT: key_module.MOD_SHIFT,
           key_module.LCTRL: key_module.MOD_CTRL, key_module.RCTRL: key_module.MOD_CTRL}.get(symbol, 0)
    return modifiers | bit if pressed else modifiers & ~bit


def imgui_keys(key, imgui) -> dict:
    """pyglet key symbol -> ImGui key, for the keys ImGui's fields and shortcuts use."""
    table = {key.TAB: imgui.Key.tab, key.BACKSPACE: imgui.Key.backspace, key.RETURN: imgui.Key.enter,
             key.ENTER: imgui.Key.enter, key.ESCAPE: imgui.Key.escape, key.DELETE: imgui.Key.delete,
             key.SPACE: imgui.Key.space, key.LEFT: imgui.Key.left_arrow, key.RIGHT: imgui.Key.right_arrow,
             key.UP: imgui.Key.up_arrow, key.DOWN: imgui.Key.down_arrow, key.HOME: imgui.Key.home,
             key.END: imgui.Key.end, key.NUM_ENTER: imgui.Key.keypad_enter,
             key.LCTRL: imgui.Key.left_ctrl, key.RCTRL: imgui.Key.right_ctrl,
             key.LSHIFT: imgui.Key.left_shift, key.RSHIFT: imgui.Key.right_shift}
    for letter in "ACVXYZ":
        table[getattr(key, letter)] = getattr(imgui.Key, letter.lower())
    return table
