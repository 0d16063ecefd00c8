"""Bodies from shapes (#36): a hull body's exact mass and inertia in its principal
frame, the editor's polyhedra built so (no bounding box), and bad bodies refused."""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from sweeplab.playground.mass import mass_properties
from sweeplab.playground.world import Body, World, box_body, capsule_body, hull_body, sphere_body
from sweeplab.physics import ConvexPolyhedron, Plane, Sphere

TETRAHEDRON = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.3, 1.0, 0.0], [0.4, 0.2, 1.5]])


def world_inertia(body: Body) -> np.ndarray:
    return body.rotation @ body.inertia @ body.rotation.T


def same_points(a, b, atol):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return len(a) == len(b) and all(np.min(np.linalg.norm(b - p, axis=1)) <= atol for p in a)


def test_a_hull_body_sits_where_its_vertices_are_with_its_exact_inertia():
    turn = Rotation.from_euler("xyz", [0.2, -0.4, 1.0]).as_matrix()
    body = hull_body("tet", TETRAHEDRON, position=[1.0, 2.0, 3.0], rotation=turn, density=2.0)
    placed = TETRAHEDRON @ turn.T + [1.0, 2.0, 3.0]
    expected = mass_properties(ConvexPolyhedron(placed), density=2.0)
    assert body.mass == pytest.approx(2.0 * 0.5, rel=1e-14)  # base 2 x 1 / 2, height 1.5: V = 1/2
    np.testing.assert_allclose(body.position, expected.centre, rtol=0, atol=1e-14)
    np.testing.assert_allclose(world_inertia(body), expected.inertia, rtol=0, atol=1e-14)
    assert np.count_nonzero(body.inertia - np.diag(np.diag(body.inertia))) == 0  # the principal frame
    assert np.all(np.diff(np.diag(body.inertia)) >= 0) and np.linalg.det(body.rotation) == pytest.approx(1.0)
    assert same_points(body.world_shape().vertices, placed, 1e-14)
    np.testing.assert_allclose(np.asarray(body.shape.vertices).mean(axis=0) @ body.rotation.T + body.position,
                               placed.mean(axis=0), atol=1e-14)  # body space is centred on the centre of mass


def test_a_box_as_a_hull_body_is_the_box_body():
    half = [0.3, 0.5, 0.9]
    hull = hull_body("a", ConvexPolyhedron.box(half).vertices, position=[0.0, 0.0, 2.0])
    box = box_body("b", half, [0.0, 0.0, 2.0])
    assert hull.mass == pytest.approx(box.mass, rel=1e-14)
    np.testing.assert_allclose(world_inertia(hull), world_inertia(box), rtol=1e-14, atol=0)
    assert same_points(hull.world_shape().vertices, box.world_shape().vertices, 1e-14)


def test_a_hull_body_dropped_on_a_face_comes_to_rest_on_it():
    """The world's diagonal-inertia assumption holds in the hull's principal frame: an
    irregular tetrahedron dropped on its base rests on it, not turning."""
    body = hull_body("tet", TETRAHEDRON, position=[0.0, 0.0, 0.2])
    world = World([body], {"floor": Plane([0.0, 0.0, 1.0], 0.0)}, restitution=0.0, friction=0.5)
    for _ in range(90):
        world.step(1 / 60)
    lowest = np.sort(np.asarray(body.world_shape().vertices)[:, 2])
    assert np.all(np.abs(lowest[:3]) <= 1e-9) and lowest[3] == pytest.approx(1.5, abs=1e-9)
    assert np.linalg.norm(body.angular_velocity) <= 1e-9


def test_regression_the_editors_polyhedron_has_its_hulls_mass_not_its_bounding_boxs():
    """run.body_of gave a polyhedron its body-space bounding box's mass and inertia: a
    tetrahedron of volume 1/2 weighed 3 (its 2 x 1 x 1.5 box)."""
    from sweeplab.playground.run import body_of
    from sweeplab.scene.model import SceneObject

    axes = Rotation.from_euler("z", 30, degrees=True).as_matrix()  # rows: body axes in the world
    body = body_of(SceneObject("tet", "polyhedron", {"vertices": TETRAHEDRON.tolist(), "origin": [1.0, 0.0, 0.0],
                                                      "axes": axes.tolist()}))
    placed = TETRAHEDRON @ axes + [1.0, 0.0, 0.0]
    expected = mass_properties(ConvexPolyhedron(placed))
    assert body.mass == pytest.approx(0.5, rel=1e-14)
    np.testing.assert_allclose(world_inertia(body), expected.inertia, rtol=0, atol=1e-14)
    assert same_points(body.world_shape().vertices, placed, 1e-14)


