"""Exact mass properties (#36): closed forms for boxes, tetrahedra, spheres, capsules and
an L of two boxes; random hulls against an independent integration (Eberly's surface
integrals); Jacobi against numpy's eigh, and at its convergence tolerance."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from sweeplab.playground import mass
from sweeplab.playground.mass import MassProperties, compound, mass_properties, principal_axes
from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Sphere


def box_inertia(m, half):
    """m/3·(h_y² + h_z², h_x² + h_z², h_x² + h_y²) on the diagonal."""
    hx, hy, hz = half
    return np.diag([m / 3 * (hy ** 2 + hz ** 2), m / 3 * (hx ** 2 + hz ** 2), m / 3 * (hx ** 2 + hy ** 2)])


def relative_error(found, expected):
    return float(np.linalg.norm(np.asarray(found) - expected) / np.linalg.norm(expected))


@pytest.mark.parametrize("half, turn", [
    ([0.5, 0.5, 0.5], Rotation.from_euler("z", 45, degrees=True).as_matrix()),  # the unit box turned 45°
    ([0.3, 0.7, 1.9], Rotation.from_euler("z", 45, degrees=True).as_matrix()),
    ([0.3, 0.7, 1.9], Rotation.from_euler("xyz", [0.3, -1.2, 2.5]).as_matrix()),
    ([2.0, 1e-2, 0.5], Rotation.from_rotvec([1.0, 1.0, 1.0]).as_matrix())])
def test_a_turned_box_has_the_box_formula_turned(half, turn):
    half = np.asarray(half)
    props = mass_properties(ConvexPolyhedron.box(half, center=[4.0, -2.0, 1.0], rotation=turn), density=2.5)
    m = 2.5 * 8 * np.prod(half)
    assert props.mass == pytest.approx(m, rel=1e-14)
    np.testing.assert_allclose(props.centre, [4.0, -2.0, 1.0], rtol=0, atol=1e-14)
    assert relative_error(props.inertia, turn @ box_inertia(m, half) @ turn.T) <= 1e-14


def tetrahedron_tensor(points):
    """Tonon (2004) written out: about the origin, with V the volume and the sums over
    i <= j of the four corners, ∫y² + z² dV = V/10·Σ(y_i y_j + z_i z_j) (and so on), and
    ∫x y dV = V/20·(Σ_i 2 x_i y_i + Σ_{i≠j} x_i y_j); then carried to the centroid."""
    p = np.asarray(points, float)
    volume = abs(np.linalg.det(p[1:] - p[0])) / 6
    square = np.zeros(3)
    for axis in range(3):
        square[axis] = volume / 10 * sum(p[i, axis] * p[j, axis] for i in range(4) for j in range(i, 4))
    product = np.zeros((3, 3))
    for a in range(3):
        for b in range(3):
            product[a, b] = volume / 20 * sum((2 if i == j else 1) * p[i, a] * p[j, b]
                                              for i in range(4) for j in range(4))
    about_origin = np.diag([square[1] + square[2], square[0] + square[2], square[0] + square[1]])
    about_origin += np.diag(np.diag(product)) - product
    c = p.mean(axis=0)
    return volume, c, about_origin - volume * (float(c @ c) * np.eye(3) - np.outer(c, c))


@pytest.mark.parametrize("points", [
    [[1.0, 1.0, 1.0], [1.0, -1.0, -1.0], [-1.0, 1.0, -1.0], [-1.0, -1.0, 1.0]],  # regular, edge 2√2
    [[8.33220, -11.86875, 0.93355], [0.75523, 5.0, 16.37072], [52.61236, 5.0, -5.38580], [2.0, 5.0, 3.0]],  # Tonon's
    [[0.0, 0.0, 0.0], [3.0, 0.1, 0.0], [0.2, 0.5, 0.0], [0.1, 0.3, 7.0]],
])
def test_a_tetrahedron_has_the_closed_form_tensor(points):
    volume, centre, inertia = tetrahedron_tensor(points)
    props = mass_properties(ConvexPolyhedron(points), density=1.5)
    assert props.mass == pytest.approx(1.5 * volume, rel=1e-13)
    np.testing.assert_allclose(props.centre, centre, rtol=0, atol=1e-13 * np.abs(points).max())
    assert relative_error(props.inertia, 1.5 * inertia) <= 1e-13


def test_a_regular_tetrahedron_is_isotropic_with_m_a2_over_20():
    edge = 2 * np.sqrt(2)
    props = mass_properties(ConvexPolyhedron([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]]))
    assert relative_error(props.inertia, props.mass * edge ** 2 / 20 * np.eye(3)) <= 1e-14


def test_a_sphere_and_a_capsule_have_their_formulas():
    sphere = mass_properties(Sphere([1.0, 2.0, 3.0], 0.5), density=3.0)
    m = 3.0 * 4 / 3 * np.pi * 0.125
    assert sphere.mass == pytest.approx(m, rel=1e-15)
    np.testing.assert_allclose(sphere.inertia, 0.4 * m * 0.25 * np.eye(3), rtol=1e-15)
    # a capsule along x of length 2, radius 1: cylinder m_c = 2π, balls m_b = 4π/3
    capsule = mass_properties(Capsule([-1.0, 5.0, 0.0], [1.0, 5.0, 0.0], 1.0))
    m_c, m_b = 2 * np.pi, 4 / 3 * np.pi
    along = m_c / 2 + m_b * 2 / 5
    across = m_c * (4 / 12 + 1 / 4) + m_b * (2 / 5 + 4 / 4 + 3 * 2 / 8)
    assert capsule.mass == pytest.approx(m_c + m_b, rel=1e-15)
    np.testing.assert_allclose(capsule.centre, [0.0, 5.0, 0.0])
    np.testing.assert_allclose(capsule.inertia, np.diag([along, across, across]), rtol=1e-15, atol=1e-15)


def test_a_capsule_is_a_cylinder_and_a_ball_by_the_parallel_axis_theorem():
    """The hemispheres, each half a ball about its own centre of mass 3r/8 from the flat
    face, carried out to L/2 + 3r/8: the capsule formula's across moment, independently."""
    r, length, rho = 0.4, 1.7, 2.0
    half_ball = rho * 2 / 3 * np.pi * r ** 3
    own = half_ball * (2 / 5 - (3 / 8) ** 2) * r ** 2  # a hemisphere across, about its own centroid
    ends = [MassProperties(half_ball, np.array([0.0, 0.0, s * (length / 2 + 3 * r / 8)]),
                           np.diag([own, own, half_ball * 2 / 5 * r ** 2])) for s in (-1, 1)]
    cylinder_mass = rho * np.pi * r ** 2 * length
    cylinder = MassProperties(cylinder_mass, np.zeros(3), np.diag(
        [cylinder_mass * (length ** 2 / 12 + r ** 2 / 4)] * 2 + [cylinder_mass * r ** 2 / 2]))
    expected = compound([cylinder, *ends])
    props = mass_properties(Capsule([0.0, 0.0, -length / 2], [0.0, 0.0, length / 2], r), rho)
    assert relative_error(props.inertia, expected.inertia) <= 1e-14


