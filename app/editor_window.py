"""The editor window: pyglet events and frame loop, moderngl drawing, ImGui panels.

Per frame: feed input to ImGui, build the panels (which edit the scene through
the ``Editor``), take the view model (physics reruns only when the scene
changed), draw the 3D view, then the panels.  Mouse input the panels do not want
drives the camera: middle drag orbits, right (or shift+middle) drag pans, the
wheel zooms; with a playground run, a left press on a dynamic body holds it by the
mouse spring until released (``editor.playground``).  ``--screenshot`` renders a few frames, saves the window and exits
(for docs and tests; headless with ``PYGLET_HEADLESS=1``).

Frames are drawn on demand, not at a fixed rate: a few after each input event
(ImGui needs a frame or two to settle hovers and popups), every tick while a
mouse button is held, while the kernels compile or a scan runs, and until the still scene's
second opinions are in.  An untouched window draws nothing (``frames`` stays put).

Importing this module imports ``pyglet.window``, which needs a display (or
``PYGLET_HEADLESS``, honoured here): ``sweeplab.window.run_editor`` checks for one
first and imports this module only then.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import moderngl
import numpy as np
import pyglet

if os.environ.get("PYGLET_HEADLESS"):
    pyglet.options["headless"] = True

from imgui_bundle import imgui, imguizmo, implot  # noqa: E402
from pyglet.window import key, mouse  # noqa: E402

from sweeplab.editor import REFERENCE_DELAY, Editor  # noqa: E402
from sweeplab.render.imgui_renderer import ImGuiRenderer  # noqa: E402
from sweeplab.render.png import write_png  # noqa: E402
from sweeplab.render.renderer import BACKGROUND, Renderer, grid_step_for  # noqa: E402
from sweeplab.ui.commands import ask_if_unsaved  # noqa: E402
from sweeplab.ui.keys import imgui_keys, key_bindings, modifiers_after  # noqa: E402
from sweeplab.ui.layout import layout_file  # noqa: E402
from sweeplab.ui.panels import draw_ui  # noqa: E402
from sweeplab.ui.playground import STEP_SIZES  # noqa: E402
from sweeplab.ui.state import PanelState  # noqa: E402

WINDOW_SIZE = (1280, 800)
PICK_RADIUS = 0.005
"""Radius of the ball swept along a click's view ray, per unit of camera distance:
points and segments (which a ray of radius 0 almost never meets) stay clickable."""
FRAMES_AFTER_INPUT = 3
"""Frames drawn after an input event: ImGui settles hovers, popups and focus in two."""
BACKGROUND_FRAME_SECONDS = 0.5
"""While the other kernels compile behind a ready scene: one frame this often (progress)."""
SCREENSHOT_FRAMES = 4
SCREENSHOT_SECONDS = REFERENCE_DELAY + 0.2
"""A screenshot waits for this many frames and seconds (and, on a cold kernel cache,
for the scene's answers): the still scene's second opinions (reference answers,
mesh narrowphase) are then drawn too."""



class EditorWindow(pyglet.window.Window):
    """The editor's window: ``editor`` shown and edited; with ``screenshot``, a few
    frames drawn, the window saved there as PNG, and closed."""

    def __init__(self, editor: Editor, screenshot: Path | None = None):
        config = pyglet.gl.Config(  # type: ignore[abstract]  # pyglet's documented way; its stubs call it abstract
            major_version=3, minor_version=3, forward_compatible=True, double_buffer=True,
                                  red_size=8, green_size=8, blue_size=8, alpha_size=8, depth_size=24)
        title = f"sweeplab - {editor.path.name if editor.path else 'demo scene'}"
        super().__init__(*WINDOW_SIZE, caption=title, resizable=True, config=config)
        moderngl.init_context()
        self.ctx = moderngl.get_context()
        self.editor, self.screenshot, self.exit_code = editor, screenshot, 0
        imgui.create_context()
        implot.create_context()
        io = imgui.get_io()
        io.config_flags |= imgui.ConfigFlags_.docking_enable
        # The panel layout is kept between runs; a screenshot always shows the default one.
        self.layout_path = layout_file() if screenshot is None else None
        io.set_ini_filename(str(self.layout_path) if self.layout_path is not None else None)
        self.imgui_renderer = ImGuiRenderer(self.ctx)
        self.renderer = Renderer(self.ctx)
        self.panels = PanelState()
        self.bindings = key_bindings(key)
        self.imgui_keys = imgui_keys(key, imgui)
        self.frames = 0
        self.frame_seconds = 0.0
        self._press: tuple[float, float, int] | None = None
        """Where a left click began in the view, and its modifiers (a click picks)."""
        self._buttons = 0
        self._frames_owed = FRAMES_AFTER_INPUT
        self._last_frame = 0.0
        self._last_time = self._opened = time.perf_counter()
        pyglet.clock.schedule_interval(lambda dt: self._autosave(), 1.0)

    def _autosave(self) -> None:
        message = self.editor.message
        written = self.editor.autosave()
        if written is not None and self.editor.message == message:
            self.editor.say(f"autosaved to {written}")
        if self.editor.message != message:
            self.owe_frames()

    def owe_frames(self, count: int = FRAMES_AFTER_INPUT) -> None:
        """Something changed what the window shows: draw ``count`` more frames."""
        self._frames_owed = max(self._frames_owed, count)

    def frame_due(self) -> bool:
        """Whether ``tick`` draws: input to settle, a held button, a screenshot to
        take, a view still changing without input (``Editor.settling``), text
        being typed (the cursor blinks), or background compiling or a scan
        running (slowly: their progress)."""
        if self._frames_owed > 0 or self._buttons or self.screenshot is not None or self.editor.settling:
            return True
        if self.panels.playground.playing:
            return True
        if imgui.get_io().want_text_input:
            return True
        compilation = self.editor.compilation
        background = compilation is not None and not compilation.finished or self.panels.tools.scan_job is not None
        return background and time.perf_counter() - self._last_frame >= BACKGROUND_FRAME_SECONDS

    def tick(self, dt: float) -> None:
        playground = self.panels.playground
        if playground.playing and self.editor.playground is not None:
            self.editor.playground_step(STEP_SIZES[playground.step_size])  # one step a frame
        if self.frame_due():
            self._frames_owed = max(self._frames_owed - 1, 0)
            self.draw(dt)

    def on_draw(self) -> None:
        started = time.perf_counter()
        io = imgui.get_io()
        width, height = self.get_framebuffer_size()
        io.display_size = imgui.ImVec2(*self.get_size())
        io.display_framebuffer_scale = imgui.ImVec2(width / max(self.width, 1), height / max(self.height, 1))
        io.delta_time = max(started - self._last_time, 1e-4)
        self._last_time = started
        imgui.new_frame()
        imguizmo.im_guizmo.begin_frame()
        revision = self.editor.history.revision
        draw_ui(self.editor, self.panels, self.get_size())
        if self.editor.history.revision != revision:
            self.owe_frames()  # an edit from a panel: draw its answer
        imgui.render()
        # The window's size now: moderngl's screen framebuffer keeps the size the window
        # was created with, and ``scissor = None`` means that size (GL_NOTES).
        self.ctx.screen.viewport = (0, 0, width, height)
        self.ctx.screen.use()
        self.ctx.clear(*BACKGROUND, viewport=(0, 0, width, height))
        origin, size = self.view_pixels()
        self.renderer.draw(self.editor.view(), self.editor.camera, size, grid_step_for(self.editor.camera), origin)
        self.ctx.viewport = self.ctx.scissor = (0, 0, width, height)
        self.imgui_renderer.render(imgui.get_draw_data())
        self.frame_seconds = time.perf_counter() - started
        self._last_frame = started
        self.frames += 1
        if self.panels.quit:
            self.panels.quit = False
            pyglet.clock.schedule_once(lambda dt: self.close(), 0)  # not while pyglet iterates its windows
        if self.screenshot is not None and self.frames >= SCREENSHOT_FRAMES and not self.editor.answers_pending \
                and started - self._opened >= SCREENSHOT_SECONDS:
            self._save_screenshot()

    def view_pixels(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The 3D view's rectangle in framebuffer pixels: (origin bottom-left, size)."""
        x, y, width, height = self.panels.view_rect
        frame_width, frame_height = self.get_framebuffer_size()
        scale_x, scale_y = frame_width / max(self.width, 1), frame_height / max(self.height, 1)
        bottom = frame_height - (y + height) * scale_y
        size = (max(round(width * scale_x), 1), max(round(height * scale_y), 1))
        return (round(x * scale_x), round(bottom)), size

    def in_view(self, x: float, y: float) -> tuple[float, float] | None:
        """A pyglet mouse position as a pixel of the 3D view (top-down, from its
        corner), or None outside it."""
        left, top, width, height = self.panels.view_rect
        pixel = (x - left, self.height - y - top)
        return pixel if 0 <= pixel[0] < width and 0 <= pixel[1] < height else None

    def project(self, points):
        """World points as window pixels (top-down): where the 3D view draws them."""
        left, top, width, height = self.panels.view_rect
        return self.editor.camera.project(points, (width, height)) + (left, top)

    def _save_screenshot(self) -> None:
        width, height = self.get_framebuffer_size()
        data = self.ctx.screen.read(viewport=(0, 0, width, height), components=3, alignment=1)
        _ = self.ctx.error  # reading the default framebuffer leaves an error pending (GL_NOTES)
        pixels = np.frombuffer(data, np.uint8).reshape(height, width, 3)[::-1]
        write_png(self.screenshot, pixels)
        print(f"wrote {self.screenshot} ({width}x{height}), frame {self.frame_seconds * 1e3:.1f} ms")
        self.screenshot = None
        pyglet.clock.schedule_once(lambda dt: self.close(), 0)  # not while pyglet iterates its windows

    # --- input --------------------------------------------------------

    def on_mouse_motion(self, x, y, dx, dy):
        imgui.get_io().add_mouse_pos_event(x, self.height - y)
        self.owe_frames()

    def on_mouse_press(self, x, y, button, modifiers):
        io = imgui.get_io()
        self._modifier_events(modifiers)  # a click's modifiers are as held (e.g. Shift-click in the panels)
        io.add_mouse_pos_event(x, self.height - y)
        io.add_mouse_button_event(self._imgui_button(button), True)
        self._buttons |= button
        self._press = (x, y, modifiers) if button == mouse.LEFT and not io.want_capture_mouse \
            and not imguizmo.im_guizmo.is_over() else None
        ray = self._ray(x, y) if self._press is not None and self.editor.playground is not None else None
        if ray is not None:
            self.editor.grab_body(*ray, PICK_RADIUS * self.editor.camera.distance)
        self.owe_frames()

    def on_mouse_release(self, x, y, button, modifiers):
        imgui.get_io().add_mouse_button_event(self._imgui_button(button), False)
        self._buttons &= ~button
        if button == mouse.LEFT:
            self.editor.release_grab()
        pressed_here = self._press is not None and abs(x - self._press[0]) + abs(y - self._press[1]) < 4
        pixel = self.in_view(x, y)
        if button == mouse.LEFT and pressed_here and pixel is not None:
            camera = self.editor.camera
            origin, segment = camera.ray(pixel, self.panels.view_rect[2:])
            picked = self.editor.pick(origin, segment, PICK_RADIUS * camera.distance)
            if modifiers & key.MOD_SHIFT:
                self.editor.toggle_in_selection(picked)
            else:
                self.editor.select(picked)
        self._press = None
        self.owe_frames()

    def on_mouse_drag(self, x, y, dx, dy, buttons, modifiers):
        io = imgui.get_io()
        io.add_mouse_pos_event(x, self.height - y)
        self.owe_frames()
        if io.want_capture_mouse or imguizmo.im_guizmo.is_using():
            return
        ray = self._ray(x, y) if buttons & mouse.LEFT and self.editor.grab is not None else None
        if ray is not None:
            self.editor.drag_grab(*ray)
        camera = self.editor.camera
        if buttons & mouse.RIGHT or (buttons & mouse.MIDDLE and modifiers & key.MOD_SHIFT):
            camera.pan(dx, dy, self.panels.view_rect[3])
        elif buttons & mouse.MIDDLE:
            camera.orbit(dx, dy)

    def _ray(self, x: float, y: float):
        """The view ray (origin, segment) through a pyglet mouse position, None outside the view."""
        pixel = self.in_view(x, y)
        return None if pixel is None else self.editor.camera.ray(pixel, self.panels.view_rect[2:])

    def on_mouse_scroll(self, x, y, scroll_x, scroll_y):
        io = imgui.get_io()
        io.add_mouse_wheel_event(scroll_x, scroll_y)
        if not io.want_capture_mouse:
            self.editor.camera.zoom(scroll_y)
        self.owe_frames()

    def on_resize(self, width, height):
        self.owe_frames()  # pyglet's own handler (the GL viewport) runs after this one

    def on_expose(self):
        self.owe_frames()

    @staticmethod
    def _imgui_button(button) -> int:
        return {mouse.LEFT: 0, mouse.RIGHT: 1, mouse.MIDDLE: 2}.get(button, 0)

    def _modifier_events(self, modifiers) -> None:
        io = imgui.get_io()
        io.add_key_event(imgui.Key.mod_ctrl, bool(modifiers & key.MOD_CTRL))
        io.add_key_event(imgui.Key.mod_shift, bool(modifiers & key.MOD_SHIFT))

    def on_key_press(self, symbol, modifiers):
        """Keys go to ImGui; a command's chord runs it, unless a dialog is open or a
        text field has focus (then the keys are the dialog's or the field's)."""
        io = imgui.get_io()
        self._modifier_events(modifiers_after(symbol, modifiers, True, key))
        if symbol in self.imgui_keys:
            io.add_key_event(self.imgui_keys[symbol], True)
        self.owe_frames()
        if io.want_text_input or self.panels.modal:
            return pyglet.event.EVENT_HANDLED
        command = self.bindings.get((modifiers & (key.MOD_CTRL | key.MOD_SHIFT), symbol))
        if command is not None:
            if command.enabled(self.editor):
                command.run(self.editor, self.panels)
            return pyglet.event.EVENT_HANDLED
        if symbol == key.ESCAPE:
            return pyglet.event.EVENT_HANDLED  # Escape closes dialogs; it never closes the editor
        return None

    def on_key_release(self, symbol, modifiers):
        self._modifier_events(modifiers_after(symbol, modifiers, False, key))
        if symbol in self.imgui_keys:
            imgui.get_io().add_key_event(self.imgui_keys[symbol], False)
        self.owe_frames()

    def on_text(self, text):
        imgui.get_io().add_input_characters_utf8(text)
        self.owe_frames()

    def on_close(self):
        """Closing keeps the work: the autosave is written first (in the user cache
        when the scene's folder is read-only), then unsaved changes are asked about
        (Save / Discard / Cancel)."""
        self.editor.autosave(force=True)
        if self.editor.dirty:
            ask_if_unsaved(self.editor, self.panels, "close")
            self.owe_frames()
            return pyglet.event.EVENT_HANDLED
        super().on_close()
        return None

    def close(self):
        if self.layout_path is not None:
            imgui.save_ini_settings_to_disk(str(self.layout_path))
        if self.editor.compilation is not None:
            self.editor.compilation.stop()
        super().close()

