"""Drives the real editor window with synthetic input, in a process of its own.

``python tests/app/window_driver.py SCENARIO RESULT.json`` opens the editor on the
demo scene (headless EGL unless ``DISPLAY`` is set, e.g. by Xvfb), runs one
scenario of mouse and key events through pyglet's event dispatch — the same
handlers a real mouse reaches — and writes what it observed as JSON for
``test_window_input.py`` to assert on.  Coordinates here are top-down pixels.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

if not os.environ.get("DISPLAY"):
    os.environ["PYGLET_HEADLESS"] = "1"

import numpy as np  # noqa: E402
import pyglet  # noqa: E402

if os.environ.get("PYGLET_HEADLESS"):
    pyglet.options["headless"] = True

from pyglet.window import key, mouse  # noqa: E402

from sweeplab.cli import DEMO_SCENE, example_scenes  # noqa: E402
from sweeplab.editor import REFERENCE_DELAY, Editor  # noqa: E402
from sweeplab.editor.playground import SPRING  # noqa: E402
from sweeplab.render.renderer import BACKGROUND  # noqa: E402
from sweeplab.scene.model import load  # noqa: E402
from sweeplab.scene.shape_kinds import KINDS  # noqa: E402
from sweeplab.ui.drawn import DRAWN  # noqa: E402
from sweeplab.editor_window import FRAMES_AFTER_INPUT, EditorWindow  # noqa: E402


class Driver:
    def __init__(self, scene_path: Path = DEMO_SCENE):
        self.editor = Editor(load(scene_path))  # untitled, as the command line opens the demo
        self.window = EditorWindow(self.editor)
        self.frames(3)

    def frames(self, count: int = 3) -> None:
        for _ in range(count):
            self.window.dispatch_events()
            self.window.draw(1 / 60)

    def _y(self, y: float) -> float:
        return self.window.height - y

    def click(self, x: float, y: float, modifiers: int = 0) -> None:
        self.window.dispatch_event("on_mouse_motion", x, self._y(y), 0, 0)
        self.frames(2)
        self.window.dispatch_event("on_mouse_press", x, self._y(y), mouse.LEFT, modifiers)
        self.frames(2)
        self.window.dispatch_event("on_mouse_release", x, self._y(y), mouse.LEFT, modifiers)
        self.frames(2)

    def drag(self, start, end, steps: int = 12) -> None:
        (x0, y0), (x1, y1) = start, end
        self.window.dispatch_event("on_mouse_motion", x0, self._y(y0), 0, 0)
        self.frames(2)
        self.window.dispatch_event("on_mouse_press", x0, self._y(y0), mouse.LEFT, 0)
        self.frames(2)
        previous = (x0, y0)
        for step in range(1, steps + 1):
            x, y = x0 + (x1 - x0) * step / steps, y0 + (y1 - y0) * step / steps
            self.window.dispatch_event("on_mouse_drag", x, self._y(y), x - previous[0], previous[1] - y,
                                       mouse.LEFT, 0)
            self.frames(1)
            previous = (x, y)
        self.window.dispatch_event("on_mouse_release", x1, self._y(y1), mouse.LEFT, 0)
        self.frames(2)

    def press(self, symbol: int, modifiers: int = 0) -> None:
        self.window.dispatch_event("on_key_press", symbol, modifiers)
        self.frames(1)
        self.window.dispatch_event("on_key_release", symbol, modifiers)
        if modifiers:  # then the modifier keys come up, as on a keyboard
            self.window.dispatch_event("on_key_release", key.LCTRL if modifiers & key.MOD_CTRL else key.LSHIFT, 0)
        self.frames(2)

    def type(self, text: str) -> None:
        for character in text:
            self.window.dispatch_event("on_text", character)
            self.frames(1)

    def retype(self, field: str, text: str) -> None:
        """Click a field, select its text and type ``text`` over it (not committed yet)."""
        self.click(*self.field_centre(field))
        self.press(key.A, key.MOD_CTRL)
        self.type(text)

    def resize(self, width: int, height: int) -> None:
        """Resize the window through the X server (xdotool, under Xvfb), as a user's
        window manager would, and draw until ImGui has laid the panels out anew."""
        import subprocess

        subprocess.run(["xdotool", "search", "--name", "sweeplab", "windowsize", str(width), str(height)], check=True)
        start = time.perf_counter()
        while self.window.get_framebuffer_size() != (width, height) and time.perf_counter() - start < 5:
            self.frames(1)
        self.frames(4)

    def x_window(self) -> str:
        """The window's X id (under Xvfb), for ``xdotool``."""
        import subprocess

        (window_id,) = subprocess.run(["xdotool", "search", "--name", "sweeplab"], check=True, capture_output=True,
                                      text=True).stdout.split()
        return window_id

    def xdotool(self, *arguments: str) -> None:
        """Real X events (xdotool, under Xvfb), then a few frames for the window to take them."""
        import subprocess

        subprocess.run(["xdotool", *arguments], check=True)
        for _ in range(4):
            time.sleep(0.02)
            self.frames(1)

    def field_centre(self, name: str) -> tuple[float, float]:
        x0, y0, x1, y1 = DRAWN[name].rect
        return (x0 + x1) / 2, (y0 + y1) / 2

    def screen(self, point) -> np.ndarray:
        return self.window.project(np.asarray(point, float)[None])[0]

    def drag_gizmo_axis(self, pivot, axis: int, pixels: float = 40.0) -> bool:
        """Drag the gizmo's arrow along world ``axis`` (found by trying distances from
        the pivot along the arrow's screen direction); True when the drag took."""
        centre = self.screen(pivot)
        step = np.zeros(3)
        step[axis] = 0.05 * self.editor.camera.distance
        along = self.screen(np.asarray(pivot) + step) - centre
        along /= np.linalg.norm(along)
        revision = self.editor.history.revision
        for distance in (30, 45, 60, 75, 90, 20):
            start = centre + along * distance
            self.drag(start, start + along * pixels)
            if self.editor.history.revision != revision:
                return True
        return False

    def drag_gizmo_ring(self, centre_world, axis: int, pixels: float = 40.0) -> tuple | None:
        """Drag the end pose's ring about world ``axis`` (centred at ``centre_world``):
        from a point of the ring half-way between its two other axes, along the ring,
        trying each such point (four) at ring radii of 28-120 pixels.  On screen the
        rings cross each other and the view-axis ring: a drag that turned about another
        axis (the rotation changed off ``axis``) is undone and the next point tried.
        The (start, end) pixels of the drag that turned the end pose about ``axis``
        alone; None when none did."""
        centre_world, editor = np.asarray(centre_world, float), self.editor
        across, along = np.eye(3)[(axis + 1) % 3], np.eye(3)[(axis + 2) % 3]
        centre, step = self.screen(centre_world), 0.05 * editor.camera.distance
        others = [k for k in range(3) if k != axis]
        for radius in range(28, 124, 4):
            for sign_across, sign_along in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                diagonal = (sign_across * across + sign_along * along) / np.sqrt(2)
                tangent = (sign_across * along - sign_along * across) / np.sqrt(2)
                per_step = np.linalg.norm(self.screen(centre_world + diagonal * step) - centre)
                world = centre_world + diagonal * step * radius / per_step
                start = self.screen(world)
                way = self.screen(world + tangent * 0.2 * step) - start
                revision, before = editor.history.revision, list(editor.scene.rotation)
                end = start + way / np.linalg.norm(way) * pixels
                self.drag(start, end)
                if editor.history.revision == revision:
                    continue
                if all(editor.scene.rotation[k] == before[k] for k in others):
                    return start, end
                editor.undo()
        return None


