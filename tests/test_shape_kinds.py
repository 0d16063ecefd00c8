"""The checklist for adding a shape kind (docs/architecture.md, "Adding a shape kind"),
as a test: every kind of ``scene.shape_kinds.KINDS`` has

1. a tessellation: its default parameters draw something (``drawn_mesh``);
2. an engine mapping in each adapter (``fcl_geometry``, ``rapier_shape``), or its
   physics type in that adapter's ``UNSUPPORTED`` with the reason;
3. a playground body (``playground.run.body_of`` makes a body of its physics type),
   or an entry in ``playground.run.STATIC_KINDS`` with the reason;
4. a warmup query (``physics.warmup.example`` makes one, and ``warmup.tasks`` has a
   step for its pairs);
5. a sweep test against every kind, itself included, in either order
   (``warmup.served_pairs``, what ``sweep`` dispatches), unless both are
   ``physics.sweep.dispatch.SURFACES``.

``lacks`` names what a kind lacks; the test fails with every such line.
"""

from __future__ import annotations

import importlib
from dataclasses import replace

import numpy as np
import pytest

from sweeplab.physics.shapes import Shape
from sweeplab.physics.sweep.dispatch import SURFACES
from sweeplab.physics.warmup import example, served_pairs, step_name, tasks
from sweeplab.playground.run import STATIC_KINDS, body_of
from sweeplab.scene.model import SceneObject
from sweeplab.scene.shape_kinds import KINDS, ShapeKind
from sweeplab.scene.tessellate import Mesh

ADAPTERS = {"fcl": ("sweeplab.engines.fcl_engine", "fcl_geometry"),
            "rapier": ("sweeplab.engines.rapier_engine", "rapier_shape")}
"""Engine: (adapter module, its function from a physics shape to the engine's)."""


def installed_adapters() -> dict:
    """The adapter modules whose engine is installed (CI installs both)."""
    found = {}
    for name, (module, _) in ADAPTERS.items():
        try:
            found[name] = importlib.import_module(module)
        except ImportError:
            continue
    return found


def lacks(kinds: dict[str, ShapeKind], adapters: dict) -> list[str]:
    """One line per kind and thing it lacks (empty: every kind is complete)."""
    missing = []
    shapes = {name: kind.build(kind.defaults) for name, kind in kinds.items()}
    step_names = {task.name for task in tasks(parallel=False)}
    for name, kind in kinds.items():
        shape_type = type(shapes[name])
        drawing = kind.mesh(kind.defaults)
        if not isinstance(drawing, Mesh) or drawing.bounds() is None:
            missing.append(f"{name}: a tessellation (its defaults draw nothing)")
        for engine, module in adapters.items():
            if shape_type in module.UNSUPPORTED:
                continue
            try:
                getattr(module, ADAPTERS[engine][1])(shapes[name])
            except TypeError as error:
                missing.append(f"{name}: a {engine} mapping, or {shape_type.__name__} in its UNSUPPORTED ({error})")
        if name not in STATIC_KINDS:
            try:
                body = body_of(SceneObject(name, name, dict(kind.defaults)))
                if not isinstance(body.shape, shape_type):
                    missing.append(f"{name}: a playground body of its own type (body_of made a "
                                   f"{type(body.shape).__name__})")
            except (ValueError, KeyError) as error:
                missing.append(f"{name}: a playground body, or an entry in STATIC_KINDS ({error!r})")
        try:
            example(shape_type, np.float64)
        except TypeError as error:
            missing.append(f"{name}: a warmup query ({error})")
        for other in kinds:
            other_type = type(shapes[other])
            if shape_type in SURFACES and other_type in SURFACES:
                continue
            served = served_pairs([(shape_type, other_type)])
            if not served:
                missing.append(f"{name}: a sweep test against a {other} (either order), or both in SURFACES")
            elif step_name(served[0], np.float64) not in step_names:
                missing.append(f"{name}: a warmup step for {step_name(served[0], np.float64)}")
    return missing


def test_every_shape_kind_is_complete():
    missing = lacks(KINDS, installed_adapters())
    assert not missing, "shape kinds incomplete (docs/architecture.md, Adding a shape kind):\n" + "\n".join(missing)


def test_both_engines_are_checked_where_installed():
    """The adapters' mapping is checked wherever the engines are (CI installs them)."""
    pytest.importorskip("fcl")
    pytest.importorskip("rapier3d")
    assert set(installed_adapters()) == set(ADAPTERS)


class Torus(Shape):
    """A physics type nothing knows: what a new kind's shape is before its checklist."""

    __slots__ = ()


def test_a_kind_with_nothing_lacks_every_item():
    torus = replace(KINDS["sphere"], name="torus", build=lambda p: Torus(), mesh=lambda p: Mesh())
    missing = lacks({**KINDS, "torus": torus}, installed_adapters())
    mine = [line for line in missing if line.startswith("torus:")]
    expected = ["a tessellation", "a playground body", "a warmup query", "a sweep test against"]
    expected += [f"a {engine} mapping" for engine in installed_adapters()]
    for item in expected:
        assert any(line.startswith(f"torus: {item}") for line in mine), (item, mine)
    # the other kinds lack only their pairs with the torus
    assert all(line.endswith("against a torus (either order), or both in SURFACES") for line in missing
               if not line.startswith("torus:")), missing


def test_a_static_kind_needs_no_body_and_a_dynamic_one_gets_its_own():
    assert "plane" in STATIC_KINDS and "sphere" not in STATIC_KINDS
    with pytest.raises(ValueError, match="scene_object 'p' is a plane, which has no playground body"):
        body_of(SceneObject("p", "plane", dict(KINDS["plane"].defaults)))
