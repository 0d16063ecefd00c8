"""Interaction: the ``Editor``, split by what changes together.

``selection`` (what is selected, picking, the camera's framing, gizmo modes),
``edits`` (commands on the scene and undo), ``nudge`` (by ulps or an epsilon),
``files`` (open, save, autosave, fixtures), ``queries`` (a query log from another
engine, one query shown at a time), ``lessons`` (a lesson's scene, step by step), ``playground`` (a rigid-body run);
the ``Editor`` joins them and holds
their state and the view it computes.  ``gizmo_motion`` reads ImGuizmo's float32
drags exactly; ``compiling`` compiles the kernels in the background on a cold
cache.  No GL and no UI toolkit here: the window and the panels call these
methods, and tests call them directly.  Every edit goes through ``edit``, which
validates the changed scene by building its physics shapes (an invalid value is
refused with a message, the scene stays as it was) and records an undo step.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from sweeplab.editor.compiling import KernelCompilation, shape_pairs, start_if_cold
from sweeplab.physics import kernels
from sweeplab.physics.kernels import KernelsPending
from sweeplab.editor.edits import Edits
from sweeplab.editor.files import Files
from sweeplab.editor.lessons import Lessons
from sweeplab.editor.nudge import Nudging
from sweeplab.editor.playground import Playground
from sweeplab.editor.queries import Queries
from sweeplab.editor.selection import Selection
from sweeplab.scene import autosave
from sweeplab.scene.fixture import Fixture, FixtureReport, run_fixture
from sweeplab.scene.history import SceneHistory
from sweeplab.scene.model import Scene
from sweeplab.view.camera import OrbitCamera
from sweeplab.view.meshes import MeshDisplay
from sweeplab.view.model import ViewModel, build_view_model

REFERENCE_DELAY = 0.3
"""Seconds the scene must stay unchanged before the second opinions (float32 lens,
reference answers) are computed: a drag stays fluid, and they appear as soon as
the user pauses."""


class Editor(Selection, Edits, Nudging, Files, Queries, Lessons, Playground):
    """The editor's state: the scene with its history, selection, camera and file."""

    def __init__(self, scene: Scene, path: Path | None = None, clock: Callable[[], float] = time.monotonic):
        self.history = SceneHistory(scene)
        self.path = path
        self.selection: list[str] = [scene.moving] if scene.moving is not None else []
        """Selected shapes, in the order picked; the last is the one the inspector and
        the gizmo work on (``selected``)."""
        self.camera = OrbitCamera()
        self.gizmo_operation = "translate"
        self.end_pose = False
        self.fixture: Fixture | None = None  # when a fixture is open: its expected answers
        self.queries: list | None = None  # when a query log is open: its verdicts (``editor.queries``)
        self.query = None
        self._query_state = -1
        self.lesson = None  # when a lesson is open (``editor.lessons``)
        self.playground = None  # a running playground (``editor.playground``)
        self.lesson_step = 0
        self.check_reference = True
        self.nudge_axis, self.nudge_by_ulp, self.nudge_direction, self.nudge_epsilon = 0, True, False, 1e-12
        self.fixture_dialog_requested = False
        self.mesh_display = MeshDisplay()
        self.message = ""
        self.saved_state = self.history.state_id
        self.session = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
        """Names this editor's untitled autosave (``scene.autosave``)."""
        self.restorable: Path | None = autosave.newer_than_file(path) if path is not None else None
        """An autosave newer than the open file, offered back until restored or dismissed."""
        self._clock = clock
        self._last_autosave = clock()
        self._autosaved_state = self.saved_state
        self._view: ViewModel | None = None
        self._view_key = None
        self._view_still = False
        self.compilation: KernelCompilation | None = None
        """Kernels compiling in the background on a cold cache (``start_compiling``)."""
        self.progress: Callable[[int, int], None] | None = None
        """Told (done, total) as a view's targets are swept (``sweep_targets``)."""
        self._seen_revision, self._last_change = -1, clock()
        self.frame_all()
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

    @property
    def dirty(self) -> bool:
        """Unsaved changes: the scene differs from the one last saved or opened (undo
        back to it is clean again)."""
        return self.history.state_id != self.saved_state

    def view(self) -> ViewModel:
        """The view model, recomputed (physics included) only when the scene or the
        selection changed, and once more with the reference answers when the scene
        has been still for ``REFERENCE_DELAY``."""
        now = self._clock()
        if self.history.revision != self._seen_revision:
            self._seen_revision, self._last_change = self.history.revision, now
        still = now - self._last_change >= REFERENCE_DELAY
        display = self.mesh_display
        key = (self.history.revision, self.selected, still, self.check_reference, display.bvh_depth,
               display.traversal, display.contacts, display.minkowski, display.every_hit, display.engines,
               display.walk_steps, display.slide_sweeps, self.engine_answer, self.lesson, self.compilation_generation)
        self._view_still = still
        if key != self._view_key:
            with kernels.deferred():  # (never waits for the compiler: too large for Python is "pending")
                self._view = build_view_model(self.history.current, self.selected, float32=still,
                                              reference=still and self.check_reference, display=replace(display),
                                              progress=self.progress, intervals=still,
                                              engine_answer=self.engine_answer,
                                              slide=self.lesson is not None and self.lesson.picture == "slide")
            self._view_key = key
        return self._view

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
