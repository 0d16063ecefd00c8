"""The playground in the editor: a run of the scene's bodies (``playground.run``),
its frames shown in place of the scene, which Reset restores."""

from __future__ import annotations

from pathlib import Path

from sweeplab.editor.opened import SceneFile
from sweeplab.playground.materials import Material
from sweeplab.playground.run import PlaygroundRun
from sweeplab.playground.scenes import SCENES, scene_of
from sweeplab.scene.fixture import FixtureError, make_fixture, save_fixture
from sweeplab.editor.parts import EditorParts


class Playground(EditorParts):
    """The ``Editor``'s playground run (``playground``, owned here), None when not running."""

    def _init_playground(self) -> None:
        self.playground: PlaygroundRun | None = None

    def start_playground(self, dynamic: set[str], restitution: float, friction: float, ccd: bool,
                         materials: dict[str, Material] | None = None) -> None:
        """A run of ``scene`` (``materials``: objects' own, by name); a body the scene
        cannot make (a flat polyhedron: no volume) or a bad material is named on the
        status line and nothing starts."""
        if self.playground is not None:
            self.reset_playground()
        try:
            self.playground = PlaygroundRun(self.scene, dynamic, restitution, friction, ccd, materials)
        except ValueError as error:
            self.say(f"the playground did not start: {error}")

    def open_stress_scene(self, name: str) -> None:
        """Open the stress scene ``name`` (``playground.scenes.SCENES``) as an untitled
        scene with its run started (its joints and kinematic bodies live in the run's
        world, not in the scene file); a scene that cannot be built says why."""
        try:
            world = SCENES[name]()
        except (KeyError, ImportError, TypeError, ValueError) as error:
            self.say(f"stress scene {name!r}: {error!r}")
            return
        scene = scene_of(world)
        self.open_document(scene, SceneFile(None))
        self.playground = PlaygroundRun.of_world(scene, world)

    def playground_step(self, dt: float) -> None:
        if self.playground is not None:
            self.history.animate(self.playground.step(dt))

    def reset_playground(self) -> None:
        """Put the scene back as it was when the run began."""
        if self.playground is not None:
            self.history.animate(self.playground.start)
            self.playground = None

    def drop_playground(self) -> None:
        """Stop a run without touching the scene (another document replaces it)."""
        self.playground = None

    def save_step_fixture(self, body: str, directory, name: str) -> Path | None:
        """The latest step of ``body`` as a fixture (its chord swept against the scene
        where the step began): a tunnelling step with CCD off becomes a test."""
        scene = self.playground.step_scene(body) if self.playground is not None else None
        if scene is None:
            self.say("no step to save yet")
            return None
        try:
            path = save_fixture(make_fixture(scene, note=f"playground step of {body}"), directory, name,
                                overwrite=True)
        except (FixtureError, OSError, ValueError) as error:
            self.say(str(error))
            return None
        self.say(f"saved the step as fixture {path}")
        return path
