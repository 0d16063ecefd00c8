"""Modal dialogs: unsaved changes, restoring an autosave, a file path.  Escape cancels."""

from __future__ import annotations

from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.scene.foreign_tests import PRECISIONS
from sweeplab.ui.commands import run_pending
from sweeplab.ui.drawn import remember
from sweeplab.ui.state import PanelState
from sweeplab.ui.tools import cancel_and_message


def unsaved_dialog(editor: Editor, state: PanelState) -> None:
    """Save / Discard / Cancel before New, Open or closing loses unsaved changes."""
    if state.pending is None:
        return
    imgui.open_popup("Unsaved changes")
    if not imgui.begin_popup_modal("Unsaved changes", None, imgui.WindowFlags_.always_auto_resize)[0]:
        return
    name = editor.path.name if editor.path else "the untitled scene"
    imgui.text(f"Save the changes to {name}?")
    action, state.pending = state.pending, None
    if imgui.button("Save"):
        if editor.save():
            run_pending(editor, state, action)
        else:  # untitled: choose a file first
            state.path_dialog, state.path_text = "save as", "scene.json"
            state.close_after_save = action == "close"
        imgui.close_current_popup()
    elif same_line_button("Discard"):
        editor.discard_changes()
        run_pending(editor, state, action)
        imgui.close_current_popup()
    elif same_line_button("Cancel") or imgui.is_key_pressed(imgui.Key.escape):
        imgui.close_current_popup()
    else:
        state.pending = action
    imgui.end_popup()


def copy_test_dialog(editor: Editor, state: PanelState) -> None:
    """Copy as C++ / Rust test: the function the tests call, then the clipboard."""
    if state.copy_language is None:
        return
    title = f"Copy as {state.copy_language} test###copy test"
    imgui.open_popup(title)
    if not imgui.begin_popup_modal(title, None, imgui.WindowFlags_.always_auto_resize)[0]:
        return
    imgui.text("Every float exact; sweeplab's answers as the expected values, within the precision's tolerances.")
    imgui.set_next_item_width(300)
    state.test_function = imgui.input_text("function the tests call", state.test_function)[1]
    imgui.text("precision:")
    for precision in PRECISIONS:
        imgui.same_line()
        if imgui.radio_button(precision, state.test_precision == precision):
            state.test_precision = precision
        remember(f"copy test {precision}")
    note = "float32 (Jolt, PhysX, Box3D, rapier): inputs rounded to float32, answers to them, float32 tolerances"
    imgui.text_disabled(note)
    remember("copy test note", note)
    copy = imgui.button("Copy")
    remember("copy test button")
    if copy:
        source = editor.copy_as_test(state.copy_language, state.test_function, state.test_precision)
        if source is not None:
            imgui.set_clipboard_text(source)
            editor.say(f"copied {source.count(chr(10))} lines of {state.copy_language} tests ({state.test_precision})")
            state.copy_language = None
            imgui.close_current_popup()
    if cancel_and_message(editor):
        state.copy_language = None


def same_line_button(label: str) -> bool:
    imgui.same_line()
    return imgui.button(label)


def restore_dialog(editor: Editor) -> None:
    """An autosave newer than the opened file: restore it, or keep the file."""
    if editor.restorable is None:
        return
    imgui.open_popup("Restore autosave?")
    if not imgui.begin_popup_modal("Restore autosave?", None, imgui.WindowFlags_.always_auto_resize)[0]:
        return
    imgui.text(f"{editor.restorable} holds unsaved changes newer than the file.")
    if imgui.button("Restore them"):
        editor.restore_autosave()
        imgui.close_current_popup()
    elif same_line_button("Keep the file") or imgui.is_key_pressed(imgui.Key.escape):
        editor.dismiss_autosave()
        imgui.close_current_popup()
    imgui.end_popup()


def path_dialog(editor: Editor, state: PanelState) -> None:
    if state.path_dialog is None:
        return
    title = f"{state.path_dialog.title()}###path"
    imgui.open_popup(title)
    if imgui.begin_popup_modal(title, None, imgui.WindowFlags_.always_auto_resize)[0]:
        imgui.set_next_item_width(420)
        if imgui.is_window_appearing():
            imgui.set_keyboard_focus_here()  # the path is typed at once, no click first
        entered, state.path_text = imgui.input_text("file", state.path_text, imgui.InputTextFlags_.enter_returns_true)
        if imgui.button("OK") or entered:
            if state.path_dialog == "mesh file":
                editor.add_mesh_file(state.path_text)
                done = not editor.message
            else:
                done = editor.open(state.path_text) if state.path_dialog == "open" else editor.save(state.path_text)
            if done:
                state.path_dialog = None
                state.quit = state.close_after_save
                imgui.close_current_popup()
        if cancel_and_message(editor):
            state.path_dialog, state.close_after_save = None, False
