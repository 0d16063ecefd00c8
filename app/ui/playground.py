"""The Playground panel: which shapes move (dynamic or kinematic), restitution and
friction (the world's, and any shape's own material), CCD, water (on or off, its level,
density and drags; changed while running, the running world's), a stress scene to open
(``playground.scenes``, opened running), the step size, Play / Pause / Step / Reset,
the timeline of recorded frames (a slider, step back and forward, the frame's numbers,
a plot of each step's CPU time and solver iterations), what the mouse does to a running
world (the gizmo moves bodies live, a press-and-drag pulls one by a spring, the kick),
a block of fluid particles added, the contact events, a pool's FFT waves on or off,
and the shown frame's step as a fixture."""

from __future__ import annotations

import numpy as np
from imgui_bundle import imgui, implot

from sweeplab.editor import Editor
from sweeplab.ui.drawn import remember
from sweeplab.ui.fit import WHOLE_COLUMNS, fill_row, label_room
from sweeplab.playground.buoyancy import Water
from sweeplab.playground.materials import Material
from sweeplab.playground.run import BODY_DENSITY, DYNAMIC_KINDS, PlaygroundRun
from sweeplab.playground.scenes import SCENES

STEP_SIZES = (1 / 240, 1 / 120, 1 / 60, 1 / 30)

STRESS_SCENES = list(SCENES)
EVENTS_SHOWN = 40
PLOTTED_FRAMES = 1000
"""The timeline's plot shows the latest this many recorded frames."""
LIVE_EDITS = ("while it runs: the gizmo moves and turns bodies in the run (a kinematic body pushes what it "
              "meets); press and drag a dynamic body to pull it by a spring; any other edit resets the run")
"""What applies to a running world, and what resets it (``editor.playground``)."""


class PlaygroundState:
    def __init__(self):
        self.dynamic: set[str] = set()
        self.kinematic: set[str] = set()
        self.materials: dict[str, Material] = {}
        """Shapes' own materials, by name (the others take the world's sliders)."""
        self.kick_speed = 2.0
        self.particle_count, self.particle_spacing = 1000, 0.05
        """The particle block the panel adds to a run (``Editor.add_particles``)."""
        self.restitution, self.friction, self.ccd = 0.5, 0.5, True
        self.step_size = 2
        self.stress = 0
        """Which of ``STRESS_SCENES`` the stress scene choice shows."""
        self.playing = False
        self.fixture_directory = "tests/fixtures"
        self.water = False
        self.water_level, self.water_density = 0.5, BODY_DENSITY * 2
        self.linear_drag, self.angular_drag = 0.5, 0.5

    def chosen_water(self) -> Water | None:
        """The water the panel's fields say (None: off)."""
        if not self.water:
            return None
        return Water(self.water_level, self.water_density, self.linear_drag, self.angular_drag)

    def show_water(self, water: Water | None) -> None:
        """The fields set to ``water`` (a running world's: after a seek it may differ)."""
        self.water = water is not None
        if water is not None:
            self.water_level, self.water_density = water.level, water.density
            self.linear_drag, self.angular_drag = water.linear_drag, water.angular_drag


