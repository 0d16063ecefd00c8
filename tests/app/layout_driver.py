"""Scenarios of the window's layout and drawing (#33 part 4, items 1, 2, 3, 9, 11),
in a process of their own like ``window_driver.py``'s: the real editor window on an
X display (Xvfb), looked at as it opens (1280x800) and resized to 1920x1080 as a
user would, reporting where the panels drew their items (``ui.drawn``) and what the
3D view shows, as JSON for ``test_window_layout.py``.

``python tests/app/layout_driver.py SCENARIO RESULT.json`` with ``DISPLAY`` set;
with ``SWEEPLAB_DRIVER_OUT`` set, each frame looked at is also written there as a PNG.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from imgui_bundle import imgui

from window_driver import Driver, screen_pixels, write_screen  # noqa: I001 - beside this file

from sweeplab.cli import DEMO_SCENE, example_scenes
from sweeplab.editor import REFERENCE_DELAY
from sweeplab.physics import kernels
from sweeplab.ui.drawn import DRAWN
from sweeplab.view.lessons import bundled_lessons, quadratic
from sweeplab.view.camera import UP
from sweeplab.view.model import CONTACT, SLIDE

SIZES = ((1280, 800), (1920, 1080))
"""The window as it opens, and a full-HD screen."""


def settle(driver: Driver) -> None:
    """Draw until the still scene's second opinions are in (as a person waits), five
    frames at least (ImGui settles a layout over a few)."""
    start, frames = time.perf_counter(), 0
    while time.perf_counter() - start < REFERENCE_DELAY + 0.5 or frames < 5:
        driver.frames(1)
        frames += 1


def items(prefix: str) -> dict:
    """Every remembered item named ``prefix...``: its rectangles, and whether it was
    drawn in the last frame (``current``; False: its panel is hidden)."""
    frame = imgui.get_frame_count()
    return {name: {"rect": list(drawn.rect), "clip": list(drawn.clip), "text_width": drawn.text_width,
                   "region_right": drawn.region_right, "current": drawn.frame == frame}
            for name, drawn in DRAWN.items() if name.startswith(prefix)}


def look_at(driver: Driver, name: str) -> None:
    folder = os.environ.get("SWEEPLAB_DRIVER_OUT")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        write_screen(driver.window, Path(folder), name)


def at_sizes(driver: Driver, name: str, look, sizes=SIZES) -> dict:
    """``look()`` at each window size, by "WIDTHxHEIGHT"."""
    seen = {}
    for width, height in sizes:
        if driver.window.get_framebuffer_size() != (width, height):
            driver.resize(width, height)
        settle(driver)
        seen[f"{width}x{height}"] = look()
        look_at(driver, f"{name}")
    return seen


def scan_panel(driver: Driver) -> dict:
    """Item 1: the Perturbation scan's fields and Scan button, on the graze scene."""
    driver.editor.open(example_scenes()["graze"], untitled=True)
    driver.window.panels.focus = "Perturbation scan"
    return at_sizes(driver, "scan", lambda: items("scan "))


def results_columns(driver: Driver) -> dict:
    """Item 2: the Results cells drawn in the last frame, once the window's first scene
    (the graze: t = 0.5, short names) made way for the demo (long numbers, then longer
    names again)."""
    settle(driver)
    driver.editor.open(DEMO_SCENE, untitled=True)
    seen = at_sizes(driver, "results-demo", lambda: current(items("results ")))
    driver.editor.open(example_scenes()["graze"], untitled=True)
    seen["graze again"] = at_sizes(driver, "results-graze", lambda: current(items("results ")), SIZES[1:])
    return seen


def current(drawn: dict) -> dict:
    return {name: item for name, item in drawn.items() if item["current"]}


def legend(driver: Driver) -> dict:
    """Item 3: where the legend is, and which pixels it changes (legend shown against
    hidden): outside the 3D view, and inside the "Restore autosave?" dialog."""
    window, panels = driver.window, driver.window.panels

    def changed_by_legend() -> np.ndarray:
        shown = screen_pixels(window)
        panels.show_legend = False
        driver.frames(3)
        hidden = screen_pixels(window)
        panels.show_legend = True
        driver.frames(3)
        return np.any(shown != hidden, axis=-1)

    def look() -> dict:
        x, y, width, height = (round(v) for v in panels.view_rect)
        changed = changed_by_legend()
        outside = np.ones(changed.shape, bool)
        outside[y:y + height, x:x + width] = False
        return {"legend": items("legend")["legend"], "view": [x, y, width, height],
                "changed": int(changed.sum()), "changed_outside_view": int(changed[outside].sum())}

    seen = at_sizes(driver, "legend", look, SIZES + ((1000, 700),))
    driver.resize(1280, 800)
    seen["contact in the corner"] = contact_in_the_corner(driver)
    driver.editor.restorable = Path("/tmp/sweeplab-autosave-of-a-scene-with-a-long-name.json")
    driver.frames(30)  # the dialog's dimming fades in
    dialog = imgui.internal.find_window_by_name("Restore autosave?")
    x0, y0 = round(dialog.pos.x), round(dialog.pos.y)
    x1, y1 = round(dialog.pos.x + dialog.size.x), round(dialog.pos.y + dialog.size.y)
    look_at(driver, "legend-dialog")
    seen["dialog"] = {"rect": [x0, y0, x1, y1], "changed_inside": int(changed_by_legend()[y0:y1, x0:x1].sum())}
    return seen