def gizmo_drag(driver: Driver) -> dict:
    editor = driver.editor
    editor.set_parameter("mover", "center", [-6.0, -1.4999999999999998, -0.0])
    editor.set_direction([14.0, 0.0, 1e-17])
    editor.select("mover")
    driver.frames(3)
    before = list(editor.scene.object("mover").params["center"])
    pivot = KINDS["sphere"].pivot(editor.scene.object("mover").params)
    took = driver.drag_gizmo_axis(pivot, 0)
    after = list(editor.scene.object("mover").params["center"])
    driver.press(key.E)  # the gizmo on the end pose
    direction_before = list(editor.scene.direction)
    end_took = driver.drag_gizmo_axis(KINDS["sphere"].pivot(editor.scene.object("mover").params)
                                      + np.asarray(editor.scene.direction), 2)
    return {"took": took, "before": [v.hex() for v in before], "after": [v.hex() for v in after],
            "end_took": end_took, "direction_before": [v.hex() for v in direction_before],
            "direction_after": [v.hex() for v in editor.scene.direction]}


def typing(driver: Driver) -> dict:
    editor = driver.editor
    editor.select("mover")
    driver.frames(3)
    observed = {}
    driver.retype("direction[1]", "0.1")
    driver.press(key.TAB)  # leaves the field (the keyboard back to the shortcuts): no Enter
    observed["after_tab"] = editor.scene.direction[1]
    driver.retype("radius", "0.25")
    driver.click(700, 150)  # empty 3D view (which also clears the selection)
    observed["after_click_away"] = editor.scene.object("mover").params["radius"]
    editor.select("mover")
    driver.frames(2)
    driver.retype("radius", "7")
    driver.press(key.ESCAPE)
    driver.frames(2)
    observed["after_escape"] = editor.scene.object("mover").params["radius"]
    driver.retype("radius", "0.3")
    driver.press(key.RETURN)
    observed["after_enter"] = editor.scene.object("mover").params["radius"]
    driver.frames(2)
    return observed


def typed_numbers(driver: Driver) -> dict:
    """Texts typed into the mover's radius field, each committed with Enter: the radius
    and the status line's message after each."""
    editor = driver.editor
    editor.select("mover")
    driver.frames(3)
    observed = {}
    for text in ("0x1p-3", "1,5", "abc", "nan", "-0x1.8p+1"):
        driver.retype("radius", text)
        driver.press(key.RETURN)
        observed[text] = {"radius": editor.scene.object("mover").params["radius"], "message": editor.message}
    return observed


