"""A small deterministic rigid-body world whose collisions are sweeplab's own sweeps.

Dynamic bodies are spheres, capsules and boxes (convex polyhedra); anything else
in the scene is static (planes, meshes, triangles, polygons, other shapes).

A step of ``dt``:

1. **Continuous collision.**  Every body's motion over the time left is swept
   against every static shape and every other body (pairs of bodies by their
   relative motion), ignoring contacts a body is already leaving
   (``ignore_separating``).  All bodies advance to the earliest contact, it is
   resolved, and the rest of the time is swept again, at most ``MAX_SUBSTEPS``
   times a step.
2. **Motion.**  Gravity is integrated exactly over the time a body moves
   (x += v·τ + ½g·τ², v += g·τ: for a constant force this is the motion itself, so
   energy is kept to rounding — semi-implicit Euler would lose it at every bounce
   that falls inside a step).  The sweep follows the chord of that parabola; the
   contact time is solved on the parabola along the contact normal (exact
   against a plane).  Rotation is integrated with the angular velocity, after the
   translation.
3. **Contacts.**  Impulses with a coefficient of restitution and Coulomb friction,
   sequentially over the contact points (the moving body's corners on the contact
   plane: a box on a face gets four), accumulated and clamped, so a resting box
   neither tips nor sinks.  Approaches slower than ``REST_SPEED`` do not bounce.

With CCD off, bodies move the whole step and overlaps at the end are pushed out:
a fast body passes a thin wall without ever overlapping it (tunnels).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sweeplab.physics import Capsule, ConvexPolyhedron, Sphere, sweep

GRAVITY = np.array([0.0, 0.0, -9.81])
MAX_SUBSTEPS = 16
REST_SPEED = 1e-3
"""Normal approach speeds below this (units/s) resolve without restitution: no
endless micro-bounces of a body at rest."""
SOLVER_ITERATIONS = 40
PATCH_RTOL = 1e-9
"""Corners within this fraction of the body's size of the contact plane are contact points."""


@dataclass
class Body:
    """A dynamic body: ``shape`` in body space (centred on its centre of mass),
    posed by ``position`` and ``rotation`` (3x3, body to world)."""

    name: str
    shape: object
    mass: float
    inertia: np.ndarray
    """Body-space inertia tensor (3x3)."""
    position: np.ndarray
    velocity: np.ndarray = field(default_factory=lambda: np.zeros(3))
    rotation: np.ndarray = field(default_factory=lambda: np.eye(3))
    angular_velocity: np.ndarray = field(default_factory=lambda: np.zeros(3))
    _pose: tuple = field(default=(), repr=False, compare=False)
    _posed: object = field(default=None, repr=False, compare=False)

    def world_shape(self):
        """The body's shape in the world, built once per pose (a box's hull takes ms)."""
        pose = (self.position.tobytes(), self.rotation.tobytes())
        if self._pose != pose:
            self._pose, self._posed = pose, self._build_world_shape()
        return self._posed

    def _build_world_shape(self):
        at, shape = self.position, self.shape
        if isinstance(shape, Sphere):
            return Sphere(at, float(shape.radius))
        if isinstance(shape, Capsule):
            return Capsule(self.rotation @ np.asarray(shape.a) + at, self.rotation @ np.asarray(shape.b) + at,
                           float(shape.radius))
        return ConvexPolyhedron(np.asarray(shape.vertices) @ self.rotation.T + at)

    def inverse_inertia(self) -> np.ndarray:
        """World-space inverse inertia: R I⁻¹ Rᵀ."""
        return self.rotation @ np.linalg.inv(self.inertia) @ self.rotation.T

    def kinetic_energy(self) -> float:
        spin = self.rotation @ self.inertia @ self.rotation.T
        return 0.5 * self.mass * float(self.velocity @ self.velocity) + \
            0.5 * float(self.angular_velocity @ spin @ self.angular_velocity)


