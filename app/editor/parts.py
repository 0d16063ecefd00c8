"""What the editor's concerns use from each other, declared once for type checkers.

The ``Editor`` is joined from one class per concern (``selection``, ``edits``,
``nudge``, ``files``, ``queries``, ``lessons``, ``playground``, ``turning``); a concern's methods
read other concerns' state and call their commands through ``self``.  Each such use is
declared here, with the concern that owns it, so a reader sees every dependency between
concerns in one place and mypy checks each concern on its own.  At run time this class
is empty: the names are defined (and their state written) only by their owners
(``tests/app/test_editor_state.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING


class EditorParts:
    """The surface the concerns share (see the module docstring)."""

    if TYPE_CHECKING:
        import numpy as np

        from sweeplab.editor.opened import Opened
        from sweeplab.playground.run import PlaygroundRun
        from sweeplab.scene.history import SceneHistory
        from sweeplab.scene.model import Scene
        from sweeplab.scene.shape_kinds import RigidMotion
        from sweeplab.view.camera import OrbitCamera
        from sweeplab.view.meshes import MeshDisplay
        from sweeplab.view.model import ViewModel

        # the Editor (editor/__init__): the view and the status line
        camera: OrbitCamera
        mesh_display: MeshDisplay

        def say(self, message: str) -> None: ...
        def show_as(self, display: MeshDisplay, camera: OrbitCamera | None) -> None: ...
        def forget_view(self) -> None: ...
        def view(self) -> ViewModel: ...

        # Files: the document
        history: SceneHistory
        opened: Opened
        saved_state: int

        @property
        def scene(self) -> Scene: ...
        @property
        def path(self) -> Path | None: ...
        def open_document(self, scene: Scene, opened: Opened) -> None: ...

        # Selection
        selection: list[str]

        @property
        def selected(self) -> str | None: ...
        @selected.setter
        def selected(self, name: str | None) -> None: ...
        def select(self, name: str | None) -> None: ...
        def pick_hit(self, origin, segment, radius: float) -> tuple[str, np.ndarray] | None: ...
        def keep_selection(self) -> None: ...
        def frame_all(self) -> None: ...

        # Edits
        def edit(self, change: Callable[[Scene], None]) -> bool: ...
        def set_direction(self, direction) -> None: ...

        # Queries
        def open_query_log(self, path: Path) -> bool: ...

        # Turning
        def show_advancement_step(self, index: int | None) -> None: ...

        # Playground
        playground: PlaygroundRun | None

        def reset_playground(self) -> None: ...
        def start_playground(self, dynamic: set[str], restitution: float, friction: float, ccd: bool) -> None: ...
        def playground_step(self, dt: float) -> None: ...
        def move_body_live(self, name: str, motion: RigidMotion) -> bool: ...
        def drop_playground(self) -> None: ...