def playground_panel(editor: Editor, state: PlaygroundState) -> None:
    if not imgui.begin("Playground")[0]:
        imgui.end()
        return
    scene, run = editor.scene, editor.playground
    running = run is not None
    if run is None:
        state.playing = False  # the run was reset, or dropped by opening another document
        imgui.text_wrapped("bodies (the moving shape starts at its direction, per second; kinematic: moved by its "
                           "velocity, pushes, is never pushed):")
        for scene_object in scene.objects:
            if scene_object.kind in DYNAMIC_KINDS:
                _body_ticks(scene_object.name, scene_object.name == scene.moving, state)
        state.restitution = imgui.slider_float("restitution", state.restitution, 0.0, 1.0)[1]
        state.friction = imgui.slider_float("friction", state.friction, 0.0, 1.5)[1]
        if imgui.tree_node("own materials (else the two above; a pair combines as max e, sqrt(mu mu))"):
            for scene_object in scene.objects:
                _material_fields(scene_object.name, state)
            imgui.tree_pop()
        state.ccd = imgui.checkbox("CCD (sweep every step)", state.ccd)[1]
        _water_fields(state)
        state.stress = imgui.combo("stress scene", state.stress, STRESS_SCENES)[1]
        imgui.same_line()
        if imgui.button("Open##stress"):  # replaces the scene with the stress scene, its run started
            editor.open_stress_scene(STRESS_SCENES[state.stress])
    else:
        world = run.world
        imgui.text(f"t = {world.time:.4f} s, CCD {'on' if world.ccd else 'OFF'}, {world.contact_count} contacts")
        _timeline(editor, run, state)
        state.show_water(world.water)
        if _water_fields(state):
            editor.set_water(state.chosen_water())
        imgui.text_wrapped(LIVE_EDITS)
        _kick(editor, state)
        _particles(editor, state)
        if world.pool is not None:
            changed, on = imgui.checkbox("FFT waves on the water (drawn only)", world.pool.waves is not None)
            remember("playground waves")
            if changed:
                editor.set_water_waves(on)
    labels = [f"1/{round(1 / size)} s" for size in STEP_SIZES]
    state.step_size = imgui.combo("step", state.step_size, labels)[1]
    if imgui.button("Pause" if state.playing else "Play"):
        if not running:
            _start(editor, state)
        state.playing = not state.playing
    imgui.same_line()
    stepped = imgui.button("Step")
    remember("playground step")
    if stepped:
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


def _timeline(editor: Editor, run: PlaygroundRun, state: PlaygroundState) -> None:
    """The recorded frames: a slider and step buttons that show any of them (pausing
    the run), the shown frame's step in numbers, and the steps' cost over the run."""
    recorder = run.recorder
    first, last, position = recorder.first, recorder.last, recorder.position
    shown = position
    if imgui.button("<##frame back") and position > first:
        shown = position - 1
    remember("playground frame back")
    imgui.same_line()
    if imgui.button(">##frame forward") and position < last:
        shown = position + 1
    remember("playground frame forward")
    imgui.same_line()
    fill_row(label_room("frame"))
    changed, dragged = imgui.slider_int("frame", position, first, last)
    remember("playground timeline")
    if changed:
        shown = dragged
    if shown != position:
        state.playing = False
        editor.playground_seek(shown)
    frame = recorder.frame(recorder.position)
    stats = frame.stats
    imgui.text_wrapped(f"frame {frame.index} of {first}..{last}: t = {frame.time:.4f} s, {stats.substeps} substeps, "
               f"{stats.sweeps} sweeps, {stats.solver_iterations} iterations, {stats.contacts} contacts, "
               f"{stats.cpu_seconds * 1e3:.2f} ms CPU")
    if recorder.dropped:
        imgui.text_disabled(f"{recorder.dropped} oldest frames dropped to keep within "
                            f"{recorder.budget_bytes / 2 ** 20:.0f} MiB")
    frames = recorder.frames[-PLOTTED_FRAMES:]
    if len(frames) > 1 and implot.begin_plot("##steps", (-1, 160)):
        implot.setup_axes("frame", "CPU ms")
        implot.setup_axis(implot.ImAxis_.y2, "iterations", implot.AxisFlags_.aux_default)
        index = np.array([f.index for f in frames], float)
        implot.plot_line("CPU ms", index, np.array([f.stats.cpu_seconds * 1e3 for f in frames]))
        implot.set_axes(implot.ImAxis_.x1, implot.ImAxis_.y2)
        implot.plot_line("iterations", index, np.array([f.stats.solver_iterations for f in frames], float))
        implot.tag_x(float(recorder.position), (1.0, 0.55, 0.1, 1.0), "shown")
        implot.end_plot()


def _water_fields(state: PlaygroundState) -> bool:
    """The water's tick and, ticked, its level (m, along up), density (the bodies' is
    ``BODY_DENSITY``) and drags (1/s), each as wide as the column leaves; whether any
    changed."""
    changed, state.water = imgui.checkbox("water", state.water)
    remember("playground water")
    if not state.water:
        return changed
    imgui.same_line()
    imgui.text_disabled(f"(bodies: density {BODY_DENSITY:g})")
    edits = []
    for label, value, low, high in (("level m##water", state.water_level, None, None),
                                    ("density##water", state.water_density, 0.05, 20.0),
                                    ("drag 1/s##water", state.linear_drag, 0.0, 20.0),
                                    ("spin drag 1/s##water", state.angular_drag, 0.0, 20.0)):
        fill_row(label_room(label))
        edits.append(imgui.drag_float(label, value, 0.01) if low is None or high is None else
                     imgui.slider_float(label, value, low, high))
    state.water_level, state.water_density, state.linear_drag, state.angular_drag = (value for _, value in edits)
    return changed or any(edited for edited, _ in edits)


