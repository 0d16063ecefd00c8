"""Lesson 9's picture in the Lesson panel: the ball against the capsule by candidates
(``view.lesson_capsule``) — the cylinder's quadratic with its roots and where along
the core its entry lands, each end ball's t, the earliest counted one marked — and
``sweep``'s answer."""

from __future__ import annotations

from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.ui.drawn import remember
from sweeplab.view.lesson_capsule import capsule_sweep

EARLIEST = (1.0, 0.6, 0.1, 1.0)
"""The colour of the earliest counted candidate (as lesson 4's table marks it)."""


def capsule_picture(editor: Editor) -> None:
    found = capsule_sweep(editor.scene)
    cylinder = found.cylinder
    imgui.text_wrapped(f"R = r + r_c = {found.summed_radius!r};  a = {cylinder.a!r}, b = {cylinder.b!r}, "
                       f"c' = {cylinder.c!r}")
    if found.parallel:
        imgui.text_wrapped("a = 0: the motion is parallel to the core, the cylinder has no entry")
    rows = [("cylinder (side)", cylinder.t, found.counted,
             "not entered" if found.along is None else f"s = {found.along!r}" + ("" if found.counted else
                                                                                 ", outside (0, 1)")),
            ("ball about a", found.ends[0], found.ends[0] is not None, ""),
            ("ball about b", found.ends[1], found.ends[1] is not None, "")]
    counted = [(t, number) for number, (_, t, counts, _) in enumerate(rows) if counts and t is not None]
    earliest = min(counted)[1] if counted else None
    if imgui.begin_table("capsule candidates", 3, imgui.TableFlags_.borders | imgui.TableFlags_.sizing_fixed_fit):
        for number, (name, t, _, note) in enumerate(rows):
            imgui.table_next_row()
            imgui.table_set_column_index(0)
            imgui.text(name)
            imgui.table_set_column_index(1)
            text = "miss" if t is None else repr(t)
            if number == earliest:
                imgui.text_colored(EARLIEST, text + "  <- earliest")
            else:
                imgui.text(text)
            imgui.table_set_column_index(2)
            imgui.text(note)
        imgui.end_table()
    answer = found.answer
    imgui.text_wrapped(f"sweep: t = {float(answer.t)!r}, {answer.feature.kind} {answer.feature.index}" if answer.hit
                       else "sweep: miss")
    remember("lesson capsule answer")