def tab_then_shortcut(driver: Driver) -> dict:
    """A value typed into direction[1] and committed with Tab, then Delete (the shortcut
    for deleting the selected shape)."""
    from imgui_bundle import imgui

    editor = driver.editor
    editor.select("mover")
    driver.frames(3)
    driver.retype("direction[1]", "0.1")
    driver.press(key.TAB)
    driver.frames(FRAMES_AFTER_INPUT)  # as the window draws after a key (ImGui's want_text_input lags 2 frames)
    observed = {"direction[1]": editor.scene.direction[1], "field has the keyboard": imgui.get_io().want_text_input}
    driver.press(key.DELETE)
    observed["mover deleted"] = "mover" not in editor.scene.names()
    return observed


def scan_progress(driver: Driver) -> dict:
    """The graze example's perturbation scan (the ball's centre z, 3,000 steps), started
    with a click on Scan: the frames drawn while it runs, and the progress (lanes done)
    the panel had at each.  Each of the scan's 10 chunks is made to take at least
    0.1 s, as a long scan's do: without it, on a quiet machine the 3,000 lanes (as
    Python) were done within two frames and the test saw no progress in between."""
    editor, window = driver.editor, driver.window
    from sweeplab.view import scan as scan_module

    def slow_lanes(*args, sweep_lanes=scan_module._sweep_lanes):
        time.sleep(0.1)
        return sweep_lanes(*args)

    scan_module._sweep_lanes = slow_lanes
    editor.open(example_scenes()["graze"], untitled=True)
    tools = window.panels.tools
    tools.scan_parameter, tools.scan_epsilon, tools.scan_steps = 2, 2e-9, 3000
    window.panels.focus = "Perturbation scan"
    driver.frames(4)
    driver.click(*driver.field_centre("scan button"))
    progress = []
    while tools.scan is None and len(progress) < 2_000:
        job = getattr(tools, "scan_job", None)
        progress.append(None if job is None else job.done)
        driver.frames(1)
        time.sleep(0.01)
    scan = tools.scan
    return {"progress while scanning": progress, "lanes": None if scan is None else len(scan.hit),
            "hits": None if scan is None else int(scan.hit.sum())}


def modal_dialogs(driver: Driver) -> dict:
    editor, panels = driver.editor, driver.window.panels
    editor.select("triangle")
    driver.frames(2)
    count = len(editor.scene.objects)
    driver.press(key.F, key.MOD_CTRL | key.MOD_SHIFT)  # Save as fixture...
    observed = {"dialog_open": panels.tools.fixture_open and panels.modal}
    driver.press(key.DELETE)
    driver.press(key.R)
    driver.type("rtes")
    observed.update(deleted_through_dialog=len(editor.scene.objects) != count,
                    gizmo_after_keys=editor.gizmo_operation, end_pose_after_keys=editor.end_pose)
    driver.press(key.ESCAPE)
    observed["closed_by_escape"] = not panels.tools.fixture_open and not panels.modal
    driver.press(key.DELETE)
    observed["deleted_after"] = len(editor.scene.objects) == count - 1
    driver.window.dispatch_event("on_close")  # unsaved: asks, keeps the window
    driver.frames(3)
    observed["close_asks"] = panels.modal and not driver.window.has_exit and panels.quit is False
    return observed


def resize(driver: Driver) -> dict:
    """Resized by the X server's client (xdotool), as a user's window manager would,
    from 1280x800 to 1920x1080: the 3D view (the dock's central node) then reaches
    past column 1280.  Returns what its strip beyond column 1280 shows."""
    driver.resize(1920, 1080)
    width, height = driver.window.get_framebuffer_size()
    pixels = screen_pixels(driver.window)
    if os.environ.get("SWEEPLAB_DRIVER_PNG"):
        from sweeplab.render.png import write_png
        write_png(Path(os.environ["SWEEPLAB_DRIVER_PNG"]), np.ascontiguousarray(pixels))
    x, y, view_width, view_height = (round(v) for v in driver.window.panels.view_rect)
    strip = pixels[y + 40:y + view_height - 40, 1285:x + view_width - 5].astype(int).reshape(-1, 3)
    background = np.abs(strip - np.round(np.array(BACKGROUND[:3]) * 255)).sum(axis=-1) <= 6
    return {"size": [width, height], "view_right": x + view_width, "strip_pixels": len(strip),
            "drawn_pixels": int((~background).sum())}


