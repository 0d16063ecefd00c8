"""Opening the editor window from the command line: a display is checked for first,
and only then is the window's module (``sweeplab.editor_window``, which imports
``pyglet.window``) loaded."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sweeplab.editor import Editor

TICK_SECONDS = 1 / 60
"""How often the window checks whether a frame is due (drawing only if one is)."""


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("PYGLET_HEADLESS"))


def run_editor(editor: Editor, screenshot: Path | None = None) -> int:
    """Open the editor window; returns the process exit code."""
    headless = bool(os.environ.get("PYGLET_HEADLESS"))
    if not _has_display() or (headless and screenshot is None):
        reason = ("PYGLET_HEADLESS is set: a headless window is seen by no one" if headless
                  else "no display to open a window on (DISPLAY is not set)")
        print(f"sweeplab: {reason}. For a frame without a display use 'sweeplab render [SCENE] -o frame.png', "
              "or 'PYGLET_HEADLESS=1 sweeplab [SCENE] --screenshot frame.png' for the whole editor.", file=sys.stderr)
        return 2
    import pyglet

    from sweeplab.editor_window import EditorWindow  # honours PYGLET_HEADLESS

    window = EditorWindow(editor, screenshot)
    editor.start_compiling()
    pyglet.clock.schedule_interval(window.tick, TICK_SECONDS)
    pyglet.app.run(None)  # no fixed-rate redraw: ``tick`` draws when a frame is due
    return window.exit_code
