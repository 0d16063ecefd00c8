"""The Playground panel: which shapes move, restitution, friction, CCD, a stress scene
to open (``playground.scenes``, opened running), the step size,
Play / Pause / Step / Reset, the contact events, and the latest step as a fixture."""

from __future__ import annotations

from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.ui.drawn import remember
from sweeplab.ui.fit import WHOLE_COLUMNS, fill_row, label_room
from sweeplab.playground.run import DYNAMIC_KINDS, PlaygroundRun
from sweeplab.playground.scenes import SCENES

STEP_SIZES = (1 / 240, 1 / 120, 1 / 60, 1 / 30)
STRESS_SCENES = list(SCENES)
EVENTS_SHOWN = 40


class PlaygroundState:
    def __init__(self):
        self.dynamic: set[str] = set()
        self.restitution, self.friction, self.ccd = 0.5, 0.5, True
        self.step_size = 2
        self.stress = 0
        """Which of ``STRESS_SCENES`` the stress scene choice shows."""
        self.playing = False
        self.fixture_directory = "tests/fixtures"


def playground_panel(editor: Editor, state: PlaygroundState) -> None:
    if not imgui.begin("Playground")[0]:
        imgui.end()
        return
    scene, run = editor.scene, editor.playground
    running = run is not None
    if run is None:
        state.playing = False  # the run was reset, or dropped by opening another document
        imgui.text_disabled("moving bodies (the moving shape starts at its direction, per second):")
        for scene_object in scene.objects:
            if scene_object.kind in DYNAMIC_KINDS:
                ticked = scene_object.name in state.dynamic or scene_object.name == scene.moving
                changed, on = imgui.checkbox(f"{scene_object.name}##dynamic", ticked)
                if changed:
                    (state.dynamic.add if on else state.dynamic.discard)(scene_object.name)
        state.restitution = imgui.slider_float("restitution", state.restitution, 0.0, 1.0)[1]
        state.friction = imgui.slider_float("friction", state.friction, 0.0, 1.5)[1]
        state.ccd = imgui.checkbox("CCD (sweep every step)", state.ccd)[1]
        state.stress = imgui.combo("stress scene", state.stress, STRESS_SCENES)[1]
        imgui.same_line()
        if imgui.button("Open##stress"):  # replaces the scene with the stress scene, its run started
            editor.open_stress_scene(STRESS_SCENES[state.stress])
    else:
        world = run.world
        imgui.text(f"t = {world.time:.4f} s, CCD {'on' if world.ccd else 'OFF'}, {world.contact_count} contacts")
    labels = [f"1/{round(1 / size)} s" for size in STEP_SIZES]
    state.step_size = imgui.combo("step", state.step_size, labels)[1]
    if imgui.button("Pause" if state.playing else "Play"):
        if not running:
            _start(editor, state)
        state.playing = not state.playing
    imgui.same_line()
    if imgui.button("Step"):
        if editor.playground is None:
            _start(editor, state)
        state.playing = False
        editor.playground_step(STEP_SIZES[state.step_size])
    imgui.same_line()
    if imgui.button("Reset"):
        state.playing = False
        editor.reset_playground()
    if editor.playground is not None:
        _events(editor.playground)
        _save_step(editor, editor.playground, state)
    imgui.end()


def _start(editor: Editor, state: PlaygroundState) -> None:
    editor.start_playground(state.dynamic, state.restitution, state.friction, state.ccd)


def _events(run: PlaygroundRun) -> None:
    events = run.world.events[-EVENTS_SHOWN:]
    if imgui.begin_table("events", 5, WHOLE_COLUMNS, (0, 200)):
        for heading in ("pair", "time", "point", "normal", "impulse"):
            imgui.table_setup_column(heading)
        imgui.table_headers_row()
        for event in reversed(events):
            imgui.table_next_row()
            cells = (f"{event.first} / {event.second}", f"{event.time:.6f}",
                     ", ".join(f"{v:.4g}" for v in event.point), ", ".join(f"{v:.4g}" for v in event.normal),
                     f"{event.impulse:.4g}")
            for column, text in enumerate(cells):
                imgui.table_set_column_index(column)
                imgui.text(text)
        imgui.end_table()


def _save_step(editor: Editor, run: PlaygroundRun, state: PlaygroundState) -> None:
    """The latest step of the moving body as a fixture: with CCD off, the frame where
    it tunnelled, whose sweep finds the contact the step missed."""
    fill_row(label_room("folder"))
    state.fixture_directory = imgui.input_text("folder", state.fixture_directory)[1]
    body = editor.scene.moving
    save = imgui.button("Save the last step as a fixture")
    remember("playground save")
    if save and body is not None:
        editor.save_step_fixture(body, state.fixture_directory, f"playground-{body}-{run.world.time:.4f}"
                                 .replace(".", "_"))
