"""Perturbation scans: one batched query per scan."""

from pathlib import Path

import numpy as np

from sweeplab.view.scan import DIRECTION, ScanSpec, parameter_choices, run_scan
from sweeplab.scene.model import Scene, load
from sweeplab.scene.shape_kinds import build_shape
from sweeplab.physics import Capsule, sweep

GRAZE_SCENE = Path(__file__).resolve().parents[2] / "app" / "scenes" / "graze.json"


def test_raising_the_ball_through_the_graze_splits_hit_from_miss():
    scene = load(GRAZE_SCENE)
    scan = run_scan(scene, ScanSpec("touched edge", "ball", "center", 2, 1e-9, 1000))
    assert scan.offsets.shape == scan.t.shape == scan.hit.shape == (1000,)
    assert scan.hit[scan.offsets <= 0].all() and not scan.hit[scan.offsets > 0].any()
    hits = scan.t[scan.hit]
    assert np.all(np.diff(hits) >= 0)  # lower passes touch earlier: t grows towards the graze
    assert hits[-1] <= 0.5


def test_direction_angle_and_component():
    scene = load(GRAZE_SCENE)
    angle = run_scan(scene, ScanSpec("touched edge", DIRECTION, "angle", 0, 1e-3, 101))
    assert angle.hit.sum() > 0 and angle.message == ""
    component = run_scan(scene, ScanSpec("touched edge", DIRECTION, "z", 0, 1e-9, 11))
    assert component.hit.tolist() == [True] * 6 + [False] * 5  # rising path misses the edge


def test_invalid_variation_is_reported():
    scene = load(GRAZE_SCENE)
    scan = run_scan(scene, ScanSpec("touched edge", "ball", "radius", 0, 2.0, 5))
    assert "radius must be >= 0" in scan.message and not scan.hit.any()


def test_parameter_choices():
    scene = load(GRAZE_SCENE)
    assert [label for _, _, label in parameter_choices(scene, "ball")] == ["center[0]", "center[1]", "center[2]",
                                                                          "radius"]
    assert len(parameter_choices(scene, "touched edge")) == 9
    assert parameter_choices(scene, DIRECTION)[-1][0] == "angle"


PIERCING_SCENE = {
    "format": "sweeplab-scene", "version": 1,
    "objects": [
        {"name": "capsule", "kind": "capsule", "params": {"a": [0.0, 0.0, -1.0], "b": [0.0, 0.0, 1.5], "radius": 0.1}},
        {"name": "floor", "kind": "triangle", "params": {"a": [-5.0, -5.0, 0.0], "b": [5.0, -5.0, 0.0],
                                                         "c": [0.0, 5.0, 0.0]}},
    ],
    "moving": "capsule", "direction": [0.0, 0.0, 6.0], "options": {"ignore_separating": False},
}


def test_scan_of_a_capsule_piercing_a_triangle_answers_as_each_step_alone():
    """Regression: a scan is a batch of capsules against one triangle, which the
    capsule t = 0 test got wrong (9c5c872): every step must answer as its scalar
    sweep does (here an overlap from the start, depth 1.1)."""
    scene = Scene.from_json(PIERCING_SCENE)
    scan = run_scan(scene, ScanSpec("floor", "capsule", "a", 0, 0.5, 5))
    assert scan.message == "" and scan.hit.all() and scan.t.tolist() == [0.0] * 5
    for offset, t in zip(scan.offsets, scan.t, strict=True):
        single = sweep(Capsule([offset, 0.0, -1.0], [0.0, 0.0, 1.5], 0.1), build_shape(
            "triangle", PIERCING_SCENE["objects"][1]["params"]), PIERCING_SCENE["direction"])
        assert single.t == t and single.initially_overlapping