def shift_click_x11(driver: Driver) -> dict:
    """Real X events (xdotool, under Xvfb): click a scene list row, Shift-click another,
    then Delete; then click a shape in the 3D view and Shift-click another.  The
    selection after each, and the shapes left after Delete."""
    editor, window = driver.editor, driver.window
    window_id, xdotool = driver.x_window(), driver.xdotool

    def click(x: float, y: float, shift: bool = False) -> None:
        xdotool("mousemove", "--window", window_id, str(round(x)), str(round(y)))
        if shift:
            xdotool("keydown", "shift")
        xdotool("click", "1")
        if shift:
            xdotool("keyup", "shift")

    def row(name: str) -> tuple[float, float]:
        return driver.field_centre(f"scene: {name}")

    xdotool("windowfocus", "--sync", window_id)
    observed = {}
    click(*row("triangle"))
    click(*row("segment"), shift=True)
    observed["scene list"] = list(editor.selection)
    xdotool("key", "Delete")
    observed["left after delete"] = sorted(o.name for o in editor.scene.objects)
    pickable = []
    for scene_object in editor.scene.objects:  # shapes a click on their pivot's pixel picks
        pixel = driver.screen(KINDS[scene_object.kind].pivot(scene_object.params))
        in_view = window.in_view(pixel[0], window.height - pixel[1])
        if in_view is not None:
            origin, segment = editor.camera.ray(in_view, window.panels.view_rect[2:])
            if editor.pick(origin, segment, 0.005 * editor.camera.distance) == scene_object.name:
                pickable.append((scene_object.name, pixel))
    (first, first_pixel), (second, second_pixel) = pickable[:2]
    click(*first_pixel)
    click(*second_pixel, shift=True)
    observed["view"] = {"clicked": [first, second], "selection": list(editor.selection)}
    click(*row("plane"))  # Shift is up again: a plain click selects one shape
    observed["plain click after"] = list(editor.selection)
    return observed


def idle(driver: Driver) -> dict:
    """Run the real event loop: draw on demand.  Frames while idle, and during a drag."""
    window = driver.window
    marks: dict[str, float] = {}

    def mark(name: str) -> None:
        marks[name] = window.frames
        marks[name + " cpu"] = time.process_time()

    def drag_camera() -> None:
        window.dispatch_event("on_mouse_press", 700, 300, mouse.MIDDLE, 0)
        for step in range(10):
            pyglet.clock.schedule_once(lambda dt, s=step: window.dispatch_event(
                "on_mouse_drag", 700 + 4 * s, 300, 4, 0, mouse.MIDDLE, 0), 0.02 * step)
        pyglet.clock.schedule_once(lambda dt: window.dispatch_event("on_mouse_release", 740, 300, mouse.MIDDLE, 0),
                                   0.25)

    settle = REFERENCE_DELAY + 1.0
    pyglet.clock.schedule_interval(window.tick, 1 / 60)
    pyglet.clock.schedule_once(lambda dt: mark("idle start"), settle)
    pyglet.clock.schedule_once(lambda dt: mark("idle end"), settle + 2.0)
    pyglet.clock.schedule_once(lambda dt: drag_camera(), settle + 2.05)
    pyglet.clock.schedule_once(lambda dt: mark("drag end"), settle + 2.45)
    pyglet.clock.schedule_once(lambda dt: pyglet.app.exit(), settle + 2.5)
    pyglet.app.run(None)
    return {"idle_frames": marks["idle end"] - marks["idle start"],
            "idle_cpu_seconds": marks["idle end cpu"] - marks["idle start cpu"],
            "drag_frames": marks["drag end"] - marks["idle end"]}


def layout_kept(driver: Driver) -> dict:
    """The docked layout is written to the user config on close (ImGui reads it back
    on the next start)."""
    view_rect = list(driver.window.panels.view_rect)
    driver.window.close()
    text = driver.window.layout_path.read_text()
    return {"view_rect": view_rect, "docked": [name for name in ("Scene", "Inspector", "Results", "Nudge")
                                               if f"[Window][{name}]" in text and "DockId=" in text],
            "has_dockspace": "DockSpace" in text}


def screenshot_folder() -> Path:
    """Resize the window (xdotool, under Xvfb) to ``SWEEPLAB_DRIVER_SIZE`` if set; the
    folder ``SWEEPLAB_DRIVER_OUT`` for PNGs, made."""
    import subprocess

    size = os.environ.get("SWEEPLAB_DRIVER_SIZE")
    if size:
        subprocess.run(["xdotool", "search", "--name", "sweeplab", "windowsize", *size.split("x")], check=True)
    out = Path(os.environ["SWEEPLAB_DRIVER_OUT"])
    out.mkdir(parents=True, exist_ok=True)
    return out


def screen_pixels(window) -> np.ndarray:
    """The window's framebuffer as it was last drawn: (height, width, 3) uint8, top row first."""
    width, height = window.get_framebuffer_size()
    data = window.ctx.screen.read(viewport=(0, 0, width, height), components=3, alignment=1)
    _ = window.ctx.error  # reading the default framebuffer leaves an error pending (GL_NOTES)
    return np.frombuffer(data, np.uint8).reshape(height, width, 3)[::-1].copy()


def write_screen(window, folder: Path, name: str) -> Path:
    """The window's framebuffer as ``folder/NAME-WxH.png``."""
    from sweeplab.render.png import write_png

    width, height = window.get_framebuffer_size()
    path = folder / f"{name}-{width}x{height}.png"
    write_png(path, screen_pixels(window))
    return path


