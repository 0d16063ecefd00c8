"""What the panels remember between frames: open dialogs, the view's rectangle, toggles."""

from __future__ import annotations

from sweeplab.ui.playground import PlaygroundState
from sweeplab.ui.tools import ToolState


class PanelState:
    """What the panels remember between frames (open dialogs, typed paths)."""

    def __init__(self):
        self.path_dialog: str | None = None  # "open", "save as" or "mesh file"
        self.path_text = ""
        self.show_help = False
        self.dragging = False
        self.drag_start: dict | None = None
        self.tools = ToolState()
        self.pending: str | None = None
        """"new", "open" or "close", waiting on the unsaved-changes question."""
        self.close_after_save = False
        self.quit = False
        """Set when the window should close (the user said so, nothing unsaved is lost)."""
        self.modal = False
        """A dialog is open: the window's shortcuts are off until it closes."""
        self.view_rect = (0.0, 0.0, 1.0, 1.0)
        """Where the 3D view is drawn: the dockspace's central node (x, y, width, height),
        window pixels, top-down (``layout.dock_panels``)."""
        self.reset_layout = False
        self.show_legend = True
        self.show_labels = True
        self.disagreements_only = False
        self.copy_language: str | None = None
        """"C++" or "Rust" while the Copy as test dialog is open."""
        self.test_function = "sweep_test"
        self.test_precision = "float64"
        """The copied tests' precision: "float64", or "float32" for a float32 engine."""
        self.playground = PlaygroundState()
        self.focus: str | None = None
        """A panel to bring forward this frame (View > Show)."""
