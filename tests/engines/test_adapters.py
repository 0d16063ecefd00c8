"""Engine adapters (#22) against answers the engines are known to give; skipped with
the reason when the extra is not installed (CI installs them)."""

import numpy as np
import pytest

from sweeplab.engines import EngineUnavailable, engine
from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere, Triangle, sweep


def adapter(name, **options):
    try:
        return engine(name, **options)
    except EngineUnavailable as error:
        pytest.skip(str(error))


def test_fcl_answers_spheres_exactly_and_misses_crossing_capsules():
    fcl = adapter("fcl")
    assert fcl.answer(Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10]).t == 0.3
    crossing = (Capsule([0, 0, 5], [1, 0, 5], 0.5), Capsule([0, -1, 0], [0, 1, 0], 0.5), [0, 0, -10])
    assert fcl.answer(*crossing).hit is False  # fcl's conservative advancement, python-fcl 0.7.0.11
    assert sweep(*crossing).t == pytest.approx(0.4, abs=1e-15)  # the exact answer: the gap 4 closes at 10 t


def test_fcl_refuses_the_pairs_that_crash_it():
    fcl = adapter("fcl")
    with pytest.raises(TypeError, match="segfault"):
        fcl.answer(Sphere([0, 0, 5], 1.0), Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0]), [0, 0, -10])
    naive = adapter("fcl", solver="naive")  # samples 10 times: answers a sample's time
    assert naive.answer(Sphere([0, 0, 5], 1.0), Triangle([-1, -1, 0], [1, -1, 0], [0, 1, 0]),
                        [0, 0, -10]).t == pytest.approx(4 / 9)


def test_rapier_answers_in_float32_with_a_point_and_normal():
    rapier = adapter("rapier")
    answer = rapier.answer(Sphere([0, 0, 5], 1.0), Sphere([0, 0, 0], 1.0), [0, 0, -10])
    assert answer.hit and answer.t == float(np.float32(0.3))
    assert answer.point == [0.0, 0.0, 1.0] and answer.normal == [0.0, 0.0, 1.0]
    box = ConvexPolyhedron([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)])
    assert rapier.answer(Sphere([0, 0, 5], 1.0), box, [0, 0, -10]).t == pytest.approx(0.3, abs=1e-6)
    assert rapier.info.precision == "float32"


def test_the_editor_shows_each_engines_answer_beside_sweeplabs():
    """#22: "Also answer with: fcl / rapier" — every target answered by each engine,
    disagreements flagged, a pair an engine cannot answer said so."""
    adapter("fcl")
    adapter("rapier")
    from sweeplab.cli import DEMO_SCENE
    from sweeplab.scene.model import load
    from sweeplab.ui.results import engine_cell, report_text
    from sweeplab.view.meshes import MeshDisplay
    from sweeplab.view.model import build_view_model

    view = build_view_model(load(DEMO_SCENE), display=MeshDisplay(engines=("fcl", "rapier")))
    by_name = {report.name: report for report in view.reports}
    assert set(by_name["graze sphere"].engines) == {"fcl", "rapier"}
    plane_by_fcl = by_name["plane"].engines["fcl"]
    assert plane_by_fcl.kind == "cannot" and "no fcl geometry" in plane_by_fcl.detail
    assert by_name["segment"].engines["rapier"].kind == "agrees"  # f32: within 1e-4 of sweeplab's t
    triangle = by_name["triangle"].engines["fcl"]
    assert triangle.kind == "cannot" and "segfault" in triangle.detail
    text, differs = engine_cell(by_name["segment"].engines["rapier"])
    assert text.startswith("hit, t = ") and not differs
    assert "rapier says: hit, t = " in report_text(by_name["segment"])


def test_regression_a_shape_rapier_refuses_is_a_value_error_naming_rapier():
    """Review find: a needle hull (collinear corners, which sweeplab sweeps as a segment)
    made parry's convex hull fail with rapier3d.MeshConversionError, past the fuzz and
    triage handlers."""
    rapier = adapter("rapier")
    needle = ConvexPolyhedron([[-1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]])
    assert sweep(Sphere([0, 0, 5], 1.0), needle, [0, 0, -10]).t == pytest.approx(0.4, abs=1e-15)
    with pytest.raises(ValueError, match="rapier cannot build the shape"):
        rapier.answer(Sphere([0, 0, 5], 1.0), needle, [0, 0, -10])
