"""The real editor window, run headless (pyglet's EGL pbuffer) in a subprocess."""

import os
import subprocess
import sys

import numpy as np

from sweeplab.render.png import decode_png
from sweeplab.view.model import CONTACT


def test_editor_window_draws_scene_and_panels(tmp_path, gl_context):
    screenshot = tmp_path / "editor.png"
    environment = dict(os.environ, PYGLET_HEADLESS="1")
    completed = subprocess.run([sys.executable, "-m", "sweeplab", "--screenshot", str(screenshot)], env=environment,
                               capture_output=True, text=True, timeout=900)  # a cold cache compiles the scene
    assert completed.returncode == 0, completed.stderr
    pixels = decode_png(screenshot.read_bytes())
    assert pixels.shape == (800, 1280, 3)
    menu_bar = pixels[:18, :200]
    assert np.all(menu_bar == 255, axis=-1).sum() > 50  # "File Edit Add View" in white from the font atlas
    yellow = np.all(np.abs(pixels.astype(int) - np.array(CONTACT[:3]) * 255) <= 40, axis=-1)
    assert yellow.sum() > 20  # contact markers of the demo scene's hits


def test_editor_without_display_says_so(tmp_path):
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PYGLET_HEADLESS")}
    completed = subprocess.run([sys.executable, "-m", "sweeplab"], env=environment, capture_output=True, text=True,
                               timeout=60)
    assert completed.returncode == 2 and "no display" in completed.stderr


def test_a_headless_editor_without_a_screenshot_says_what_to_run_and_exits(tmp_path):
    """#33 item 10: ``PYGLET_HEADLESS=1 sweeplab`` (what the no-display message
    suggested) opened an editor no one can see, printed nothing and never exited."""
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    environment.update(PYGLET_HEADLESS="1", XDG_CACHE_HOME=str(tmp_path / "cache"))
    try:
        completed = subprocess.run([sys.executable, "-m", "sweeplab"], env=environment, capture_output=True,
                                   text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("the headless editor ran on, invisible") from None
    assert completed.returncode == 2
    assert "sweeplab render" in completed.stderr and "--screenshot" in completed.stderr