def screenshots(driver: Driver) -> dict:
    """The editor as the issue asks to see it: the demo, meshes, polyhedra, a fixture
    opened, and the perturbation scan of a graze, at the window's size (resized with
    xdotool to ``SWEEPLAB_DRIVER_SIZE`` first, under Xvfb).  PNGs into
    ``SWEEPLAB_DRIVER_OUT``."""
    from sweeplab.cli import EXAMPLE_FIXTURES, example_scenes
    from sweeplab.view.scan import ScanSpec, run_scan

    out = screenshot_folder()
    editor, window = driver.editor, driver.window
    written = []

    def shot(name: str) -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < REFERENCE_DELAY + 0.5:  # the still scene's second opinions
            driver.frames(1)
        written.append(str(write_screen(window, out, name)))

    shot("demo")
    for example in ("meshes", "polyhedra"):
        editor.open(example_scenes()[example], untitled=True)
        shot(example)
    editor.open(EXAMPLE_FIXTURES / "sphere_triangle_edge_graze.json")
    shot("fixture")
    editor.open(example_scenes()["graze"], untitled=True)
    tools = window.panels.tools
    target = editor.scene.targets()[0].name
    tools.scan_parameter, tools.scan_epsilon = 2, 2e-9  # the ball's centre z, as the panel would set them
    tools.scan = run_scan(editor.scene, ScanSpec(target, editor.scene.moving, "center", 2, 2e-9, 1000))
    tools.scan_history = editor.history
    window.panels.focus = "Perturbation scan"
    shot("scan")
    from sweeplab.view.lessons import bundled_lessons

    for lesson in bundled_lessons()[0][:4:3]:  # lessons 1 and 4
        editor.open_lesson(lesson)
        editor.show_step(1)
        window.panels.focus = "Lesson"
        shot(f"lesson{lesson.number}")
    editor.open(example_scenes()["playground"], untitled=True)  # the ball just back off the wall, crate and log falling
    editor.start_playground({"ball", "crate", "log"}, 0.5, 0.5, True)
    for _ in range(3):
        editor.playground_step(1 / 60)
    editor.camera.frame(np.array([-3.0, -1.5, 0.0]), np.array([1.5, 1.5, 1.5]))  # the bodies, not the 200-unit path
    window.panels.focus = "Playground"
    shot("playground")
    editor.reset_playground()
    if os.environ.get("SWEEPLAB_DRIVER_LOG"):  # a query log: the Queries panel and the engine's ghost
        editor.open(Path(os.environ["SWEEPLAB_DRIVER_LOG"]))
        editor.mesh_display.engines = ("fcl", "rapier", "box3d")
        window.panels.focus = "Queries"
        shot("queries")
        window.panels.focus = "Results"  # each engine's answer beside sweeplab's
        shot("engines")
    return {"written": written}


def cold_start(driver: Driver) -> dict:
    """The editor on a cold kernel cache, as the command line runs it (a background
    compile, the view under the ``defer`` policy): the meshes example, screenshots at
    its first frames, after 20 s and once the scene's steps are compiled, with the
    Results header at each."""
    from sweeplab.cli import example_scenes
    from sweeplab.ui.results import headline

    out = screenshot_folder()
    editor, window = driver.editor, driver.window
    started = time.perf_counter()
    editor.open(example_scenes()["meshes"], untitled=True)
    editor.start_compiling()
    seen = []

    def shot(name: str) -> None:
        driver.frames(2)
        path = write_screen(window, out, f"cold-{name}")
        seen.append({"shot": str(path), "seconds": round(time.perf_counter() - started, 1),
                     "headline": headline(editor.view(), editor.compilation),
                     "status": editor.compilation.status() if editor.compilation else ""})

    def until(condition, limit: float) -> None:
        while not condition() and time.perf_counter() - started < limit:
            driver.frames(1)
            time.sleep(0.1)

    until(lambda: time.perf_counter() - started > REFERENCE_DELAY + 0.5, 60)
    shot("first")
    until(lambda: time.perf_counter() - started > 20, 60)
    shot("20s")
    compilation = editor.compilation
    if compilation is not None:
        until(lambda: compilation.first_done, 900)
        shot("scene-compiled")
        compilation.stop()
    return {"seen": seen}


def open_typed_path(driver: Driver) -> dict:
    """File > Open (Ctrl+O), the path ``SWEEPLAB_DRIVER_LOG`` typed straight away (the
    dialog's field has the keyboard), Enter."""
    path = os.environ["SWEEPLAB_DRIVER_LOG"]
    driver.press(key.O, key.MOD_CTRL)
    observed = {"dialog_open": driver.window.panels.path_dialog == "open"}
    driver.type(path)
    driver.frames(2)
    observed["typed_into_field"] = driver.window.panels.path_text == path
    driver.press(key.RETURN)
    queries = driver.editor.queries
    observed.update(queries=None if queries is None else len(queries),
                    dialog_closed=driver.window.panels.path_dialog is None, message=driver.editor.message)
    return observed


def open_while_playing(driver: Driver) -> dict:
    """The playground playing (its panel's Play), then File > Open of the demo scene:
    frames drawn after it must show the demo, not the playground's next step."""
    editor, panels = driver.editor, driver.window.panels
    editor.open(example_scenes()["playground"], untitled=True)
    editor.start_playground({"crate", "log"}, 0.3, 0.5, True)
    panels.playground.playing = True
    for _ in range(5):
        driver.window.tick(1 / 60)
    stepped = editor.playground is not None and editor.playground.world.time > 0
    editor.open(DEMO_SCENE)
    for _ in range(5):
        driver.window.tick(1 / 60)
    driver.frames(3)
    return {"stepped": stepped, "objects": len(editor.scene.objects), "dirty": editor.dirty,
            "same_as_file": editor.scene.to_json() == load(DEMO_SCENE).to_json(), "playing": panels.playground.playing}


