"""Exact mass properties of solids: mass, centre of mass and inertia tensor.

Conventions.  A ``MassProperties`` is expressed in the frame of its input (the shape's
own coordinates): ``centre`` is a point of that frame and ``inertia`` the 3x3 tensor
about ``centre`` along that frame's axes,

    I = ∫ ρ (|r|² E - r rᵀ) dV,   r = x - centre.

The solids are uniform (``density`` ρ, mass per unit volume).  ``principal`` turns a
tensor into its principal moments and axes by cyclic Jacobi rotations (the physics
diary's "Jacobian rotation", ../shared/seeds/), ``compound`` sums parts by the
parallel-axis theorem, and ``mass_properties`` integrates a sphere, a capsule and a
convex polyhedron exactly (no sampling, no bounding box).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere

JACOBI_RTOL = 1e-14
"""``principal_axes`` stops rotating once the off-diagonal part of the tensor is at most
this fraction of the whole (Frobenius norms): ``off(A) <= JACOBI_RTOL·‖A‖``.  The
off-diagonal part shrinks quadratically once small (2000 random symmetric 3x3: at
most 4 sweeps to get here); what is left is the error of R diag(moments) Rᵀ: at
1e-10 the answers no longer agree with LAPACK's ``eigh`` to 1e-14·‖A‖ (the tests)."""
JACOBI_SWEEPS = 32
"""Sweeps of the three rotations at most (a 3x3 converges quadratically in a handful)."""


@dataclass(frozen=True)
class MassProperties:
    """``mass`` (> 0), ``centre`` of mass (3,) and ``inertia`` (3x3, symmetric) about
    ``centre`` along the input's axes."""

    mass: float
    centre: np.ndarray
    inertia: np.ndarray

    def principal(self) -> tuple[np.ndarray, np.ndarray]:
        """The principal moments and axes: ``principal_axes(self.inertia)``."""
        return principal_axes(self.inertia)

    def moved(self, rotation=None, translation=(0.0, 0.0, 0.0)) -> MassProperties:
        """The same solid turned by ``rotation`` (3x3) about the origin, then translated:
        centre R·c + t, inertia R I Rᵀ (made exactly symmetric)."""
        turn = np.eye(3) if rotation is None else np.asarray(rotation, float)
        inertia = turn @ self.inertia @ turn.T
        return MassProperties(self.mass, turn @ self.centre + np.asarray(translation, float), (inertia + inertia.T) / 2)