def test_an_l_of_two_boxes_matches_a_hand_computation():
    """Boxes 2x1x1 at (1, 0.5, 0.5) and 1x2x1 at (0.5, 2, 0.5), density 1: masses 2 and 2,
    centre (0.75, 1.25, 0.5).  About it, each box's own I plus m (|d|² E - d dᵀ) with
    d = ±(0.25, -0.75, 0), by hand below."""
    first = mass_properties(ConvexPolyhedron.box([1.0, 0.5, 0.5], center=[1.0, 0.5, 0.5]))
    second = mass_properties(ConvexPolyhedron.box([0.5, 1.0, 0.5], center=[0.5, 2.0, 0.5]))
    both = compound([first, second])
    # own: box 2x1x1 mass 2: diag(2/12·(1+1), 2/12·(4+1), 2/12·(4+1)) = diag(1/3, 5/6, 5/6)
    #      box 1x2x1 mass 2: diag(5/6, 1/3, 5/6)
    # shifts: d = (0.25, -0.75, 0) and (-0.25, 0.75, 0), m = 2 each:
    #   xx: 2·0.5625·2 = 2.25, yy: 2·0.0625·2 = 0.25, zz: 2·0.625·2 = 2.5, xy: -2·(-0.1875)·2 = 0.75
    expected = np.array([[1 / 3 + 5 / 6 + 2.25, 0.75, 0.0],
                         [0.75, 5 / 6 + 1 / 3 + 0.25, 0.0],
                         [0.0, 0.0, 5 / 6 + 5 / 6 + 2.5]])
    assert both.mass == pytest.approx(4.0, rel=1e-15)
    np.testing.assert_allclose(both.centre, [0.75, 1.25, 0.5], rtol=0, atol=1e-15)
    np.testing.assert_allclose(both.inertia, expected, rtol=0, atol=1e-14)