def spring_drag_x11(driver: Driver) -> dict:
    """#36: the playground playing, the crate pressed and dragged up with real X events
    (xdotool, under Xvfb): held by the mouse spring while the button is down (its line
    drawn), let go on release; the crate's height then, against the same run not held."""
    editor, panels, window = driver.editor, driver.window.panels, driver.window
    window_id, xdotool = driver.x_window(), driver.xdotool
    xdotool("windowfocus", "--sync", window_id)
    editor.open(example_scenes()["playground"], untitled=True)

    def run(held: bool) -> float:
        editor.start_playground({"crate"}, 0.5, 0.5, True)
        editor.select(None)  # no gizmo in the way: a press on it drags the gizmo
        camera = editor.camera  # from above the crate: by default the log and the wall stand in front of it
        camera.target, camera.distance, camera.pitch = editor.playground.body("crate").position.copy(), 6.0, 1.0
        panels.playground.playing = True
        driver.frames(2)
        start = _unhidden_pixel(driver, "crate")
        if held:
            xdotool("mousemove", "--window", window_id, str(round(start[0])), str(round(start[1])))
            xdotool("mousedown", "1")
        for step in range(1, 9):
            if held:
                xdotool("mousemove", "--window", window_id, str(round(start[0])), str(round(start[1] - 10 * step)))
            for _ in range(3):
                window.tick(1 / 60)
        crate = editor.playground.body("crate")
        seen["held"].append(editor.grab is not None and editor.grab.body == "crate")
        seen["line"].append(any(batch.color == SPRING for batch in editor.view().lines))
        if held:
            xdotool("mouseup", "1")
        height = float(crate.position[2])
        panels.playground.playing = False
        editor.reset_playground()
        return height

    seen: dict[str, list] = {"held": [], "line": []}
    free, held = run(False), run(True)
    return {**seen, "free": free, "dragged": held, "released": editor.grab is None}


def _unhidden_pixel(driver: Driver, name: str) -> np.ndarray:
    """A pixel where the view ray meets body ``name`` first: its centre or half-way to
    a point of its shape (another shape may stand in front of its centre)."""
    editor, (left, top, width, height) = driver.editor, driver.window.panels.view_rect
    body = editor.playground.body(name)
    shape = body.world_shape()
    points = np.asarray(shape.vertices if hasattr(shape, "vertices") else [shape.a, shape.b], float)
    for point in [body.position, *(0.5 * (body.position + points))]:
        pixel = driver.screen(point)
        origin, segment = editor.camera.ray((pixel[0] - left, pixel[1] - top), (width, height))
        if editor.pick(origin, segment, 1e-3) == name:
            return pixel
    raise AssertionError(f"{name} is hidden from the camera")


def fixture_while_compiling(driver: Driver) -> dict:
    """A fixture open while its kernels compile (``fixture_report`` is None until
    then): the Fixture panel says so and the window keeps drawing."""
    fixture = Path(os.environ["SWEEPLAB_DRIVER_FIXTURE"])
    editor = driver.editor
    assert editor.open(fixture), editor.message
    editor.fixture_report = lambda: None  # as while its kernels compile (kernels.KernelsPending)
    before = driver.window.frames
    driver.frames(4)
    return {"frames": driver.window.frames - before, "fixture_open": editor.fixture is not None}


def _turning(driver: Driver) -> None:
    """The bundled turning scene (a bat spinning past a post), the gizmo's rings on its
    end pose (E, then R), seen from 70° above (the z ring wide open)."""
    editor = driver.editor
    editor.open(example_scenes()["turning"], untitled=True)
    editor.camera.target, editor.camera.pitch = _end_pivot(editor), np.radians(70.0)
    driver.frames(3)
    driver.press(key.E)
    driver.press(key.R)


def _end_pivot(editor: Editor) -> np.ndarray:
    from sweeplab.view.turn import pivot_of

    return pivot_of(editor.scene) + np.asarray(editor.scene.direction)


def ring_drag(driver: Driver) -> dict:
    """The end pose's z ring dragged with pyglet's events, then Ctrl+Z: the rotation
    before, after the drag and after the undo (hex)."""
    editor = driver.editor
    _turning(driver)
    before = [v.hex() for v in editor.scene.rotation]
    took = driver.drag_gizmo_ring(_end_pivot(editor), 2) is not None
    after = [v.hex() for v in editor.scene.rotation]
    driver.press(key.Z, key.MOD_CTRL)
    return {"took": took, "before": before, "after": after, "undone": [v.hex() for v in editor.scene.rotation],
            "end_pose": editor.end_pose, "operation": editor.gizmo_operation, "message": editor.message}


