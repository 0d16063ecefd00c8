"""The playground in the editor: a run of the scene's bodies (``playground.run``),
its frames shown in place of the scene, which Reset restores.  Every step is recorded:
``playground_seek`` shows any recorded frame (the world continues from there), drawn
with its contacts (``view.frame``), and any frame's step saves as a fixture."""

from __future__ import annotations

from pathlib import Path

from sweeplab.playground.materials import Material
from sweeplab.playground.run import PlaygroundRun
from sweeplab.scene.fixture import FixtureError, make_fixture, save_fixture
from sweeplab.editor.parts import EditorParts
from sweeplab.view.frame import with_frame_contacts, with_joint_errors
from sweeplab.view.model import ViewModel


class Playground(EditorParts):
    """The ``Editor``'s playground run (``playground``, owned here), None when not running."""

    def _init_playground(self) -> None:
        self.playground: PlaygroundRun | None = None
        self._framed_view: tuple[ViewModel, PlaygroundRun, int, ViewModel] | None = None
        """(view, run, frame, the view with the frame's contacts): kept while none changes."""

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

    def playground_step(self, dt: float) -> None:
        """One step from the frame shown (the frames after it, if any, dropped)."""
        if self.playground is not None:
            self.history.animate(self.playground.step(dt))

    def playground_seek(self, index: int) -> None:
        """Show recorded frame ``index``: the world goes back (or forward) to it."""
        if self.playground is None:
            return
        try:
            scene = self.playground.seek(index)
        except ValueError as error:
            self.say(str(error))
            return
        self.history.animate(scene)

    def reset_playground(self) -> None:
        """Put the scene back as it was when the run began."""
        if self.playground is not None:
            self.history.animate(self.playground.start)
            self.playground = None

    def drop_playground(self) -> None:
        """Stop a run without touching the scene (another document replaces it)."""
        self.playground = None

    def with_playground_frame(self, view: ViewModel) -> ViewModel:
        """``view`` with the shown frame's contacts (points, normals scaled by impulse:
        the largest ``view.frame.ARROW`` times the largest body's reach) and joints
        (coloured by error)."""
        run = self.playground
        if run is None:
            return view
        position = run.recorder.position
        kept = self._framed_view
        if kept is None or kept[0] is not view or kept[1] is not run or kept[2] != position:
            frame = run.recorder.frame(position)
            events = frame.events
            reach = max((body.reach() for body in run.world.bodies), default=1.0)
            framed = with_frame_contacts(view, [e.point for e in events], [e.normal for e in events],
                                         [e.impulse for e in events], reach)
            framed = with_joint_errors(framed, [j.ends for j in frame.joints], [j.error for j in frame.joints])
            kept = self._framed_view = view, run, position, framed
        return kept[3]

    def save_step_fixture(self, body: str, directory, name: str, frame: int | None = None) -> Path | None:
        """The step into recorded ``frame`` (default: the one shown) of ``body`` as a
        fixture (its chord swept against the scene where the step began): a tunnelling
        step with CCD off becomes a test."""
        try:
            scene = self.playground.step_scene(body, frame) if self.playground is not None else None
        except ValueError as error:
            self.say(str(error))
            return None
        if scene is None:
            self.say(f"no step of {body} into {'the frame shown' if frame is None else f'frame {frame}'} is recorded")
            return None
        try:
            path = save_fixture(make_fixture(scene, note=f"playground step of {body}"), directory, name,
                                overwrite=True)
        except (FixtureError, OSError, ValueError) as error:
            self.say(str(error))
            return None
        self.say(f"saved the step as fixture {path}")
        return path