def principal_axes(tensor) -> tuple[np.ndarray, np.ndarray]:
    """``(moments, rotation)`` of a symmetric 3x3 ``tensor``: ``tensor = rotation @
    diag(moments) @ rotation.T``.

    Order and signs: ``moments`` ascending; ``rotation``'s columns are the principal
    axes, each of the first two with its largest component (the first of equal ones)
    positive, the third their cross product, so ``rotation`` is right-handed (det +1).
    Equal moments have no preferred axes: any orthonormal pair of their plane is an
    answer (a cube's are the axes Jacobi ends with).

    Cyclic Jacobi: for each pair (p, q) in turn, the plane rotation J that zeroes
    A[p, q] (Golub & Van Loan, sym.schur2):

        θ = (A[q,q] - A[p,p]) / (2 A[p,q]),   t = sign(θ) / (|θ| + sqrt(θ² + 1)),
        c = 1 / sqrt(t² + 1),   s = t·c,      A ← Jᵀ A J,   V ← V J,

    with J the identity but J[p,p] = J[q,q] = c, J[p,q] = s, J[q,p] = -s; sweeps until
    ``off(A) <= JACOBI_RTOL·‖A‖`` (at most ``JACOBI_SWEEPS``).  Only the upper triangle
    is read (the lower taken as its mirror, as LAPACK's ``eigh`` does): a tensor turned
    by R I Rᵀ is symmetric only to rounding.  The tensor is first scaled by an exact
    power of two to entries below 1 (and the moments back), so the norms' squares
    neither overflow nor underflow."""
    matrix = np.array(tensor, float)
    if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)):
        raise ValueError(f"tensor must be a finite 3x3 matrix, got {np.asarray(tensor).tolist()}")
    matrix = np.triu(matrix) + np.triu(matrix, 1).T
    exponent = int(np.frexp(np.max(np.abs(matrix)))[1])
    matrix = np.ldexp(matrix, -exponent)  # entries below 1 by an exact power of two: no squares overflow or underflow
    axes = np.eye(3)
    size = float(np.linalg.norm(matrix))
    for _ in range(JACOBI_SWEEPS):
        if _off_diagonal(matrix) <= JACOBI_RTOL * size:
            break
        for p, q in ((0, 1), (0, 2), (1, 2)):
            if matrix[p, q] == 0:
                continue
            theta = float(matrix[q, q] - matrix[p, p]) / (2 * float(matrix[p, q]))
            t = math.copysign(1.0, theta) / (abs(theta) + math.hypot(theta, 1.0))  # no overflow of θ²
            c = 1 / math.sqrt(t * t + 1)
            turn = np.eye(3)
            turn[p, p] = turn[q, q] = c
            turn[p, q], turn[q, p] = t * c, -t * c
            matrix = turn.T @ matrix @ turn
            matrix[p, q] = matrix[q, p] = 0.0  # zero by construction; the product leaves rounding there
            axes = axes @ turn
    order = np.argsort(np.diag(matrix), kind="stable")
    moments, axes = np.ldexp(np.diag(matrix)[order], exponent), axes[:, order]
    for k in (0, 1):
        if axes[np.argmax(np.abs(axes[:, k])), k] < 0:
            axes[:, k] = -axes[:, k]
    axes[:, 2] = np.cross(axes[:, 0], axes[:, 1])
    return moments, axes


def _off_diagonal(matrix: np.ndarray) -> float:
    """The Frobenius norm of the off-diagonal entries."""
    return float(np.linalg.norm(matrix - np.diag(np.diag(matrix))))


def compound(parts: list[MassProperties]) -> MassProperties:
    """One solid of ``parts`` (each in the same frame): masses summed, the centre their
    mass-weighted mean, and each part's inertia carried to it (parallel axes):

        I = Σ I_i + m_i (|d_i|² E - d_i d_iᵀ),   d_i = c_i - c."""
    if not parts:
        raise ValueError("parts must hold at least one MassProperties")
    mass = sum(part.mass for part in parts)
    centre = np.sum([part.mass * part.centre for part in parts], axis=0) / mass
    inertia = np.zeros((3, 3))
    for part in parts:
        d = part.centre - centre
        inertia = inertia + part.inertia + part.mass * (float(d @ d) * np.eye(3) - np.outer(d, d))
    return MassProperties(float(mass), centre, inertia)


def mass_properties(shape: Sphere | Capsule | ConvexPolyhedron, density: float = 1.0) -> MassProperties:
    """The mass properties of one uniform solid ``shape`` of ``density`` (finite, > 0):
    a sphere or capsule of positive radius, or a solid convex polyhedron (``dimension``
    3).  ``ValueError`` naming the argument otherwise."""
    density = positive("density", density)
    if getattr(shape, "_batch_shape", None) != ():
        raise ValueError(f"shape must be one Sphere, Capsule or ConvexPolyhedron, got {shape!r}")
    if isinstance(shape, Sphere):
        return _sphere(np.asarray(shape.center, float), positive("radius", float(shape.radius)), density)
    if isinstance(shape, Capsule):
        return _capsule(np.asarray(shape.a, float), np.asarray(shape.b, float),
                        positive("radius", float(shape.radius)), density)
    if isinstance(shape, ConvexPolyhedron):
        if shape.dimension != 3:
            raise ValueError(f"shape (vertices) must span a solid: at least 4 points not on one plane; "
                             f"its hull is {shape.dimension}-dimensional")
        return _polyhedron(np.asarray(shape.vertices, float), shape.faces, density)
    raise ValueError(f"shape must be a Sphere, Capsule or ConvexPolyhedron, got {type(shape).__name__}")