def test_the_inertia_about_the_centre_does_not_depend_on_where_the_hull_is():
    points = np.random.default_rng(5).normal(size=(20, 3))
    here = mass_properties(ConvexPolyhedron(points))
    for shift in ([1e3, -2e3, 5e2], [1e-3, 0.0, 0.0], [-7.0, 3.0, 11.0]):
        there = mass_properties(ConvexPolyhedron(points + shift))
        assert there.mass == pytest.approx(here.mass, rel=1e-12)
        reach = max(1.0, np.abs(shift).max())
        np.testing.assert_allclose(there.centre - shift, here.centre, rtol=0, atol=1e-12 * reach)
        assert relative_error(there.inertia, here.inertia) <= 1e-12


def eberly(vertices, faces):
    """Mass, centre and inertia of a polyhedron by Eberly's surface integrals ("Polyhedral
    Mass Properties (Revisited)", 2002): the divergence theorem on each triangle of a
    face fan; an independent reference (no tetrahedra, no interior point)."""
    intg = np.zeros(10)

    def sub(w0, w1, w2):
        temp0 = w0 + w1
        f1 = temp0 + w2
        temp1 = w0 * w0
        temp2 = temp1 + w1 * temp0
        f2 = temp2 + w2 * f1
        f3 = w0 * temp1 + w1 * temp2 + w2 * f2
        return f1, f2, f3, f2 + w0 * (f1 + w0), f2 + w1 * (f1 + w1), f2 + w2 * (f1 + w2)

    for loop in faces:
        for j in range(1, len(loop) - 1):
            p0, p1, p2 = (vertices[loop[k]] for k in (0, j, j + 1))
            d = np.cross(p1 - p0, p2 - p0)
            x, y, z = (sub(p0[k], p1[k], p2[k]) for k in range(3))
            intg += [d[0] * x[0], d[0] * x[1], d[1] * y[1], d[2] * z[1], d[0] * x[2], d[1] * y[2], d[2] * z[2],
                     d[0] * (p0[1] * x[3] + p1[1] * x[4] + p2[1] * x[5]),
                     d[1] * (p0[2] * y[3] + p1[2] * y[4] + p2[2] * y[5]),
                     d[2] * (p0[0] * z[3] + p1[0] * z[4] + p2[0] * z[5])]
    intg *= [1 / 6, 1 / 24, 1 / 24, 1 / 24, 1 / 60, 1 / 60, 1 / 60, 1 / 120, 1 / 120, 1 / 120]
    m, c = intg[0], intg[1:4] / intg[0]
    xx = intg[5] + intg[6] - m * (c[1] ** 2 + c[2] ** 2)
    yy = intg[4] + intg[6] - m * (c[2] ** 2 + c[0] ** 2)
    zz = intg[4] + intg[5] - m * (c[0] ** 2 + c[1] ** 2)
    xy, yz, zx = -(intg[7] - m * c[0] * c[1]), -(intg[8] - m * c[1] * c[2]), -(intg[9] - m * c[2] * c[0])
    return m, c, np.array([[xx, xy, zx], [xy, yy, yz], [zx, yz, zz]])


@settings(max_examples=25, deadline=None)  # ~0.1 s each: a hull search and Eberly's loop in Python
@given(seed=st.integers(0, 2 ** 32 - 1), count=st.integers(4, 30), stretch=st.floats(0.05, 20.0))
def test_random_hulls_agree_with_surface_integrals(seed, count, stretch):
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(count, 3)) * [1.0, stretch, 1.0 / stretch]
    hull = ConvexPolyhedron(points)
    if hull.dimension != 3:
        return
    m, c, inertia = eberly(np.asarray(hull.vertices, float), hull.faces)
    props = mass_properties(hull)
    assert props.mass == pytest.approx(m, rel=1e-12)
    assert np.linalg.norm(props.centre - c) <= 1e-12 * np.abs(points).max()
    assert relative_error(props.inertia, inertia) <= 1e-12


# --- principal axes by Jacobi -------------------------------------------------------