def sphere_body(name: str, center, radius: float, density: float = 1.0) -> Body:
    mass = density * 4 / 3 * np.pi * radius ** 3
    return Body(name, Sphere([0.0, 0.0, 0.0], radius), mass, np.eye(3) * 0.4 * mass * radius ** 2,
                np.asarray(center, float))


def capsule_body(name: str, a, b, radius: float, density: float = 1.0) -> Body:
    """Inertia of a cylinder and two hemispheres about the centre (the usual formula)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    centre, axis = (a + b) / 2, b - a
    length = float(np.linalg.norm(axis))
    cylinder = density * np.pi * radius ** 2 * length
    balls = density * 4 / 3 * np.pi * radius ** 3
    along = cylinder * radius ** 2 / 2 + balls * 2 * radius ** 2 / 5
    across = cylinder * (length ** 2 / 12 + radius ** 2 / 4) + balls * (2 * radius ** 2 / 5 + length ** 2 / 4
                                                                         + 3 * length * radius / 8)
    z = axis / length if length > 0 else np.array([0.0, 0.0, 1.0])
    x = np.cross(np.eye(3)[np.argmin(np.abs(z))], z)
    x /= np.linalg.norm(x)
    frame = np.stack([x, np.cross(z, x), z], axis=1)  # body axes in the world: the capsule along body z
    half = np.array([0.0, 0.0, length / 2])
    return Body(name, Capsule(-half, half, radius), cylinder + balls, np.diag([across, across, along]), centre,
                rotation=frame)


def box_body(name: str, half_extents, center, rotation=None, density: float = 1.0) -> Body:
    half = np.asarray(half_extents, float)
    mass = density * 8 * float(np.prod(half))
    inertia = np.diag([mass / 3 * (half[1] ** 2 + half[2] ** 2), mass / 3 * (half[0] ** 2 + half[2] ** 2),
                       mass / 3 * (half[0] ** 2 + half[1] ** 2)])
    return Body(name, ConvexPolyhedron.box(half), mass, inertia, np.asarray(center, float),
                rotation=np.eye(3) if rotation is None else np.asarray(rotation, float))


@dataclass(frozen=True)
class ContactEvent:
    """A resolved contact: the pair, when, where, the normal (from the second towards
    the first) and the normal impulse applied."""

    first: str
    second: str
    time: float
    point: np.ndarray
    normal: np.ndarray
    impulse: float


@dataclass
class World:
    bodies: list[Body]
    statics: dict[str, object]
    """Static physics shapes in the world, by name."""
    restitution: float = 0.5
    friction: float = 0.5
    gravity: np.ndarray = field(default_factory=lambda: GRAVITY.copy())
    ccd: bool = True
    time: float = 0.0
    events: list[ContactEvent] = field(default_factory=list)

    # --- a step ---------------------------------------------------------------

    def step(self, dt: float) -> None:
        if self.ccd:
            self._continuous_step(dt)
        else:
            self._discrete_step(dt)
        for body in self.bodies:
            body.rotation = _turned(body.rotation, body.angular_velocity * dt)

    def _continuous_step(self, dt: float) -> None:
        left = dt
        resting: set = set()
        """Pairs resolved at the start of a substep: not swept again this step (a box
        that the solver left turning would otherwise meet the floor at t = 0 every
        substep; what it sinks meanwhile, the next step pushes out)."""
        for _ in range(MAX_SUBSTEPS):
            if left <= 0:
                return
            chords = [body.velocity * left + 0.5 * self.gravity * left * left for body in self.bodies]
            contact = self._earliest_contact(chords, resting)
            if contact is None:
                self._advance(left)
                self.time += left
                return
            fraction, first, second, point, normal, depth = contact
            if depth > 0:  # a turn (rotation is not swept) or a resting body's rounding put it inside: out first
                self.bodies[first].position = self.bodies[first].position + depth * normal
                point = point + depth * normal
            elapsed = self._contact_time(first, chords[first], normal, fraction, left)
            self._advance(elapsed)
            self.time += elapsed
            left -= elapsed
            self._resolve(first, second, point, normal, left)
            if fraction == 0:
                resting.add((first, second))
        self._advance(left)  # the substeps ran out: move on without sweeping (rare; the event list shows why)
        self.time += left

    def _discrete_step(self, dt: float) -> None:
        self._advance(dt)
        self.time += dt
        for index, body in enumerate(self.bodies):
            shape = body.world_shape()
            for name, target in self._targets(index):
                found = sweep(shape, target if name in self.statics else self._body(name).world_shape(),
                              np.zeros(3))
                if found.hit and found.initially_overlapping:  # push out, then resolve as a contact
                    body.position = body.position + float(found.penetration_depth) * np.asarray(found.normal)
                    self._resolve(index, name, np.asarray(found.point), np.asarray(found.normal), 0.0)
                    shape = body.world_shape()

    def _targets(self, index: int):
        yield from self.statics.items()
        for other in self.bodies[index + 1:]:
            yield other.name, None

    def _body(self, name: str) -> Body:
        return next(body for body in self.bodies if body.name == name)

    def _earliest_contact(self, chords, skip=frozenset()):
        best = None
        for index, body in enumerate(self.bodies):
            shape = body.world_shape()
            for name, target in self._targets(index):
                if (index, name) in skip:
                    continue
                motion = chords[index]
                if target is None:
                    other = self._body(name)
                    target = other.world_shape()
                    motion = motion - chords[self.bodies.index(other)]
                if not np.any(motion):
                    continue
                found = sweep(shape, target, motion, ignore_separating=True)
                if found.hit and (best is None or found.t < best[0]):
                    depth = float(found.penetration_depth) if found.initially_overlapping else 0.0
                    best = (float(found.t), index, name, np.asarray(found.point, float),
                            np.asarray(found.normal, float), depth)
        return best

    def _contact_time(self, index: int, chord, normal, fraction: float, left: float) -> float:
        """The time at which the body's parabola covers ``fraction`` of its chord along
        the contact normal: ½(g·n)τ² + (v·n)τ = fraction·(chord·n)."""
        body = self.bodies[index]
        a, b, c = 0.5 * float(self.gravity @ normal), float(body.velocity @ normal), -fraction * float(chord @ normal)
        if fraction <= 0 or c == 0:
            return fraction * left
        if a == 0:
            return min(max(-c / b, 0.0), left) if b != 0 else fraction * left
        discriminant = b * b - 4 * a * c
        if discriminant < 0:
            return fraction * left
        root = np.sqrt(discriminant)
        roots = [r for r in ((-b - root) / (2 * a), (-b + root) / (2 * a)) if 0 <= r <= left]
        return min(roots) if roots else fraction * left

    def _advance(self, elapsed: float) -> None:
        for body in self.bodies:
            body.position = body.position + body.velocity * elapsed + 0.5 * self.gravity * elapsed * elapsed
            body.velocity = body.velocity + self.gravity * elapsed

    # --- impulses ----------------------------------------------------------------------

    def _resolve(self, index: int, name: str, point: np.ndarray, normal: np.ndarray, left: float) -> None:
        """Sequential impulses at every contact point of the body on the contact plane.

        The normal velocity each point leaves with is the bounce (restitution times
        the approach), and against a static shape at least the *support*
        ``-(g·n)·left/2``: the speed whose chord over the time ``left`` still to go
        cancels gravity's pull into the surface — the normal force of a resting
        contact, so a body at rest neither sinks nor is swept into the surface again."""
        body = self.bodies[index]
        other = self._body(name) if name not in self.statics else None
        points = _contact_points(body, point, normal)
        approach = self._relative_velocity(body, other, point) @ normal
        bounce = self.restitution if -approach > REST_SPEED else 0.0
        support = 0.0 if other is not None else max(-0.5 * float(self.gravity @ normal) * left, 0.0)
        leaving = [max(-bounce * min(float(self._relative_velocity(body, other, p) @ normal), 0.0), support)
                   for p in points]
        normal_sum, tangent_sum = np.zeros(len(points)), np.zeros((len(points), 3))
        for _ in range(SOLVER_ITERATIONS):
            for k, p in enumerate(points):
                relative = self._relative_velocity(body, other, p)
                mass = _effective_mass(body, other, p, normal)
                change = (leaving[k] - float(relative @ normal)) * mass
                new = max(normal_sum[k] + change, 0.0)
                self._apply(body, other, p, (new - normal_sum[k]) * normal)
                normal_sum[k] = new
                relative = self._relative_velocity(body, other, p)
                slide = relative - float(relative @ normal) * normal
                speed = float(np.linalg.norm(slide))
                if speed == 0:
                    continue
                direction = slide / speed
                wanted = tangent_sum[k] - speed * _effective_mass(body, other, p, direction) * direction
                limit = self.friction * normal_sum[k]
                size = float(np.linalg.norm(wanted))
                if size > limit:
                    wanted = wanted * (limit / size)
                self._apply(body, other, p, wanted - tangent_sum[k])
                tangent_sum[k] = wanted
        self.events.append(ContactEvent(body.name, name, self.time, point, normal, float(normal_sum.sum())))

    @staticmethod
    def _relative_velocity(body: Body, other: Body | None, point) -> np.ndarray:
        velocity = body.velocity + np.cross(body.angular_velocity, point - body.position)
        if other is not None:
            velocity = velocity - other.velocity - np.cross(other.angular_velocity, point - other.position)
        return velocity

    @staticmethod
    def _apply(body: Body, other: Body | None, point, impulse) -> None:
        body.velocity = body.velocity + impulse / body.mass
        body.angular_velocity = body.angular_velocity + body.inverse_inertia() @ np.cross(point - body.position,
                                                                                          impulse)
        if other is not None:
            other.velocity = other.velocity - impulse / other.mass
            other.angular_velocity = other.angular_velocity - other.inverse_inertia() @ np.cross(
                point - other.position, impulse)


def _effective_mass(body: Body, other: Body | None, point, direction) -> float:
    """1 / (the velocity change along ``direction`` at ``point`` per unit impulse)."""
    arm = point - body.position
    response = 1 / body.mass + float(direction @ np.cross(body.inverse_inertia() @ np.cross(arm, direction), arm))
    if other is not None:
        arm = point - other.position
        response += 1 / other.mass + float(direction @ np.cross(other.inverse_inertia() @ np.cross(arm, direction),
                                                                 arm))
    return 1 / response


def _contact_points(body: Body, point, normal) -> list[np.ndarray]:
    """Where the body touches the contact plane (through ``point``, normal ``normal``):
    a box's corners on it (a face: four, an edge: two), a capsule's end balls
    touching it (lying flat: two), else the point."""
    shape = body.world_shape()
    if isinstance(shape, ConvexPolyhedron):
        corners = np.asarray(shape.vertices)
        size = float(np.max(np.abs(corners - body.position)))
        heights = (corners - point) @ normal
        touching = corners[heights <= heights.min() + PATCH_RTOL * size]
        return list(touching) if len(touching) > 1 else [np.asarray(point)]
    if isinstance(shape, Capsule):
        ends = [np.asarray(shape.a) - float(shape.radius) * normal, np.asarray(shape.b) - float(shape.radius) * normal]
        heights = [float((end - point) @ normal) for end in ends]
        size = float(np.linalg.norm(np.asarray(shape.b) - np.asarray(shape.a))) + float(shape.radius)
        if abs(heights[0] - heights[1]) <= PATCH_RTOL * size:
            return ends
    return [np.asarray(point)]


def _turned(rotation: np.ndarray, angle: np.ndarray) -> np.ndarray:
    """``rotation`` turned by the rotation vector ``angle`` (Rodrigues), re-orthonormalised."""
    size = float(np.linalg.norm(angle))
    if size == 0:
        return rotation
    axis = angle / size
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    turn = np.eye(3) + np.sin(size) * k + (1 - np.cos(size)) * (k @ k)
    u, _, vt = np.linalg.svd(turn @ rotation)
    return u @ vt