def _body_ticks(name: str, moving: bool, state: PlaygroundState) -> None:
    """A shape's "dynamic" and "kinematic" ticks (at most one of them on)."""
    kinematic = name in state.kinematic
    changed, on = imgui.checkbox(f"{name}##dynamic", (name in state.dynamic or moving) and not kinematic)
    if changed:
        (state.dynamic.add if on else state.dynamic.discard)(name)
        state.kinematic.discard(name)
    imgui.same_line()
    changed, on = imgui.checkbox(f"kinematic##{name}", kinematic)
    remember(f"playground kinematic {name}")
    if changed:
        (state.kinematic.add if on else state.kinematic.discard)(name)
        state.dynamic.discard(name)


def _material_fields(name: str, state: PlaygroundState) -> None:
    """A shape's "own material" tick and, ticked, its restitution and friction (sliders
    within ``Material``'s ranges)."""
    changed, on = imgui.checkbox(f"{name}##material", name in state.materials)
    remember(f"playground material {name}")
    if changed:
        if on:
            state.materials[name] = Material(state.restitution, state.friction)
        else:
            state.materials.pop(name, None)
    own = state.materials.get(name)
    if own is not None:
        restitution = imgui.slider_float(f"restitution##{name}", own.restitution, 0.0, 1.0)[1]
        friction = imgui.slider_float(f"friction##{name}", own.friction, 0.0, 1.5)[1]
        state.materials[name] = Material(restitution, friction)


def _kick(editor: Editor, state: PlaygroundState) -> None:
    """The selected body kicked along the view, at the point last pressed on it."""
    fill_row(label_room("kick m/s"))
    state.kick_speed = imgui.slider_float("kick m/s", state.kick_speed, 0.1, 20.0)[1]
    name = editor.selected
    body = editor.playground.body(name) if editor.playground is not None and name is not None else None
    imgui.begin_disabled(body is None or body.kinematic)
    kicked = imgui.button(f"Kick {name if body is not None else 'the selected body'} along the view")
    remember("playground kick")
    imgui.end_disabled()
    if kicked and name is not None:
        editor.kick(name, state.kick_speed)


def _particles(editor: Editor, state: PlaygroundState) -> None:
    """A block of particles (count, spacing) added to the run's fluid, above the view's centre."""
    fill_row(label_room("particles"))
    state.particle_count = imgui.input_int("particles", state.particle_count, 100, 1000)[1]
    fill_row(label_room("spacing m"))
    state.particle_spacing = imgui.input_float("spacing m", state.particle_spacing, 0.01, 0.05, "%.3f")[1]
    added = imgui.button("Add particles")
    remember("playground add particles")
    if added:
        editor.add_particles(state.particle_count, state.particle_spacing)


def _start(editor: Editor, state: PlaygroundState) -> None:
    """A run with the panel's choices; the own materials of shapes no longer in the scene left out."""
    names = set(editor.scene.names())
    materials = {name: material for name, material in state.materials.items() if name in names}
    editor.start_playground(state.dynamic, state.restitution, state.friction, state.ccd, materials=materials,
                            kinematic=state.kinematic, water=state.chosen_water())


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
    """The step into the shown frame of the moving body as a fixture: with CCD off,
    the frame where it tunnelled, whose sweep finds the contact the step missed."""
    fill_row(label_room("folder"))
    state.fixture_directory = imgui.input_text("folder", state.fixture_directory)[1]
    body = editor.scene.moving
    save = imgui.button("Save this frame as a fixture")
    remember("playground save")
    if save and body is not None:
        frame = run.recorder.position
        editor.save_step_fixture(body, state.fixture_directory, f"playground-{body}-frame-{frame}", frame)