def contact_in_the_corner(driver: Driver) -> dict:
    """The camera panned until the demo plane's contact point shows 60 pixels left of
    and 40 above the view's bottom-right corner (where the legend sat): the contact's
    pixel, the legend's rectangle, and how many contact points lie inside it."""
    editor, window = driver.editor, driver.window
    x, y, width, height = window.panels.view_rect
    goal = np.array([x + width - 60.0, y + height - 40.0])
    contact = next(report.result.point for report in editor.view().reports if report.name == "plane")
    for _ in range(6):
        camera = editor.camera
        forward = (camera.target - camera.eye()) / np.linalg.norm(camera.target - camera.eye())
        right = np.cross(forward, UP) / np.linalg.norm(np.cross(forward, UP))
        up = np.cross(right, forward)
        world_per_pixel = 2 * camera.distance * np.tan(np.radians(camera.field_of_view) / 2) / height
        error = window.project([contact])[0] - goal  # the target moved right: the scene moves left
        camera.target = camera.target + (error[0] * right - error[1] * up) * world_per_pixel
        driver.frames(2)
    settle(driver)
    look_at(driver, "legend-contact")
    x0, y0, x1, y1 = DRAWN["legend"].rect
    contacts = window.project(np.concatenate([batch.positions for batch in editor.view().points
                                              if batch.color == CONTACT]))
    covered = (contacts[:, 0] >= x0) & (contacts[:, 0] <= x1) & (contacts[:, 1] >= y0) & (contacts[:, 1] <= y1)
    return {"contact": window.project([contact])[0].tolist(), "goal": goal.tolist(), "legend": [x0, y0, x1, y1],
            "covered": int(covered.sum())}


def lesson(number: int):
    return next(found for found in bundled_lessons()[0] if found.number == number)


def lesson_five(driver: Driver) -> dict:
    """Item 9: lesson 5 as it opens: its text and walk slider (shown once the walk is
    answered)."""
    driver.editor.open_lesson(lesson(5))
    return at_sizes(driver, "lesson5", lambda: items("lesson "))


def click_next(driver: Driver) -> None:
    x0, y0, x1, y1 = DRAWN["lesson next"].rect
    driver.click((x0 + x1) / 2, (y0 + y1) / 2)
    settle(driver)


def lesson_steps(driver: Driver) -> dict:
    """Item 9: lesson 1's roots at each step, and lesson 8's view at each step (its
    slide's pixels), stepping with the panel's Next button."""
    editor, window = driver.editor, driver.window
    editor.open_lesson(lesson(1))
    settle(driver)
    roots = []
    for _ in range(4):
        roots.append({"step": editor.lesson_step + 1, "roots": list(quadratic(editor.scene).roots),
                      "roots line": items("lesson roots")["lesson roots"]})
        click_next(driver)
    editor.open_lesson(lesson(8))
    settle(driver)
    views, slide = [], []
    for _ in range(3):
        x, y, width, height = (round(v) for v in window.panels.view_rect)
        pixels = screen_pixels(window)[y:y + height, x:x + width].astype(int)
        views.append(pixels)
        slide.append(int((np.abs(pixels - np.round(np.array(SLIDE[:3]) * 255)).max(axis=-1) <= 8).sum()))
        look_at(driver, f"lesson8-step{editor.lesson_step + 1}")
        click_next(driver)
    differing = [int(np.any(views[a] != views[b], axis=-1).sum()) for a, b in ((0, 1), (1, 2), (0, 2))]
    return {"lesson1": roots, "lesson8_slide_pixels": slide, "lesson8_differing_pixels": differing,
            "lesson8_view_pixels": int(views[0].shape[0] * views[0].shape[1])}


def lesson_exercise(driver: Driver) -> dict:
    """#37: lesson 1's last step shows its exercise; its Check button clicked on the
    lesson's scene (the hint), then with the point moved to the graze (the pass)."""
    editor = driver.editor
    editor.open_lesson(lesson(1))
    editor.show_step(len(lesson(1).steps) - 1)
    settle(driver)

    def check() -> dict:
        driver.click(*driver.field_centre("exercise check"))
        settle(driver)
        verdict = editor.exercise_verdict
        return {"items": items("exercise "), "passed": None if verdict is None else verdict.passed,
                "message": "" if verdict is None else verdict.message}

    failed = check()
    editor.edit(lambda scene: scene.object("point").params.update(p=[1.0, 1.0, 0.0]))
    settle(driver)
    changed = items("exercise ")
    return {"failed": failed, "after the edit": changed, "passed": check(), "pictures": new_pictures(driver)}