def ring_drag_x11(driver: Driver) -> dict:
    """The end pose's z ring dragged with real X events (xdotool, under Xvfb), where a
    drag with pyglet's events (then undone) found it: the rotation before and after."""
    editor = driver.editor
    window_id, xdotool = driver.x_window(), driver.xdotool

    def drag(start, end, steps: int = 8) -> None:
        xdotool("mousemove", "--window", window_id, str(round(start[0])), str(round(start[1])))
        xdotool("mousedown", "1")
        for step in range(1, steps + 1):
            x, y = np.asarray(start) + (np.asarray(end) - np.asarray(start)) * step / steps
            xdotool("mousemove", "--window", window_id, str(round(x)), str(round(y)))
        xdotool("mouseup", "1")

    xdotool("windowfocus", "--sync", window_id)
    _turning(driver)
    before = [v.hex() for v in editor.scene.rotation]
    found = driver.drag_gizmo_ring(_end_pivot(editor), 2)
    if found is None:
        return {"took": False, "before": before, "after": before}
    editor.undo()
    revision = editor.history.revision
    drag(*found)
    return {"took": editor.history.revision != revision, "before": before,
            "after": [v.hex() for v in editor.scene.rotation]}


def pivot_drag(driver: Driver) -> dict:
    """P (the gizmo on the pivot), its x arrow dragged: the pivot before (None: the
    centroid), the centroid, and the pivot after (hex)."""
    from sweeplab.view.turn import pivot_of

    editor = driver.editor
    _turning(driver)
    driver.press(key.P)
    centroid = pivot_of(editor.scene)
    took = driver.drag_gizmo_axis(centroid, 0)
    pivot = editor.scene.pivot
    return {"took": took, "pivot_handle": editor.pivot_handle, "centroid": [v.hex() for v in centroid.tolist()],
            "after": None if pivot is None else [v.hex() for v in pivot]}


def advancement_panel(driver: Driver) -> dict:
    """The Conservative advancement panel on the turning scene's wall: its slider
    dragged to the right (the moving shape's pose at that iteration drawn), then the
    turn set to zero (the panel says a linear sweep has no iterations)."""
    from sweeplab.view.model import ADVANCE

    editor, window = driver.editor, driver.window
    _turning(driver)
    editor.select("wall")
    window.panels.focus = "Conservative advancement"
    driver.frames(4)
    report = editor.advancement()
    x0, y0, x1, y1 = DRAWN["advancement slider"].rect
    driver.drag((x0 + 4, (y0 + y1) / 2), (x1 - 4, (y0 + y1) / 2))
    observed = {"iterations": None if isinstance(report, str) else len(report.steps),
                "step": editor.advancement_step,
                "ghosts": sum(batch.color == ADVANCE for batch in editor.view().lines)}
    editor.set_rotation([0.0, 0.0, 0.0])
    driver.frames(3)
    said = editor.advancement()
    observed.update(linear=said if isinstance(said, str) else None,  # drawn since the slider was last
                    said_after_slider=DRAWN["advancement says"].frame > DRAWN["advancement slider"].frame)
    return observed


def playground_timeline(driver: Driver) -> dict:
    """The Playground panel's timeline after 40 steps: "<" clicked (frame 39), the
    slider dragged to its left end (frame 0) and a little right, ">" clicked; what each
    showed.  With ``SWEEPLAB_DRIVER_OUT`` set, a PNG of a frame with contacts (at
    ``SWEEPLAB_DRIVER_SIZE``)."""
    from sweeplab.view.frame import FRAME_CONTACT

    editor, window = driver.editor, driver.window
    out = screenshot_folder() if os.environ.get("SWEEPLAB_DRIVER_OUT") else None
    editor.open(example_scenes()["playground"], untitled=True)
    editor.start_playground({"ball", "crate", "log"}, 0.5, 0.5, True)
    run = editor.playground
    for _ in range(40):
        editor.playground_step(1 / 60)
    editor.camera.frame(np.array([-3.0, -1.5, 0.0]), np.array([1.5, 1.5, 1.5]))
    window.panels.focus = "Playground"
    driver.frames(4)
    shown = []

    def looked() -> None:
        position = run.recorder.position
        shown.append({"position": position, "scene_is_frame": editor.scene.to_json() == run.frame_scene(position)
                      .to_json(), "contacts": len(run.recorder.frame(position).events),
                      "drawn": sum(len(b.positions) for b in editor.view().points if b.color == FRAME_CONTACT)})

    driver.click(*driver.field_centre("playground frame back"))
    looked()
    x0, y0, x1, y1 = DRAWN["playground timeline"].rect
    driver.drag(((x0 + x1) / 2, (y0 + y1) / 2), (x0 - 40, (y0 + y1) / 2))
    looked()
    driver.drag((x0 + 4, (y0 + y1) / 2), (x0 + (x1 - x0) * 0.3, (y0 + y1) / 2))
    looked()
    driver.click(*driver.field_centre("playground frame forward"))
    looked()
    written = []
    if out is not None:
        busy = max(range(run.recorder.first, run.recorder.last + 1), key=lambda i: len(run.recorder.frame(i).events))
        editor.playground_seek(busy)
        driver.frames(4)
        written.append(str(write_screen(window, out, "playground-timeline")))
    return {"shown": shown, "last": run.recorder.last, "playing": window.panels.playground.playing,
            "written": written, "message": editor.message}


