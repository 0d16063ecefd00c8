"""Interaction: the ``Editor``, split by what changes together.

``selection`` (what is selected, picking, the camera's framing, gizmo modes),
``edits`` (commands on the scene and undo), ``nudge`` (by ulps or an epsilon),
``files`` (the document: what is open — ``opened``, one value set in one place —
its history, open, save, autosave, fixtures), ``queries`` (a query log from another
engine, one query shown at a time), ``lessons`` (a lesson's scene, step by step),
``playground`` (a rigid-body run), ``turning`` (the sweep's rotation, pivot and
interpolation; the Conservative advancement panel's iteration).  Each concern owns its state: its ``_init_*``
sets it and only its module writes it (``Editor.SETTINGS`` lists what the panels
may set directly; ``tests/app/test_editor_state.py`` checks both).  The ``Editor``
joins them and owns the view it computes and the status line (``say``).
``gizmo_motion`` reads ImGuizmo's float32 drags exactly; ``compiling`` compiles the
kernels in the background on a cold cache.  No GL and no UI toolkit here: the window
and the panels call these methods, and tests call them directly.  Every edit goes through ``edit``, which
validates the changed scene by building its physics shapes (an invalid value is
refused with a message, the scene stays as it was) and records an undo step.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from sweeplab.editor.compiling import KernelCompilation, shape_pairs, start_if_cold
from sweeplab.editor.edits import Edits
from sweeplab.editor.files import Files
from sweeplab.editor.lessons import Lessons
from sweeplab.editor.nudge import Nudging
from sweeplab.editor.playground import Playground
from sweeplab.editor.queries import Queries
from sweeplab.editor.selection import Selection
from sweeplab.editor.turning import Turning
from sweeplab.physics import kernels
from sweeplab.physics.kernels import KernelsPending
from sweeplab.scene.fixture import Fixture, FixtureReport, run_fixture
from sweeplab.scene.model import Scene
from sweeplab.view.camera import OrbitCamera
from sweeplab.view.meshes import MeshDisplay
from sweeplab.view.model import ViewModel, build_view_model

REFERENCE_DELAY = 0.3
"""Seconds the scene must stay unchanged before the second opinions (float32 lens,
reference answers) are computed: a drag stays fluid, and they appear as soon as
the user pauses."""


class Editor(Selection, Edits, Turning, Nudging, Files, Queries, Lessons, Playground):
    """The editor's state: the scene with its history, selection, camera and file."""

    SETTINGS = ("check_reference", "mesh_display", "nudge_by_ulp", "nudge_direction", "nudge_epsilon", "progress")
    """The attributes the panels and the command line may set directly (checkboxes and
    fields bound to them); every other attribute is written only by the module of its
    owner (``tests/app/test_editor_state.py``)."""

    def __init__(self, scene: Scene, path: Path | None = None, clock: Callable[[], float] = time.monotonic):
        self._init_files(scene, path, clock)
        self._init_selection(scene)
        self._init_nudging()
        self._init_playground()
        self._init_turning()
        # The view: the camera, what to draw, and the view model computed from the scene.
        self.camera = OrbitCamera()
        self.mesh_display = MeshDisplay()
        self.check_reference = True
        self.message = ""
        """The status line: what the last command did or why it was refused (``say``)."""
        self._view: ViewModel | None = None
        self._view_key: tuple | None = None
        self._view_still = False
        self._seen_revision, self._last_change = -1, clock()
        self.compilation: KernelCompilation | None = None
        """Kernels compiling in the background on a cold cache (``start_compiling``)."""
        self.progress: Callable[[int, int], None] | None = None
        """Told (done, total) as a view's targets are swept (``sweep_targets``)."""
        self.frame_all()

    def say(self, message: str) -> None:
        """Show ``message`` on the status line (empty: clear it)."""
        self.message = message

    def show_as(self, display: MeshDisplay, camera: OrbitCamera | None) -> None:
        """Draw with ``display`` seen from ``camera`` (None: framing the whole scene), as
        a lesson step says."""
        self.mesh_display = display
        if camera is None:
            self.frame_all()
        else:
            self.camera = camera

    def forget_view(self) -> None:
        """Rebuild the view model on the next ``view`` (the document changed)."""
        self._view_key = None

    # --- state -------------------------------------------------------------

    @property
    def settling(self) -> bool:
        """The view will change with no input: the scene has not been still long enough
        for its second opinions (``REFERENCE_DELAY``), or kernels compiled in the
        background since the view was built (``compilation_generation``)."""
        return self._view_key is None or not self._view_still \
            or self._view_key[-1] != self.compilation_generation

    @property
    def answers_pending(self) -> bool:
        """Some target's answer waits for kernels compiling in the background."""
        return any(report.status == "pending" for report in self.view().reports)

    @property
    def compilation_generation(self) -> int:
        """Counts the background compile's finished steps (0 with none running): a view
        built before the last one may hold answers that are pending or interpreted."""
        return 0 if self.compilation is None else self.compilation.generation

    @property
    def scene(self) -> Scene:
        """The current scene, for reading; edits go through ``edit``."""
        return self.history.current

    def view(self) -> ViewModel:
        """The view model, recomputed (physics included) only when the scene or the
        selection changed, and once more with the reference answers when the scene
        has been still for ``REFERENCE_DELAY``; the advancement iteration chosen and the
        playground frame's contacts drawn over it."""
        now = self._clock()
        if self.history.revision != self._seen_revision:
            self._seen_revision, self._last_change = self.history.revision, now
        still = now - self._last_change >= REFERENCE_DELAY
        display = self.mesh_display
        key = (self.history.revision, self.selected, still, self.check_reference, display.bvh_depth,
               display.traversal, display.contacts, display.minkowski, display.every_hit, display.engines,
               display.walk_steps, display.slide_sweeps, self.engine_answer, self.lesson, self.compilation_generation)
        self._view_still = still
        view = self._view
        if view is None or key != self._view_key:
            with kernels.deferred():  # (never waits for the compiler: too large for Python is "pending")
                view = build_view_model(self.history.current, self.selected, float32=still,
                                        reference=still and self.check_reference, display=replace(display),
                                        progress=self.progress, intervals=still, engine_answer=self.engine_answer,
                                        slide=self.lesson is not None and self.lesson.picture == "slide")
            self._view, self._view_key = view, key
        return self.grab_line(self.with_playground_frame(self.with_advancement_step(view)))

    def start_compiling(self) -> None:
        """On a cold kernel cache, compile in a background process (``editor.compiling``):
        this scene's kernels first, then all others.  The editor answers meanwhile."""
        self.compilation = start_if_cold(shape_pairs(self.history.current))

    def fixture_report(self) -> FixtureReport | None:
        """The open fixture's expected answers checked against the current scene (None
        while its kernels compile and it is too large to check as Python meanwhile)."""
        if self.fixture is None:
            return None
        try:
            with kernels.deferred():
                return run_fixture(Fixture(self.scene, self.fixture.expected, precision=self.fixture.precision))
        except KernelsPending:
            return None