@pytest.mark.parametrize("build, message", [
    (lambda: sphere_body("s", [0, 0, 0], 0.0), "^radius must be a finite number > 0"),
    (lambda: sphere_body("s", [0, 0, 0], np.nan), "^radius must be"),
    (lambda: sphere_body("s", [0, 0, 0], 1.0, density=-1.0), "^density must be"),
    (lambda: capsule_body("c", [0, 0, 0], [1, 0, 0], -0.1), "^radius must be"),
    (lambda: capsule_body("c", [0, 0, 0], [1, 0, 0], 0.1, density=np.inf), "^density must be"),
    (lambda: box_body("b", [0.5, 0.0, 0.5], [0, 0, 0]), r"^half_extents\[1\] must be a finite number > 0"),
    (lambda: box_body("b", [0.5, 0.5, np.inf], [0, 0, 0]), r"^half_extents\[2\] must be"),
    (lambda: box_body("b", [0.5, 0.5], [0, 0, 0]), "^half_extents must be 3 numbers"),
    (lambda: box_body("b", [0.5, 0.5, 0.5], [0, 0, 0], density=0.0), "^density must be"),
    (lambda: box_body("b", [0.5, 0.5, 0.5], [0, 0, np.nan]), "^position must be 3 finite numbers"),
    (lambda: box_body("b", [0.5, 0.5, 0.5], [0, 0, 0], rotation=2 * np.eye(3)), "^rotation must be a 3x3 rotation"),
    (lambda: box_body("b", [0.5, 0.5, 0.5], [0, 0, 0], rotation=-np.eye(3)), "^rotation must be a 3x3 rotation"),
    (lambda: hull_body("h", TETRAHEDRON[:3]), "vertices.*must span a solid"),
    (lambda: hull_body("h", np.concatenate([TETRAHEDRON[:3], TETRAHEDRON[:3] / 2])), "vertices.*must span a solid"),
    (lambda: hull_body("h", TETRAHEDRON, density=0.0), "^density must be"),
    (lambda: hull_body("h", TETRAHEDRON, position=[0, 0]), "^position must be 3 finite numbers"),
    (lambda: hull_body("h", TETRAHEDRON, rotation=np.eye(2)), "^rotation must be a 3x3 rotation"),
    (lambda: Body("b", Sphere([0, 0, 0], 1.0), 0.0, np.eye(3), np.zeros(3)), "^mass must be a finite number > 0"),
    (lambda: Body("b", Sphere([0, 0, 0], 1.0), np.inf, np.eye(3), np.zeros(3)), "^mass must be"),
    (lambda: Body("b", Sphere([0, 0, 0], 1.0), 1.0, np.diag([1.0, 0.0, 1.0]), np.zeros(3)),
     "^inertia must be a finite symmetric positive-definite"),
    (lambda: Body("b", Sphere([0, 0, 0], 1.0), 1.0, np.array([[1.0, 0.1, 0], [0, 1, 0], [0, 0, 1]]), np.zeros(3)),
     "^inertia must be"),
    (lambda: Body("b", Sphere([0, 0, 0], 1.0), 1.0, np.eye(3), np.zeros(3), velocity=np.array([np.inf, 0, 0])),
     "^velocity must be 3 finite numbers"),
])
def test_a_bad_body_is_named(build, message):
    with pytest.raises(ValueError, match=message):
        build()


@pytest.mark.parametrize("excess, accepted", [(0.4e-6, True), (0.6e-6, False)])
def test_a_rotation_within_the_posed_tolerance_is_a_rotation(excess, accepted):
    """The tolerance ``POSED_ROTATION_ATOL`` (1e-6) on RRᵀ = E, which is off by about
    2·excess here: inside it a body is built, outside it refused."""
    rotation = (1 + excess) * np.eye(3)
    if accepted:
        assert box_body("b", [0.5, 0.5, 0.5], [0, 0, 0], rotation=rotation).mass == 1.0
    else:
        with pytest.raises(ValueError, match="^rotation must be"):
            box_body("b", [0.5, 0.5, 0.5], [0, 0, 0], rotation=rotation)


def test_an_inertia_just_positive_definite_is_accepted():
    body = Body("b", Sphere([0, 0, 0], 1.0), 1.0, np.diag([1e-300, 1.0, 1.0]), np.zeros(3))
    assert body.inertia[0, 0] == 1e-300
