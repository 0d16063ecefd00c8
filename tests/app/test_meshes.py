"""Meshes in the editor: sources, the mesh kind, what the view model shows of trees,
walks, contacts and overlaps, and the pixels of node spheres."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pytest

from sweeplab.editor import Editor
from sweeplab.scene.mesh_sources import GENERATORS, MeshSourceError, base_mesh, default_source, load_source
from sweeplab.view.meshes import NODE_COLORS, MeshDisplay
from sweeplab.scene.model import Scene, SceneObject, load
from sweeplab.scene.shape_kinds import KINDS, RigidMotion, build_shape
from sweeplab.view.model import build_view_model
from sweeplab.physics.traversal import LEAF_HIT, VISITED

MESH_SCENE = resources.files("sweeplab") / "scenes" / "meshes.json"
IDENTITY = np.eye(3).tolist()


def mesh_object(name, source, origin=(0.0, 0.0, 0.0), axes=IDENTITY) -> SceneObject:
    return SceneObject(name, "mesh", {"source": source, "origin": list(origin), "axes": axes})


@pytest.mark.parametrize("generator", list(GENERATORS))
def test_every_generator_builds_a_valid_tree(generator):
    vertices, faces = load_source(default_source(generator))
    mesh = base_mesh(default_source(generator))
    mesh.tree.validate(vertices, faces)
    assert base_mesh(default_source(generator)) is mesh  # built once per source


def test_bad_sources_say_why():
    with pytest.raises(MeshSourceError, match="unknown mesh generator"):
        load_source({"generator": "teapot"})
    with pytest.raises(MeshSourceError, match="subdivisions"):
        load_source({"generator": "icosphere", "subdivisions": 12})
    with pytest.raises(MeshSourceError, match="takes"):
        load_source({"generator": "box", "sides": 6})
    with pytest.raises(MeshSourceError, match="cannot read"):
        load_source({"file": "/no/such/mesh.obj"})


@pytest.mark.parametrize("suffix", ["obj", "stl", "ply", "glb"])
def test_mesh_files_load_through_trimesh(tmp_path, suffix):
    import trimesh

    path = tmp_path / f"box.{suffix}"
    trimesh.creation.box(extents=[1, 2, 3]).export(path)
    vertices, faces = load_source({"file": str(path)})
    assert len(faces) == 12
    assert np.allclose(vertices.min(axis=0), [-0.5, -1, -1.5]) and np.allclose(vertices.max(axis=0), [0.5, 1, 1.5])


def test_editor_adds_meshes_and_refuses_unreadable_files(tmp_path):
    editor = Editor(Scene())
    editor.add_generated_mesh("terrain")
    assert editor.selected == "terrain1" and editor.scene.object("terrain1").kind == "mesh"
    editor.add_mesh_file(tmp_path / "missing.stl")
    assert "cannot read" in editor.message and len(editor.scene.objects) == 1


def test_mesh_moves_rotates_and_round_trips(tmp_path):
    kind = KINDS["mesh"]
    params = dict(kind.defaults)
    quarter_turn = np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]])
    moved = kind.moved(params, RigidMotion(quarter_turn, np.zeros(3), np.array([1.0, 2, 3])))
    mesh = build_shape("mesh", moved)
    assert mesh.tree is build_shape("mesh", params).tree  # a drag never rebuilds the tree
    assert np.allclose(mesh.translation, [1, 2, 3]) and np.allclose(mesh.rotation, quarter_turn)
    scene = Scene([SceneObject("rock", "mesh", moved)])
    path = tmp_path / "scene.json"
    from sweeplab.scene.model import save

    save(scene, path)
    assert load(path).objects[0].params == moved


@pytest.fixture
def project(tmp_path, monkeypatch):
    """project/scene.json with its mesh at project/meshes/box.obj ("meshes/box.obj" in
    the file), opened from another folder."""
    import json

    import trimesh

    (tmp_path / "project" / "meshes").mkdir(parents=True)
    trimesh.creation.box(extents=[1, 2, 3]).export(tmp_path / "project" / "meshes" / "box.obj")
    scene = Scene([mesh_object("box", {"file": "meshes/box.obj"})]).to_json()
    (tmp_path / "project" / "scene.json").write_text(json.dumps(scene))
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    return tmp_path / "project"


def test_a_relative_mesh_file_is_taken_from_the_scene_files_folder(project):
    """It was taken from the current folder: a scene opened from elsewhere lost its meshes."""
    scene = load(project / "scene.json")
    assert scene.object("box").params["source"] == {"file": str(project / "meshes" / "box.obj")}
    assert np.allclose(build_shape("mesh", scene.object("box").params).vertices.max(axis=0), [0.5, 1, 1.5])
    assert Editor(Scene()).open(project / "scene.json")


def test_a_mesh_file_is_saved_relative_to_a_scene_beside_or_above_it_and_absolute_elsewhere(project, tmp_path):
    import json

    from sweeplab.scene.model import save

    scene = load(project / "scene.json")
    for path, written in ((project / "again.json", "meshes/box.obj"),
                          (project / "meshes" / "inside.json", "box.obj"),
                          (tmp_path / "elsewhere" / "away.json", str(project / "meshes" / "box.obj"))):
        save(scene, path)
        assert json.loads(path.read_text())["objects"][0]["params"]["source"] == {"file": written}
        assert load(path).to_json() == scene.to_json()


def test_a_fixtures_relative_mesh_file_is_taken_from_its_folder(project):
    from sweeplab.scene.fixture import load_fixture, make_fixture, save_fixture

    scene = load(project / "scene.json")
    scene.objects.append(SceneObject("ball", "sphere", {"center": [0.0, 0.0, 5.0], "radius": 0.5}))
    scene.moving, scene.direction = "ball", [0.0, 0.0, -10.0]
    path = save_fixture(make_fixture(scene), project, "onto_box")
    assert '"file": "meshes/box.obj"' in path.read_text()
    assert load_fixture(path).scene.to_json() == scene.to_json()


def test_sphere_onto_terrain_shows_the_walk_and_contacts():
    scene = load(MESH_SCENE)
    view = build_view_model(scene, display=MeshDisplay(bvh_depth=4))
    hills = next(r for r in view.reports if r.name == "hills")
    assert hills.status == "hit" and view.earliest == "hills"
    counts = hills.mesh.trace.counts()
    assert counts["leaf hit"] >= 1 and counts["culled"] > 0
    assert hills.mesh.classification == "clear"  # at rest the ball is above the hills
    assert len(hills.mesh.contacts.face) >= 1 and np.allclose(hills.mesh.contacts.depth, 0, atol=1e-9)
    assert hills.result.face_index in hills.mesh.contacts.face
    colours = {batch.color for batch in view.lines}
    assert NODE_COLORS[VISITED] in colours and NODE_COLORS[LEAF_HIT] in colours


def test_two_meshes_overlapping_and_a_moving_mesh_narrowphase():
    cube = {"generator": "box", "size": [1.0, 1.0, 1.0]}
    scene = Scene([mesh_object("a", cube), mesh_object("b", cube, origin=(0.5, 0.5, 0.5)),
                   mesh_object("c", cube, origin=(3.0, 0.2, 0.0))], moving="a", direction=[4.0, 0.0, 0.0])
    moving_view = build_view_model(scene)
    assert [r.status for r in moving_view.reports] == ["pending", "pending"]  # waits for a still scene
    view = build_view_model(scene, reference=True)
    overlapping = {(o.first, o.second): len(o.overlap.pairs) for o in view.mesh_overlaps}
    assert overlapping[("a", "b")] > 0 and overlapping[("a", "c")] == 0
    report_c = next(r for r in view.reports if r.name == "c")
    assert report_c.status == "hit" and abs(report_c.time - 0.5) <= 1e-12  # faces meet after 2 of 4 units
    assert report_c.mesh.narrowphase_trace.interval[0] < 0.5


def test_cli_renders_node_spheres(tmp_path, gl_context):
    from sweeplab.cli import main
    from sweeplab.render.png import decode_png

    output = tmp_path / "tree.png"
    assert main(["render", str(MESH_SCENE), "-o", str(output), "--size", "320x200", "--bvh-depth", "3"]) == 0
    pixels = decode_png(output.read_bytes())
    blue = np.array(NODE_COLORS[VISITED][:3]) * 255
    assert np.any(np.all(np.abs(pixels.astype(int) - blue) <= 30, axis=-1))  # visited nodes are drawn