def check_decomposition(tensor, moments, axes, rtol):
    size = 3 * np.abs(tensor).max()  # >= the Frobenius norm, whose squares may underflow
    assert np.all(np.diff(moments) >= 0)
    np.testing.assert_allclose(moments, np.linalg.eigvalsh(tensor), rtol=0, atol=rtol * size)
    np.testing.assert_allclose(axes.T @ axes, np.eye(3), rtol=0, atol=1e-14)
    assert np.linalg.det(axes) == pytest.approx(1.0, abs=1e-14)
    np.testing.assert_allclose(axes @ np.diag(moments) @ axes.T, tensor, rtol=0, atol=rtol * size)
    for k in (0, 1):
        assert axes[np.argmax(np.abs(axes[:, k])), k] > 0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3), min_size=6, max_size=6))
def test_jacobi_agrees_with_eigh_on_random_symmetric_matrices(entries):
    tensor = np.zeros((3, 3))
    tensor[np.triu_indices(3)] = entries
    tensor = tensor + np.triu(tensor, 1).T
    moments, axes = principal_axes(tensor)
    check_decomposition(tensor, moments, axes, 1e-14)
    _, oracle = np.linalg.eigh(tensor)
    gaps = np.diff(moments)
    for k in range(3):  # a simple eigenvalue (well apart): the same axis as eigh's, up to sign
        if min([abs(g) for g in gaps[max(k - 1, 0):k + 1]]) > 1e-6 * np.abs(tensor).max():
            assert abs(abs(float(axes[:, k] @ oracle[:, k])) - 1) <= 1e-8


def test_a_cube_has_three_equal_moments_and_any_axes():
    turn = Rotation.from_euler("xyz", [0.4, 0.9, -0.3]).as_matrix()
    props = mass_properties(ConvexPolyhedron.box([1.0, 1.0, 1.0], rotation=turn))
    moments, axes = props.principal()
    np.testing.assert_allclose(moments, [16 / 3] * 3, rtol=1e-14)
    check_decomposition(props.inertia, moments, axes, 1e-14)


@pytest.mark.parametrize("gap", [0.0, 1e-15, 1e-12, 1e-8])
def test_two_equal_or_nearly_equal_moments_keep_their_plane(gap):
    turn = Rotation.from_rotvec([0.3, -0.8, 0.5]).as_matrix()
    tensor = turn @ np.diag([2.0, 2.0 + gap, 5.0]) @ turn.T
    moments, axes = principal_axes(tensor)
    check_decomposition(tensor, moments, axes, 1e-14)
    assert abs(abs(float(axes[:, 2] @ turn[:, 2])) - 1) <= 1e-14  # the distinct axis, exactly
    np.testing.assert_allclose(moments[:2], [2.0, 2.0 + gap], rtol=0, atol=1e-14)


def test_a_diagonal_tensor_comes_back_sorted_with_a_right_handed_permutation():
    moments, axes = principal_axes(np.diag([3.0, 1.0, 2.0]))
    assert moments.tolist() == [1.0, 2.0, 3.0]
    assert axes.tolist() == [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]


def off_diagonal_tensor(e):
    """diag(0.5, 0, 0) with e at (0, 1) and (0, 2), both sides: off = 2e, ‖A‖ = 0.5 (to rounding)."""
    return np.array([[0.5, e, e], [e, 0.0, 0.0], [e, 0.0, 0.0]])


def is_permutation(axes):
    """Nothing rotated: the axes are the input's, reordered and signed."""
    return bool(np.all(np.isin(np.abs(axes), [0.0, 1.0])))


def test_jacobi_tolerance_at_inside_and_outside(monkeypatch):
    """At ``off(A) = JACOBI_RTOL·‖A‖`` Jacobi stops (nothing rotated); one ulp above
    it rotates.  A power-of-two tolerance makes the boundary exact: off = 2e = 2^-41,
    ‖A‖ = sqrt(0.25 + 4e²) = 0.5 in floats."""
    monkeypatch.setattr(mass, "JACOBI_RTOL", 2.0 ** -40)
    at = 2.0 ** -42
    assert mass._off_diagonal(off_diagonal_tensor(at)) == 2.0 ** -40 * np.linalg.norm(off_diagonal_tensor(at))
    for e, rotated in ((at / 2, False), (at, False), (np.nextafter(at, 1.0), True), (2 * at, True)):
        moments, axes = principal_axes(off_diagonal_tensor(e))
        assert is_permutation(axes) != rotated, e


