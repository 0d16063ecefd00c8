"""The Lesson panel's pictures of lessons that run the playground: tunnelling (the step
in which the ball passed the wall, ``playground.tunnelling``), the contact impulse
(the seed's j at the first corner contact beside the solver's, ``playground.seed_impulse``)
and buoyancy (each body's draft now and at equilibrium, ``playground.floating``).
Each reads the editor's run as the step left it (or as the student has run it since)."""

from __future__ import annotations

import numpy as np
from imgui_bundle import imgui

from sweeplab.editor import Editor
from sweeplab.playground.buoyancy import submerged, volume
from sweeplab.playground.floating import draft, equilibrium_draft
from sweeplab.playground.seed_impulse import first_impulse
from sweeplab.playground.tunnelling import passing_step
from sweeplab.ui.drawn import remember
from sweeplab.view.lessons import object_named

LESSON_DT = 1 / 60
"""The step the pictures quote before a run exists (the lessons' and the panel's default)."""


def _vector(values) -> str:
    return "(" + ", ".join(f"{float(v):.6g}" for v in np.ravel(values)) + ")"


def _tunnel_picture(editor: Editor) -> None:
    """Lesson 11: the step length against the radius; in a run, the step where the ball
    crossed the wall's plane (both ends, their distances, the sweep that catches it)."""
    scene = editor.scene
    ball, wall = scene.moving_object(), object_named(scene, "polygon")
    run = editor.playground
    radius = float(ball.params["radius"])
    if run is None:
        travel = float(np.linalg.norm(scene.direction)) * LESSON_DT
        imgui.text_wrapped(f"a step of {LESSON_DT:.4g} s moves the ball v·dt = {travel:.6g}; its radius is "
                           f"{radius:.6g}: {'it can' if travel > radius else 'it cannot'} jump the band in front "
                           f"of the wall")
        remember("lesson tunnel")
        return
    imgui.text(f"run: CCD {'on' if run.world.ccd else 'OFF'}, frame {run.recorder.position}, "
               f"t = {run.world.time:.4f} s")
    passing = passing_step(run, ball.name, wall.name)
    if passing is None:
        events = [e for e in run.world.events if wall.name in (e.first, e.second)]
        said = (f"it met the wall at t = {events[0].time:.6g} s, impulse {events[0].impulse:.6g} N·s"
                if events else "it has not reached the wall")
        imgui.text_wrapped(f"the ball has not crossed the wall's plane: {said}")
        remember("lesson tunnel")
        return
    imgui.text_wrapped(f"step into frame {passing.frame}: centre {_vector(passing.before)} -> {_vector(passing.after)}")
    imgui.text_wrapped(f"distance from the wall's plane: {passing.distance_before:.6g} -> {passing.distance_after:.6g}"
                       f" (radius {passing.radius:.6g}): "
                       + ("both ends clear of the wall, on opposite sides: the step saw nothing" if passing.jumped
                          else "an end overlaps the wall past its centre: pushed out forward, through it"))
    found = passing.sweep
    imgui.text_wrapped(f"the step's sweep: t = {found.t!r}, point {_vector(found.point)}" if found.hit
                       else "the step's sweep misses the wall: the ball went round it, not through")
    remember("lesson tunnel")


def _impulse_picture(editor: Editor) -> None:
    """Lesson 12: the seed's impulse at the moving body's first contact with the floor,
    every number of it, beside the impulse the world's solver applied."""
    run, scene = editor.playground, editor.scene
    floor = object_named(scene, "plane")
    imgui.text_wrapped("j = -(1 + e)(v_rel·n) / (1/m + n·((I^-1 (r × n)) × r))")
    found = first_impulse(run, scene.moving, floor.name) if run is not None and scene.moving else None
    if found is None:
        imgui.text_wrapped("run the playground to the first contact with the floor")
        remember("lesson impulse")
        return
    rows = (("frame, time", f"{found.frame}, {found.event.time:.6f} s"), ("m", f"{found.mass:.6g} kg"),
            ("r (arm)", _vector(found.arm)), ("n", _vector(found.normal)), ("v_rel", _vector(found.velocity)),
            ("v_rel·n", f"{float(found.velocity @ found.normal):.6g} m/s"), ("e", f"{found.restitution:.6g}"),
            ("I^-1 (world)", "; ".join(_vector(row) for row in found.inverse_inertia)),
            ("k", f"{found.denominator:.6g} 1/kg"), ("seed's j", f"{found.j!r} N·s"),
            ("solver's", f"{found.event.impulse!r} N·s"), ("difference", f"{found.difference:.3g} (relative)"))
    if imgui.begin_table("impulse", 2, imgui.TableFlags_.borders | imgui.TableFlags_.sizing_stretch_prop):
        imgui.table_setup_column("quantity", imgui.TableColumnFlags_.width_fixed)
        imgui.table_setup_column("value", imgui.TableColumnFlags_.width_stretch)  # (its text wraps there)
        for label, value in rows:
            imgui.table_next_row()
            imgui.table_set_column_index(0)
            imgui.text(label)
            imgui.table_set_column_index(1)
            imgui.text_wrapped(value)
        imgui.end_table()
    remember("lesson impulse")


def _buoyancy_picture(editor: Editor) -> None:
    """Lesson 13: for each body of the run in its water, the mass, the water its whole
    volume would displace, the draft now and the draft at which it floats still."""
    run = editor.playground
    water = run.world.water if run is not None else None
    if run is None or water is None:
        imgui.text_wrapped("start the lesson's step: the picture reads the playground's water")
        remember("lesson buoyancy")
        return
    gravity = run.world.gravity
    up = -gravity / float(np.linalg.norm(gravity))
    imgui.text_wrapped(f"water: level {water.level:g} m, density {water.density:g} kg/m³; "
                       f"floats still where rho_w·V_sub = m")
    bodies = run.world.bodies
    columns: list[list[str]] = []  # a column of numbers a body, the quantities down the rows
    for body in bodies:
        still = equilibrium_draft(body, water, up)
        under = submerged(body, water.level * up, up).volume
        columns.append([f"{body.mass:.4g}", f"{water.density * volume(body.shape):.4g}",
                        f"{water.density * under:.4g}", f"{draft(body, water, up):.4g}",
                        "sinks" if still is None else f"{still:.4g}"])
    flags = imgui.TableFlags_.borders | imgui.TableFlags_.sizing_stretch_prop
    if imgui.begin_table("floating", 1 + len(bodies), flags):
        imgui.table_setup_column("", imgui.TableColumnFlags_.width_fixed)
        for body in bodies:
            imgui.table_setup_column(body.name)
        imgui.table_headers_row()
        for row, label in enumerate(("m kg", "rho_w·V kg", "rho_w·V_sub kg", "draft now m", "floats still at m")):
            imgui.table_next_row()
            imgui.table_set_column_index(0)
            imgui.text(label)
            for column, values in enumerate(columns, 1):
                imgui.table_set_column_index(column)
                imgui.text(values[row])
        imgui.end_table()
    remember("lesson buoyancy")


PLAY_PICTURES = {"tunnel": _tunnel_picture, "impulse": _impulse_picture, "buoyancy": _buoyancy_picture}