def new_pictures(driver: Driver) -> dict:
    """Lessons 9 and 10 at each step: whether their pictures' last lines were drawn
    (the capsule's sweep line; the advancement's explanation) and what they say."""
    editor, seen = driver.editor, {}
    for number, item in ((9, "lesson capsule answer"), (10, "advancement says")):
        editor.open_lesson(lesson(number))
        steps = []
        for step in range(len(lesson(number).steps)):
            editor.show_step(step)
            driver.frames(4)  # the pictures are drawn in the frame they are computed: no settling
            steps.append({"drawn": items(item).get(item, {}).get("current", False),
                          "advancement step": editor.advancement_step})
        seen[str(number)] = steps
    return seen


def labels(driver: Driver) -> dict:
    """Item 11: the Inspector's direction label, the Shortcuts panel (F1) and the
    Playground's Save, on the playground scene with a step taken."""
    editor, panels = driver.editor, driver.window.panels
    editor.open(example_scenes()["playground"], untitled=True)
    editor.start_playground({"ball"}, 0.5, 0.5, True)
    editor.playground_step(1 / 60)
    editor.select(editor.scene.moving)
    panels.show_help = True
    panels.focus = "Playground"

    def running() -> dict:  # the kinematic ticks are drawn before a run only (playground_ticks)
        return {name: item for name, item in items("playground ").items()
                if not name.startswith("playground kinematic ")}

    return at_sizes(driver, "labels", lambda: {**items("inspector "), **items("shortcut "), **running()})


def playground_ticks(driver: Driver) -> dict:
    """#36: the Playground panel before a run, each body's "kinematic" tick beside its
    "dynamic" one; then with a run, the kick."""
    editor, panels = driver.editor, driver.window.panels
    editor.open(example_scenes()["playground"], untitled=True)
    panels.focus = "Playground"
    ticks = at_sizes(driver, "playground-ticks", lambda: items("playground kinematic "))
    editor.start_playground({"crate"}, 0.5, 0.5, True)
    editor.select("crate")
    return {"ticks": ticks, "kick": at_sizes(driver, "playground-kick", lambda: items("playground kick"))}


def copy_test_dialog(driver: Driver) -> dict:
    """#34 part 3: File > Copy as C++ test's precision choice on screen at both sizes,
    then float32 clicked and Copy clicked: what the editor said."""
    panels = driver.window.panels
    panels.copy_language = "C++"  # as File > Copy as C++ test... sets it
    seen = at_sizes(driver, "copy-test", lambda: items("copy test "))
    driver.click(*driver.field_centre("copy test float32"))
    chosen = panels.test_precision
    driver.click(*driver.field_centre("copy test button"))
    return {"sizes": seen, "chosen": chosen, "message": driver.editor.message, "open": panels.copy_language,
            "clipboard": imgui.get_clipboard_text() or ""}


def lesson_play_pictures(driver: Driver) -> dict:
    """#37: lessons 11, 12 and 13 stepped with the panel's Next button: each step's
    picture (drawn whole, or the panel's line saying why not) and the run the step started."""
    editor, shown = driver.editor, {}
    for number, item in ((11, "lesson tunnel"), (12, "lesson impulse"), (13, "lesson buoyancy")):
        editor.open_lesson(lesson(number))
        settle(driver)
        steps = []
        for _ in lesson(number).steps:
            run = editor.playground
            steps.append({"picture": items(item).get(item), "frame": None if run is None else run.recorder.position})
            look_at(driver, f"lesson{number}-step{editor.lesson_step + 1}")
            click_next(driver)
        shown[number] = steps
    return shown


SCENARIOS = {function.__name__: function for function in (scan_panel, results_columns, legend, lesson_five,
                                                          lesson_steps, lesson_exercise, labels, playground_ticks,
                                                          copy_test_dialog, lesson_play_pictures)}

FIRST_SCENES = {"results_columns": example_scenes()["graze"]}
"""The scene a scenario's window opens with (else the demo)."""

if __name__ == "__main__":
    # No compile runs here: the window's deferred tier may answer as Python however
    # loaded the machine is (a lesson's walk or slide left "pending" would hide what
    # these scenarios look at).
    kernels.DEFER_BUDGET_SECONDS = 600.0
    scenario, output = sys.argv[1], Path(sys.argv[2])
    observed = SCENARIOS[scenario](Driver(FIRST_SCENES.get(scenario, DEMO_SCENE)))
    output.write_text(json.dumps(observed, indent=1))