def playground_particles(driver: Driver) -> dict:
    """The Playground panel's "Add particles" clicked on the running playground scene
    (its default block, 1,000 particles), then 45 steps: how many particles the run
    holds, how many sprites the view draws, and the blue sprite pixels on screen.  With
    ``SWEEPLAB_DRIVER_OUT`` set, a PNG (at ``SWEEPLAB_DRIVER_SIZE``)."""
    editor, window = driver.editor, driver.window
    out = screenshot_folder() if os.environ.get("SWEEPLAB_DRIVER_OUT") else None
    editor.open(example_scenes()["playground"], untitled=True)
    editor.start_playground({"crate", "log"}, 0.3, 0.5, True)
    editor.camera.frame(np.array([-2.0, -1.5, 0.0]), np.array([1.5, 1.5, 1.5]))
    window.panels.focus = "Playground"
    driver.frames(4)
    driver.click(*driver.field_centre("playground add particles"))
    driver.frames(2)
    for _ in range(45):
        editor.playground_step(1 / 60)
    driver.frames(4)
    pixels = screen_pixels(window).astype(int)
    blue = int(np.sum((pixels[..., 2] > pixels[..., 0] + 60) & (pixels[..., 2] > 120)))
    fluid = editor.playground.world.particles
    written = [str(write_screen(window, out, "playground-particles"))] if out is not None else []
    return {"particles": 0 if fluid is None else len(fluid),
            "sprites": sum(len(batch.positions) for batch in editor.view().sprites), "blue_pixels": blue,
            "written": written, "message": editor.message}


def turning_screenshots(driver: Driver) -> dict:
    """The turning scene with the Conservative advancement panel open on the wall (an iteration's
    pose drawn) and the end pose's rings, at the window's size (``SWEEPLAB_DRIVER_SIZE``);
    PNGs into ``SWEEPLAB_DRIVER_OUT``."""
    out = screenshot_folder()
    editor, window = driver.editor, driver.window
    _turning(driver)
    editor.select("wall")
    window.panels.focus = "Conservative advancement"
    driver.frames(4)
    editor.show_advancement_step(2)
    written = []
    start = time.perf_counter()
    while time.perf_counter() - start < REFERENCE_DELAY + 0.5:
        driver.frames(1)
    written.append(str(write_screen(window, out, "turning")))
    return {"written": written}


def playground_water(driver: Driver) -> dict:
    """The bundled playground scene run with water (level 0.8, density 2: the bodies,
    density 1, float half under, drags 2/s) for 1.5 s, the Playground panel open: the
    surface and the crate's and log's waterlines, at ``SWEEPLAB_DRIVER_SIZE``; a PNG
    into ``SWEEPLAB_DRIVER_OUT``."""
    from sweeplab.playground.buoyancy import Water

    out = screenshot_folder()
    editor, window = driver.editor, driver.window
    editor.open(example_scenes()["playground"], untitled=True)
    water = Water(level=0.8, density=2.0, linear_drag=2.0, angular_drag=2.0)
    editor.start_playground({"ball", "crate", "log"}, 0.5, 0.5, True, water=water)
    window.panels.playground.show_water(water)
    for _ in range(90):
        editor.playground_step(1 / 60)
    editor.camera.frame(np.array([-3.0, -2.5, -0.5]), np.array([2.0, 2.5, 2.0]))
    window.panels.focus = "Playground"
    driver.frames(6)
    bodies = {body.name: body.position.round(4).tolist() for body in editor.playground.world.bodies}
    return {"written": [str(write_screen(window, out, "playground-water"))], "bodies": bodies,
            "message": editor.message}


def water_tick(driver: Driver) -> dict:
    """The Playground panel, not running, on the bundled playground scene: the "water"
    tick clicked, then "Step": the water the panel chose, the running world's, and
    whether the view draws its surface."""
    from sweeplab.view.water import SURFACE

    editor, window = driver.editor, driver.window
    editor.open(example_scenes()["playground"], untitled=True)
    window.panels.focus = "Playground"
    driver.frames(4)
    driver.click(*driver.field_centre("playground water"))
    chosen = window.panels.playground.chosen_water()
    driver.frames(2)
    driver.click(*driver.field_centre("playground step"))
    run = editor.playground
    water = None if run is None else run.world.water
    return {"chosen": repr(chosen), "world": repr(water), "time": None if run is None else run.world.time,
            "surface": any(drawable.fill == SURFACE for drawable in editor.view().drawables),
            "message": editor.message}


SCENARIOS = {function.__name__: function for function in (gizmo_drag, typing, modal_dialogs, resize, idle,
                                                          layout_kept, screenshots, cold_start,
                                                          open_typed_path, typed_numbers, tab_then_shortcut,
                                                          scan_progress, shift_click_x11, open_while_playing,
                                                          spring_drag_x11,
                                                          fixture_while_compiling, ring_drag, ring_drag_x11,
                                                          pivot_drag, advancement_panel, turning_screenshots,
                                                          playground_timeline, playground_water, water_tick,
                                                          playground_particles)}

if __name__ == "__main__":
    scenario, output = sys.argv[1], Path(sys.argv[2])
    observed = SCENARIOS[scenario](Driver())
    output.write_text(json.dumps(observed, indent=1))
    print(json.dumps(observed))