@pytest.mark.parametrize("factor, rotated", [(0.5, False), (2.0, True)])
def test_the_shipped_tolerance_leaves_what_is_inside_it(factor, rotated):
    e = factor * mass.JACOBI_RTOL * 0.5 / 2
    _, axes = principal_axes(off_diagonal_tensor(e))
    assert is_permutation(axes) != rotated


def test_a_nearly_singular_split_converges_to_eigh():
    """Near-degenerate: moments 1e-9 apart among large ones, a tiny moment beside them."""
    turn = Rotation.from_rotvec([1.1, 0.2, -0.7]).as_matrix()
    tensor = turn @ np.diag([1e-6, 1.0, 1.0 + 1e-9]) @ turn.T
    moments, axes = principal_axes(tensor)
    check_decomposition(tensor, moments, axes, 1e-14)


# --- bad input ------------------------------------------------------------------------

@pytest.mark.parametrize("density", [0.0, -1.0, np.nan, np.inf, "heavy"])
def test_a_bad_density_is_named(density):
    with pytest.raises(ValueError, match="^density must be a finite number > 0"):
        mass_properties(Sphere([0.0, 0.0, 0.0], 1.0), density)


@pytest.mark.parametrize("shape", [Sphere([0.0, 0.0, 0.0], 0.0), Capsule([0, 0, 0], [1, 0, 0], 0.0)])
def test_a_zero_radius_is_named(shape):
    with pytest.raises(ValueError, match="^radius must be a finite number > 0"):
        mass_properties(shape)


@pytest.mark.parametrize("points", [[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],  # flat
                                    [[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]],  # a line
                                    [[0, 0, 0], [1, 0, 0], [0, 1, 0]]])  # three points
def test_a_hull_without_volume_is_named(points):
    with pytest.raises(ValueError, match="vertices.*must span a solid"):
        mass_properties(ConvexPolyhedron(np.asarray(points, float)))


def test_a_batch_a_plane_and_no_parts_are_refused():
    with pytest.raises(ValueError, match="^shape must be one"):
        mass_properties(Sphere(np.zeros((2, 3)), [1.0, 1.0]))
    with pytest.raises(ValueError, match="^shape must be a Sphere, Capsule or ConvexPolyhedron, got Plane"):
        mass_properties(Plane([0.0, 0.0, 1.0], 0.0))
    with pytest.raises(ValueError, match="^parts must hold"):
        compound([])
    with pytest.raises(ValueError, match="^tensor must be a finite 3x3"):
        principal_axes([[1.0, np.nan, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])


@pytest.mark.parametrize("scale", [1e-183, 1e-300, 1e200, 1e300])
def test_jacobi_at_extreme_scales_rotates_as_at_unit_scale(scale):
    """The norms' squares would underflow (to a converged 0 <= 0) or overflow (inf): found
    by hypothesis, a tensor of entries 1e-183 came back unrotated, moments 0 for ±1e-183."""
    unit = np.array([[0.0, 0.0, 1.0], [0.0, 0.5, 0.25], [1.0, 0.25, 0.0]])
    moments, axes = principal_axes(scale * unit)
    expected_moments, expected_axes = principal_axes(unit)
    np.testing.assert_allclose(moments, scale * expected_moments, rtol=1e-14, atol=0)
    np.testing.assert_allclose(axes, expected_axes, rtol=0, atol=1e-14)


def test_positive_takes_the_smallest_positive_float_and_refuses_zero():
    assert mass.positive("density", 5e-324) == 5e-324
    for value in (0.0, -0.0, -5e-324):
        with pytest.raises(ValueError, match="^density must be a finite number > 0"):
            mass.positive("density", value)


def test_moved_turns_and_carries_a_solids_properties():
    """A box's properties moved by (R, t) are the moved box's: centre R·c + t, inertia R I Rᵀ."""
    turn = Rotation.from_rotvec([0.7, -0.2, 0.4]).as_matrix()
    box = ConvexPolyhedron.box([0.2, 0.6, 1.1], center=[0.5, 0.0, -1.0])
    moved = mass_properties(box).moved(turn, [3.0, -1.0, 2.0])
    expected = mass_properties(box.moved([3.0, -1.0, 2.0], turn))
    assert moved.mass == pytest.approx(expected.mass, rel=1e-14)
    np.testing.assert_allclose(moved.centre, expected.centre, rtol=0, atol=1e-14)
    assert relative_error(moved.inertia, expected.inertia) <= 1e-14
    assert np.array_equal(moved.inertia, moved.inertia.T)
