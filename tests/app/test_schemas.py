"""The JSON Schemas of the scene and fixture formats (package data, ``sweeplab/schemas``)
hold for every bundled scene and fixture, and refuse what the loaders refuse by type."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = {name: json.loads((resources.files("sweeplab") / "schemas" / f"{name}.schema.json").read_text())
           for name in ("scene", "fixture", "query-log")}
REGISTRY = Registry().with_resources((schema["$id"], Resource.from_contents(schema)) for schema in SCHEMAS.values())
VALIDATORS = {name: Draft202012Validator(schema, registry=REGISTRY) for name, schema in SCHEMAS.items()}


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_the_schemas_are_valid_schemas(name):
    Draft202012Validator.check_schema(SCHEMAS[name])


@pytest.mark.parametrize("path", sorted((ROOT / "app" / "scenes").glob("*.json")), ids=lambda p: p.name)
def test_every_bundled_scene_validates(path):
    VALIDATORS["scene"].validate(json.loads(path.read_text()))


@pytest.mark.parametrize("path", sorted([*(ROOT / "tests" / "fixtures").glob("*.json"),
                                         *(ROOT / "app" / "examples").glob("*.json")]), ids=lambda p: p.name)
def test_every_bundled_fixture_validates(path):
    VALIDATORS["fixture"].validate(json.loads(path.read_text()))


@pytest.mark.parametrize("change", [
    lambda scene: scene.update(version=True),
    lambda scene: scene.update(objects=5),
    lambda scene: scene["objects"][0].update(kind=["sphere"]),
    lambda scene: scene["objects"][0]["params"].update(radius=-1),
    lambda scene: scene["options"].update(ignore_separating="false"),
    lambda scene: scene.update(direction=[1, 2]),
    lambda scene: scene.update(version=2, rotation=[0, 1]),
    lambda scene: scene.update(version=2, pivot="centroid"),
    lambda scene: scene.update(version=2, interpolation="lerp"),
])
def test_the_scene_schema_refuses_what_the_loader_refuses_by_type(change):
    scene = json.loads((ROOT / "app" / "scenes" / "demo.json").read_text())
    change(scene)
    assert not VALIDATORS["scene"].is_valid(scene)


def test_logged_queries_validate(tmp_path):
    """The hand-made float32 log (hex floats) and what sweeplab writes."""
    from sweeplab.scene.query_log import read_log, write_log

    from tests.engines.test_query_log import FLOAT32_LOG

    for line in FLOAT32_LOG:
        VALIDATORS["query-log"].validate(line)
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(FLOAT32_LOG[0]) + "\n")
    write_log(read_log(path), tmp_path / "again.jsonl")
    VALIDATORS["query-log"].validate(json.loads((tmp_path / "again.jsonl").read_text()))


def test_a_saved_turning_scene_validates(tmp_path):
    from sweeplab.scene.model import load, save

    scene = load(ROOT / "app" / "scenes" / "demo.json")
    for pivot in (None, [0.5, -1.0, 2.0]):
        scene.rotation, scene.pivot, scene.interpolation = [0.0, 0.3, 1.2], pivot, "nlerp"
        save(scene, tmp_path / "turning.json")
        VALIDATORS["scene"].validate(json.loads((tmp_path / "turning.json").read_text()))