def positive(name: str, value) -> float:
    """``value`` as a float if finite and > 0, else ``ValueError`` naming ``name``."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}") from None
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return number


def _sphere(centre: np.ndarray, radius: float, density: float) -> MassProperties:
    """m = ρ·4/3·π r³, I = 2/5·m r² E."""
    mass = density * 4 / 3 * np.pi * radius ** 3
    return MassProperties(mass, centre, np.eye(3) * 0.4 * mass * radius ** 2)


def _capsule(a: np.ndarray, b: np.ndarray, radius: float, density: float) -> MassProperties:
    """A cylinder of length L (mass m_c) and two hemispheres (together m_b, a ball), about
    the centre, with u the unit axis:

        along  = m_c r²/2 + m_b·2r²/5
        across = m_c (L²/12 + r²/4) + m_b (2r²/5 + L²/4 + 3Lr/8)
        I = across·E + (along - across)·u uᵀ

    (each hemisphere's centroid is 3r/8 from its flat face, at L/2 from the centre).
    A capsule of zero length is a ball: along = across."""
    axis = b - a
    length = float(np.linalg.norm(axis))
    cylinder = density * np.pi * radius ** 2 * length
    balls = density * 4 / 3 * np.pi * radius ** 3
    along = cylinder * radius ** 2 / 2 + balls * 2 * radius ** 2 / 5
    across = cylinder * (length ** 2 / 12 + radius ** 2 / 4) + balls * (2 * radius ** 2 / 5 + length ** 2 / 4
                                                                         + 3 * length * radius / 8)
    u = axis / length if length > 0 else np.zeros(3)
    return MassProperties(cylinder + balls, (a + b) / 2, across * np.eye(3) + (along - across) * np.outer(u, u))


def _polyhedron(vertices: np.ndarray, faces, density: float) -> MassProperties:
    """The hull's integrals (``solid_integrals``) about o, the vertices' mean (inside a
    solid convex hull): the volume V, centre d = first / V (relative to o), C about o;
    about the centre of mass C_c = C - V d dᵀ, and I = ρ (tr(C_c) E - C_c)."""
    apex = vertices.mean(axis=0)
    relative = vertices - apex
    volume, first, second = solid_integrals([relative[list(loop)] for loop in faces])
    d = first / volume
    about_centre = second - volume * np.outer(d, d)
    inertia = density * (np.trace(about_centre) * np.eye(3) - about_centre)
    return MassProperties(density * volume, apex + d, (inertia + inertia.T) / 2)


def solid_integrals(loops) -> tuple[float, np.ndarray, np.ndarray]:
    """The volume V, first moment ∫x dV and second moment C = ∫x xᵀ dV of the solid
    bounded by ``loops`` (each a (k, 3) array of a face's corners, counter-clockwise
    seen from outside; together a closed surface), in the loops' coordinates (put the
    origin inside or near the solid: the sums then lose nothing to cancellation).

    Each face is fanned into triangles (a, b, c), each the base of a tetrahedron with
    apex at the origin: the signed volume V = a·(b×c)/6 (positive: faces are
    counter-clockwise from outside), the first moment V·(a+b+c)/4 and the second
    moment (the canonical tetrahedron's covariance carried to it, Blow & Binstock 2004):

        C = ∫ x xᵀ dV = V/20 · (a aᵀ + b bᵀ + c cᵀ + s sᵀ),   s = a + b + c,

    all triangles at once (array products: a loop of 3-vector products cost ~10 µs an
    operation, and a box's clip was ~1 ms a step)."""
    fans = [np.asarray(corners, float) for corners in loops if len(corners) >= 3]
    if not fans:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    a = np.concatenate([np.broadcast_to(fan[0], (len(fan) - 2, 3)) for fan in fans])
    b = np.concatenate([fan[1:-1] for fan in fans])
    c = np.concatenate([fan[2:] for fan in fans])
    s = a + b + c
    v = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6
    second = (np.einsum("i,ij,ik->jk", v, a, a) + np.einsum("i,ij,ik->jk", v, b, b)
              + np.einsum("i,ij,ik->jk", v, c, c) + np.einsum("i,ij,ik->jk", v, s, s)) / 20
    return float(v.sum()), v @ s / 4, second
