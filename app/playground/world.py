"""A small deterministic rigid-body world whose collisions are sweeplab's own sweeps.

Dynamic bodies are spheres, capsules and convex polyhedra (boxes, and hulls with
their exact inertia: ``hull_body``); anything else in the scene is static (planes,
meshes, triangles, polygons, other shapes).

A step of ``dt``:

1. **Continuous collision.**  Every awake body's motion over the time left,
   translation and turn, is swept against the static shapes and other bodies whose
   boxes its motion's box meets (``pairs``: sweep and prune; bodies a joint joins,
   and pairs ``pair_filter`` refuses, never) (``ccd.first_contact``: pairs of bodies
   by their relative motion, or both motions in the world when one turns), ignoring
   contacts a body is already leaving.  All bodies advance to the earliest contact, it is resolved, and the
   rest of the time is swept again, at most ``MAX_SUBSTEPS`` times a step.  A pair
   resolved touching is not swept again in the step while neither body's velocity
   changes, unless one of them turns (a turning body may leave a contact and meet
   the shape elsewhere: a box rocking off an edge onto a face); when a velocity
   changes, the pairs still touching that body (this step's, and those touching at
   the end of the last) are solved with the new contact as one group (a stack), and
   the others are swept again.
2. **Motion.**  Gravity is integrated exactly over the time a body moves
   (x += v·τ + ½g·τ², v += g·τ: for a constant force this is the motion itself, so
   energy is kept to rounding — semi-implicit Euler would lose it at every bounce
   that falls inside a step).  The sweep follows the chord of that parabola; the
   contact time with a static shape is solved on the parabola along the contact
   normal (exact against a plane); two bodies fall alike, so their relative motion
   is the chord itself and the contact time is its fraction of the time left.
   Over the same time a body turns at its angular velocity (R ← exp(τ [ω]×) R), and
   the sweep turns it so (``ccd``: the turn swept about the centre of mass, when it
   moves the body more than ``ccd.TURN_SLOP`` of its reach).  A turning body meets a
   static shape at the sweep's own fraction of the time left, where its turn is the
   swept one; the body is then above the chord by ``lift`` = ½|g|τ(τ_left - τ) against
   gravity, and that lift along the normal is the contact's gap (or, against a
   shape above it, the overlap pushed out).
3. **Contacts.**  Impulses with a coefficient of restitution and Coulomb friction,
   the pair's materials combined (``materials.combined``: restitution the larger,
   friction √(μ₁μ₂); a body or static shape without its own has the world's),
   sequentially over the contact points (the patch where the two shapes' faces on
   the contact plane overlap, ``patch.contact_patch``: a box on a face gets four),
   accumulated and clamped, so a resting box neither tips nor sinks; friction aims
   at the sliding speed that cancels gravity along the surface over the time left.
   Approaches slower than 1.5·|g|·dt (or ``REST_SPEED``) do not bounce.  A group is solved in layers from the
   ground up, the body nearer the ground held (shock propagation: a heavy body cannot
   press a light one through what it rests on), each contact starting from its
   pair's impulses of the last step (warm start: a resting stack converges at once).
   An overlap (a body resting within rounding of a shape, a turning body's lift
   towards a shape above it) is pushed out, between two bodies by their inverse
   masses, never into what a body rests on.  The sequential impulses are compiled
   (``impulses``); joints' rows are relaxed with them (``joints``).
4. **Rest and sleep.**  The pairs still touching at the step's end are solved for no
   approach (``_come_to_rest``): a body at rest reads zero velocity.  Islands of
   bodies linked by contacts and joints that have been still for
   ``sleep.TIME_TO_SLEEP`` sleep (``sleep``), and the step's contacts go to the
   callbacks (``callbacks``).

**Kinematic bodies** (``Body.kinematic``) move by their velocity and angular velocity
alone: no gravity, and infinite mass in every solve: a kinematic body is a support
below the ground in the layers (``_support_levels``: -1, a body touching it is on the
ground floor), so every contact holds it (weight 0 in ``impulses``, as a static
shape) and a push-out moves only the dynamic body; they push and are never pushed.
They are swept against the dynamic bodies only (never against static shapes or other
kinematic bodies).  A dynamic body against one meets it along
their relative parabola (gravity pulls one of them only), as against a static shape.

**Forces and impulses** from outside (``apply_force``, ``apply_impulse``; ``drive``
states how each is integrated): a force adds its acceleration to the body's gravity
over the next step, then is cleared.

**Still water** (``water``, ``buoyancy``): each step every awake dynamic body under it gets its
buoyancy and drag as such a force; a still float sleeps as on the ground, and a change
of the water wakes every body.

**Water** (``pool``, a ``pool.Pool``): stepped at the start of each step with the
bodies where they are; its push on each body (buoyancy and drag) is added to the
body's forces for the step, as ``apply_force``'s are.

With CCD off, bodies move the whole step and the overlaps at its end are pushed out
and resolved as one group: a fast body passes a thin wall without ever overlapping
it (tunnels).
"""

from __future__ import annotations

import math
import time as clock
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sweeplab.physics import Capsule, ConvexPolyhedron, Plane, Sphere, sweep
from sweeplab.physics.shapes import Shape
from sweeplab.physics.solve import solve_quadratic
from sweeplab.playground import drive
from sweeplab.physics.tolerance import POSED_ROTATION_ATOL
from sweeplab.playground import buoyancy, energy
from sweeplab.playground.callbacks import Callback, ContactPair, ContactTracker
from sweeplab.playground.ccd import Mover, first_contact, still, turn_over
from sweeplab.playground.joints import Joint, Link, Spring, settle
from sweeplab.playground.mass import mass_properties, positive
from sweeplab.playground.materials import Material, combined
from sweeplab.playground.impulses import Layer, Solve, point_velocity
from sweeplab.playground.pairs import boxes_meeting, near_plane, overlapping_pairs, static_box, swept_boxes
from sweeplab.playground.particles import Particles
from sweeplab.playground.patch import contact_patch
from sweeplab.playground.pool import Pool
from sweeplab.playground.sleep import SLEEP_SPEED, TIME_TO_SLEEP, islands, point_speed_bound
from sweeplab.playground.state import WorldState, capture, restore
from sweeplab.playground.stats import StepStats

GRAVITY = np.array([0.0, 0.0, -9.81])
MAX_SUBSTEPS = 16
REST_SPEED = 1e-3
"""Normal approach speeds below this (units/s) resolve without restitution: no
endless micro-bounces of a body at rest."""
SOLVER_ITERATIONS = 40
EVENT_HISTORY = 50_000
"""Contact events kept (~20 MB): a stack resting in the editor adds a few every step,
~650,000 an hour at 60 Hz."""
PUSH_OUT_PASSES = 4
"""With CCD off, passes over every pair pushing overlaps out (a stack pushed up from
the floor reopens the overlap above)."""
REST_GAP = 1e-9
"""A pair is still touching at the step's end (``World._come_to_rest``) when its gap is at
most this fraction of the body's reach: a resting body's parabola ends on the surface to
rounding (~1e-16 of it); a body landing just after the step's end, falling, is farther."""
SOLVER_RTOL = 1e-13
"""A layer's iterations stop once one changes no impulse by more than this fraction of
the layer's largest (a resting body: one or two iterations, not 40).  Relative to each
contact's own, a side contact carrying ~1e-10 never got there and kept its layer at 40."""
CONTACT_SLOP = 5e-3
"""Corners within this fraction of the body's reach of the contact plane are on the
shape's face there (Box2D's "linear slop", relative); the same distance is a resting
pair's probe beyond its hover, and a clip's tolerance.  Far
smaller, a body landing on a corner or an end rocks for ever: each step one point takes
the support speed, which turns the body onto the other (a capsule at 1e-9: 0.21 rad/s
after 10 s); within the slop both hold it together.  A body may rest tilted by up to
this much."""


@dataclass
class Body:
    """A dynamic body: ``shape`` in body space (centred on its centre of mass, its axes
    the principal axes, so ``inertia`` is diagonal for the bodies made here), posed by
    ``position`` and ``rotation`` (3x3, body to world); ``material`` None: the world's;
    ``kinematic``: moved by its velocities alone, of infinite mass (module docstring).
    ``ValueError`` naming the field for a mass that is not finite and > 0, an inertia
    that is not a finite symmetric positive-definite 3x3, a vector that is not 3
    finite numbers, a rotation that is not one (to ``POSED_ROTATION_ATOL``)."""

    name: str
    shape: Sphere | Capsule | ConvexPolyhedron
    mass: float
    inertia: np.ndarray
    """Body-space inertia tensor (3x3)."""
    position: np.ndarray
    velocity: np.ndarray = field(default_factory=lambda: np.zeros(3))
    rotation: np.ndarray = field(default_factory=lambda: np.eye(3))
    angular_velocity: np.ndarray = field(default_factory=lambda: np.zeros(3))
    material: Material | None = None
    kinematic: bool = False
    asleep: bool = False
    """Set by the world (``sleep``): not moved, swept or solved until woken."""
    still_for: float = 0.0
    """Seconds the body has been still (``sleep.SLEEP_SPEED``), as of the last step."""
    _slept: np.ndarray = field(default_factory=lambda: np.zeros(18), repr=False, compare=False)
    """Its velocities (zero), position and rotation as it fell asleep: changed (an edit, a
    user's assignment), it wakes."""
    _reach: tuple = field(default=(), repr=False, compare=False)
    _still: Mover | None = field(default=None, repr=False, compare=False)
    _pose: tuple = field(default=(), repr=False, compare=False)
    _posed: object = field(default=None, repr=False, compare=False)
    _inverse_key: tuple = field(default=(), repr=False, compare=False)
    _inverse: np.ndarray = field(default_factory=lambda: np.zeros((3, 3)), repr=False, compare=False)

    def __post_init__(self):
        self.mass = positive("mass", self.mass)
        inertia = np.asarray(self.inertia, float)
        if inertia.shape != (3, 3) or not np.all(np.isfinite(inertia)) or not np.array_equal(inertia, inertia.T) \
                or not np.all(np.linalg.eigvalsh(inertia) > 0):
            raise ValueError(f"inertia must be a finite symmetric positive-definite 3x3 matrix, got {inertia.tolist()}")
        for name in ("position", "velocity", "angular_velocity"):
            vector = np.asarray(getattr(self, name), float)
            if vector.shape != (3,) or not np.all(np.isfinite(vector)):
                raise ValueError(f"{name} must be 3 finite numbers, got {getattr(self, name)!r}")
        rotation = np.asarray(self.rotation, float)
        if rotation.shape != (3, 3) or not np.all(np.isfinite(rotation)) or np.linalg.det(rotation) < 0 \
                or not np.allclose(rotation @ rotation.T, np.eye(3), rtol=0.0, atol=POSED_ROTATION_ATOL):
            raise ValueError(f"rotation must be a 3x3 rotation matrix (orthonormal, det +1), got {rotation.tolist()}")
        if self.material is not None and not isinstance(self.material, Material):
            raise ValueError(f"material must be a Material or None, got {self.material!r}")

    def world_shape(self):
        """The body's shape in the world, built once per pose."""
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
        return shape.posed(self.rotation, at)  # the body-space hull moved rigidly: no hull search per pose

    def reach(self) -> float:
        """The farthest the shape reaches from the centre of mass (kept per shape)."""
        shape = self.shape
        if not self._reach or self._reach[0] is not shape:
            rounding = float(shape.radius) if isinstance(shape, (Sphere, Capsule)) else 0.0
            self._reach = (shape, self.core_reach() + rounding)
        return self._reach[1]

    def core_reach(self) -> float:
        """The farthest a point of the shape's core (a sphere's centre, a capsule's
        segment, a polyhedron itself) lies from the centre of mass: what a turn moves."""
        shape = self.shape
        if isinstance(shape, Sphere):
            return 0.0
        if isinstance(shape, Capsule):
            return float(max(np.linalg.norm(shape.a), np.linalg.norm(shape.b)))
        return float(np.max(np.linalg.norm(np.asarray(shape.vertices, float), axis=1)))

    def mover(self, chord: np.ndarray | None, window: float) -> Mover:
        """The body over ``window`` seconds as the sweep sees it: its shape now, its
        centre of mass covering ``chord``, turning at its angular velocity about it (a
        sleeping body: still, whatever ``chord``; kept while its shape is)."""
        reach = self.reach()
        if self.asleep or chord is None:
            shape = self.world_shape()
            if self._still is None or self._still.shape is not shape:
                self._still = Mover(shape, np.zeros(3), None, self.position, reach)
            return self._still
        turn = turn_over(self.angular_velocity, window, self.core_reach(), reach)
        return Mover(self.world_shape(), chord, turn, self.position, reach)

    def inverse_inertia(self) -> np.ndarray:
        """World-space inverse inertia: R I⁻¹ Rᵀ (built once per rotation)."""
        key = (self.rotation.tobytes(), self.inertia.tobytes())
        if self._inverse_key != key:
            self._inverse_key = key
            self._inverse = self.rotation @ np.linalg.inv(self.inertia) @ self.rotation.T
        return self._inverse

    def kinetic_energy(self) -> float:
        spin = self.rotation @ self.inertia @ self.rotation.T
        return 0.5 * self.mass * float(self.velocity @ self.velocity) + \
            0.5 * float(self.angular_velocity @ spin @ self.angular_velocity)


def sphere_body(name: str, center, radius: float, density: float = 1.0) -> Body:
    shape = Sphere([0.0, 0.0, 0.0], positive("radius", radius))
    props = mass_properties(shape, density)
    return Body(name, shape, props.mass, props.inertia, np.asarray(center, float))


def capsule_body(name: str, a, b, radius: float, density: float = 1.0) -> Body:
    """A capsule from ``a`` to ``b`` (world), its body z along the axis."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    centre, axis = (a + b) / 2, b - a
    length = math.hypot(*axis)  # (no square to underflow: a length of 1e-159 squared is subnormal)
    z = axis / length if length > 0 else np.array([0.0, 0.0, 1.0])
    x = np.cross(np.eye(3)[np.argmin(np.abs(z))], z)
    x /= np.linalg.norm(x)
    frame = np.stack([x, np.cross(z, x), z], axis=1)  # body axes in the world: the capsule along body z
    half = np.array([0.0, 0.0, length / 2])
    shape = Capsule(-half, half, positive("radius", radius))
    props = mass_properties(shape, density)
    return Body(name, shape, props.mass, props.inertia, centre, rotation=frame)


def box_body(name: str, half_extents, center, rotation=None, density: float = 1.0) -> Body:
    """A box of ``half_extents`` (each finite and > 0): I = m/3·(h_y² + h_z², ...)."""
    half = np.array([positive(f"half_extents[{k}]", h) for k, h in enumerate(np.ravel(half_extents))])
    if half.shape != (3,):
        raise ValueError(f"half_extents must be 3 numbers, got {half_extents!r}")
    mass = positive("density", density) * 8 * float(np.prod(half))
    inertia = np.diag([mass / 3 * (half[1] ** 2 + half[2] ** 2), mass / 3 * (half[0] ** 2 + half[2] ** 2),
                       mass / 3 * (half[0] ** 2 + half[1] ** 2)])
    return Body(name, ConvexPolyhedron.box(half), mass, inertia, np.asarray(center, float),
                rotation=np.eye(3) if rotation is None else np.asarray(rotation, float))


def hull_body(name: str, vertices, position=None, rotation=None, density: float = 1.0) -> Body:
    """The solid convex hull of ``vertices`` (V, 3), placed in the world at
    ``rotation @ v + position`` (None: identity, origin), as a body whose frame is its
    principal frame at its centre of mass (``mass.principal_axes``): the shape in body
    space is P^T (v - c), the inertia diag(moments), and the body's rotation R·P, so it
    sits where the vertices put it.  ``ValueError`` for a hull that is not a solid."""
    shape = ConvexPolyhedron(vertices)
    props = mass_properties(shape, density)
    moments, axes = props.principal()
    turn = np.eye(3) if rotation is None else np.asarray(rotation, float)
    at = np.zeros(3) if position is None else np.asarray(position, float)
    if turn.shape != (3, 3):
        raise ValueError(f"rotation must be a 3x3 rotation matrix, got {rotation!r}")
    if at.shape != (3,):
        raise ValueError(f"position must be 3 finite numbers, got {position!r}")
    return Body(name, shape.posed(axes.T, -axes.T @ props.centre), props.mass, np.diag(moments),
                turn @ props.centre + at, rotation=turn @ axes)


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
    statics: dict[str, Shape]
    """Static physics shapes in the world, by name."""
    restitution: float = 0.5
    friction: float = 0.5
    """The default material's (``Material``): a body's or static shape's without its own."""
    gravity: np.ndarray = field(default_factory=lambda: GRAVITY.copy())
    ccd: bool = True
    materials: dict[str, Material] = field(default_factory=dict)
    """Static shapes' materials by name (a shape not named: the default material)."""
    time: float = 0.0
    events: list[ContactEvent] = field(default_factory=list)
    contact_count: int = 0
    """Every contact resolved since the start (``events`` keeps the latest)."""
    joints: list[Joint] = field(default_factory=list)
    """Constraints and springs (``joints``), added by ``add_joint``.  Two bodies a joint
    joins never collide with each other (Box2D's ``collideConnected`` false, its
    default): their shapes touch or overlap at the anchor, and a contact there asks for
    what the joint's rows forbid — the ragdoll's bent knee, its capsules' ends overlapping
    by the hinge, traded impulses between the two that doubled its energy at each
    solve (8e106 J within one step at the stairs)."""
    events_energy: list[energy.EnergyEvent] = field(default_factory=list)
    """Rises of energy no collision explains (``energy``: the failing spring)."""
    clamp_energy: bool = False
    """Scale such a group's velocities back to the allowed energy."""
    allow_sleep: bool = True
    """Islands of bodies still for ``sleep.TIME_TO_SLEEP`` sleep (``sleep``)."""
    pair_filter: Callable[[str, str], bool] | None = None
    """Called with a body's name and a static shape's or another body's: False, and the
    pair never collides (their contacts are neither swept, solved nor reported)."""
    on_begin: Callback | None = None
    """Contact callbacks (``callbacks``): a pair's contact begins, persists, ends."""
    on_persist: Callback | None = None
    on_end: Callback | None = None
    particles: Particles | None = None
    """A particle fluid (``particles``), stepped at the start of each step: its
    impulses on bodies are theirs before they move."""
    water: buoyancy.Water | None = None
    """A still water plane (``buoyancy``): each step, every awake dynamic body under it
    gets its buoyancy and drag as a force over the step; a change of it wakes every body."""
    _water_stepped: buoyancy.Water | None = field(default=None, repr=False)
    """The water of the last step (a different one now wakes the bodies)."""
    pool: Pool | None = None
    """Shallow water the bodies swim in (``pool``): stepped at each step's start with
    the bodies where they are, its push on each body applied over the step as a force
    and torque (as ``apply_force``'s): a body in the water is kept awake."""
    _contacts: ContactTracker = field(default_factory=ContactTracker, repr=False)
    _resting: dict = field(default_factory=dict, repr=False)
    """The pairs touching at the end of the last step, with their normals: candidates
    for this step's groups, and what each body rests on when an overlap is pushed out."""
    _warm: dict = field(default_factory=dict, repr=False)
    """Each touching pair's impulses at its last solve (normal per point, tangent per point)."""
    _pushes: dict[str, drive.Push] = field(default_factory=dict, repr=False)
    """Forces applied for the next step, by body name (``apply_force``)."""
    _slots: dict = field(default_factory=dict, repr=False)
    """Each body's index by name (``_index``)."""
    _static_boxes: dict = field(default_factory=dict, repr=False)
    """Each static shape's box (``pairs.static_box``), with the shape it was taken of."""
    _at_rest: dict = field(default_factory=dict, repr=False)
    """The pairs still touching at the end of the last step (``_come_to_rest``), with their ``Touch``."""
    _rest_speed: float = field(default=REST_SPEED, repr=False)
    """This step's resting approach speed: ``REST_SPEED`` or 1.5·|g|·dt, the larger.  A
    body resting on a supported body meets it at g·dt every step; above the threshold
    that was a bounce, and a box floated on a box (2 mm with restitution 0.5)."""
    _touched: set = field(default_factory=set, repr=False)
    """The bodies in the last step's contact events (``energy.check`` skips them)."""
    _dt: float = field(default=0.0, repr=False)
    """This step's length (the joints' position correction is spread over a step)."""
    _iterations: int = field(default=0, repr=False)
    """Solver iterations since the start (every layer's, the joints' own solve too)."""
    last_stats: StepStats = field(default_factory=StepStats, repr=False)
    """The latest step's work (``stats.StepStats``)."""
    _tally: list[int] = field(default_factory=lambda: [0, 0], repr=False)
    """This step's substeps and sweeps so far (``last_stats`` at its end)."""

    # --- state ----------------------------------------------------------------

    def snapshot(self) -> WorldState:
        """Everything a step reads and writes, as it is now (``state.capture``)."""
        return capture(self)

    def restore(self, state: WorldState) -> None:
        """Back to ``state``: the world continues bit for bit as from the snapshot."""
        restore(self, state)

    # --- joints -----------------------------------------------------------------

    def add_joint(self, joint: Joint) -> Joint:
        """Add ``joint`` (its anchors and axes bound to its bodies as they are now).
        ``ValueError`` naming the argument, the world unchanged, for a joint on a body
        that is not in the world, a joint of a body to itself, or one added already."""
        if not isinstance(joint, Joint):
            raise ValueError(f"joint must be a Joint, got {type(joint).__name__}")
        names = {body.name for body in self.bodies}
        for role, name in (("first", joint.first), ("second", joint.second)):
            if (name is not None or role == "first") and name not in names:
                raise ValueError(f"joint.{role} {name!r} is not a body of the world")
        if joint.first == joint.second:
            raise ValueError(f"joint joins {joint.first!r} to itself")
        if any(joint is other for other in self.joints):
            raise ValueError("joint is in the world already")
        joint.bind(*self.joint_bodies(joint))
        self.joints.append(joint)
        return joint

    def remove_joint(self, joint: Joint) -> None:
        """Take ``joint`` out (``ValueError`` when it is not in the world)."""
        kept = [other for other in self.joints if other is not joint]
        if len(kept) == len(self.joints):
            raise ValueError("joint is not in the world")
        self.joints = kept

    def joint_errors(self) -> dict[Joint, float]:
        """Each joint's position error now: its largest row violation (units for a
        point or distance, radians for an axis or a limit; a spring's stretch)."""
        return {joint: joint.error(*self.joint_bodies(joint)) for joint in self.joints}

    def joint_bodies(self, joint: Joint) -> tuple[Body, Body | None]:
        """The joint's first body and its second (``None``: the world)."""
        second = None if joint.second is None else self.bodies[self._index(joint.second)]
        return self.bodies[self._index(joint.first)], second

    def _links(self, indices: set[int], left: float) -> list[Link]:
        """The rigid joints with a body among ``indices``, with their rows over ``left``."""
        names = {self.bodies[index].name for index in indices}
        return [Link.of(joint, *self.joint_bodies(joint), left, self._dt, self.gravity) for joint in self.joints
                if (joint.first in names or joint.second in names) and len(joint.impulse)]

    def _solve_joints(self, dt: float) -> None:
        """The start of a step with joints: the springs' impulses over the step, then
        every rigid joint warm-started and solved with the resting contacts of its bodies."""
        jointed = {index for index, body in enumerate(self.bodies) if not body.asleep
                   and any(body.name in (joint.first, joint.second) for joint in self.joints)}
        for joint in self.joints:
            if self._index(joint.first) in jointed:  # a sleeping island's joints sleep with it
                joint.kick(*self.joint_bodies(joint), dt)
        links = self._links(jointed, dt)
        for link in links:
            link.warm_start()
        settle(links)
        hover = float(np.linalg.norm(self.gravity)) * dt * dt / 8
        group = []
        for pair, normal in self._resting.items():
            touch = self._touch(pair, normal, hover) if self._pair_bodies(pair) & jointed else None
            if touch is not None:
                group.append((pair, touch))
        if group or links:
            self._resolve(group, dt, {pair for pair, _ in group}, links=links)

    def __post_init__(self):
        Material(self.restitution, self.friction)  # ValueError naming restitution or friction
        if self.water is not None and not isinstance(self.water, buoyancy.Water):
            raise ValueError(f"water must be a buoyancy.Water or None, got {self.water!r}")
        if self.pool is not None and not isinstance(self.pool, Pool):
            raise ValueError(f"pool must be a Pool or None, got {type(self.pool).__name__}")
        for name, material in self.materials.items():
            if name not in self.statics or not isinstance(material, Material):
                raise ValueError(f"materials must map static shapes' names to Materials, got {name!r}: {material!r}")

    # --- pushes from outside ----------------------------------------------------

    def apply_force(self, name: str, force, point=None) -> None:
        """A world-space ``force`` (N) on body ``name`` at the world ``point`` (None: its
        centre of mass), over the next step only (``drive``); forces add up.
        ``ValueError`` for an unknown or kinematic body, or a force or point that is not
        3 finite numbers (the world unchanged)."""
        body, force, point = self._push_target(name, force, point, "force")
        self._push(name, force, np.cross(drive.arm(body, point), force))

    def _push(self, name: str, force: np.ndarray, torque: np.ndarray) -> None:
        """``force`` through body ``name``'s centre of mass and ``torque`` about it, over the next step."""
        push = self._pushes.setdefault(name, drive.Push(np.zeros(3), np.zeros(3)))
        push.force = push.force + force
        push.torque = push.torque + torque
        self._wake_islands({self._index(name)})  # (a body of the world: ``wake``'s name check is not needed)

    def apply_impulse(self, name: str, impulse, point=None) -> None:
        """A world-space ``impulse`` (N·s) on body ``name`` at the world ``point`` (None:
        its centre of mass), applied now: Δv = J/m, Δω = I⁻¹(r × J).  Validated as
        ``apply_force``."""
        body, impulse, point = self._push_target(name, impulse, point, "impulse")
        drive.apply_impulse(body, impulse, point)
        self.wake(name)

    def _push_target(self, name: str, vector, point, argument: str):
        """The body, vector and point of a push, validated before anything changes."""
        if not any(body.name == name for body in self.bodies):
            raise ValueError(f"name: no body {name!r} in the world")
        body = self.bodies[self._index(name)]
        drive.pushable(body, "name")
        return body, drive.vector(argument, vector), None if point is None else drive.vector("point", point)

    def acceleration(self, body: Body) -> np.ndarray:
        """The body's constant acceleration over this step: gravity plus its applied
        forces over its mass; none for a kinematic body."""
        if body.kinematic:
            return np.zeros(3)
        push = self._pushes.get(body.name)
        return self.gravity if push is None else self.gravity + push.force / body.mass

    def _relative_acceleration(self, pair: Pair) -> np.ndarray:
        """The first body's acceleration less the second's (a static shape's: 0)."""
        first, second = pair
        own = self.acceleration(self.bodies[first])
        return own if second in self.statics else own - self.acceleration(self.bodies[self._index(second)])

    # --- a step ---------------------------------------------------------------

    def step(self, dt: float) -> list[ContactEvent]:
        """Advance ``dt``; the step's contact events.  ``events`` keeps the latest
        ``EVENT_HISTORY`` to ``2·EVENT_HISTORY`` (trimmed after a step), ``contact_count``
        counts them all."""
        if not (isinstance(dt, (int, float)) and math.isfinite(dt) and dt > 0):
            raise ValueError(f"dt must be a positive finite number of seconds, got {dt!r}")
        start, self._dt, cpu, iterations = len(self.events), dt, clock.process_time(), self._iterations
        if self.particles is not None:
            self.particles.step(dt, self)
        self._tally = [0, 0]
        self._wake_changed()
        self._float(dt)
        if self.pool is not None:
            for name, load in self.pool.step(dt, self.bodies, max(-float(self.gravity[2]), 0.0)).items():
                self._push(name, load.force, load.torque)
        self._rest_speed = max(REST_SPEED, 1.5 * self._largest_acceleration() * dt)
        for name, push in self._pushes.items():  # a torque's angular impulse at the step's start (``drive``)
            body = self.bodies[self._index(name)]
            body.angular_velocity = body.angular_velocity + body.inverse_inertia() @ push.torque * dt
        if self.pair_filter is not None:  # a pair refused since the last step rests no longer
            self._resting = {pair: normal for pair, normal in self._resting.items()
                             if self.pair_filter(self.bodies[pair[0]].name, pair[1])}
        self._at_rest = {}
        readings = {group: energy.measure(self, group, dt) for group in energy.groups(self)}
        if self.joints:
            self._solve_joints(dt)
        if self.ccd:
            self._continuous_step(dt)
        else:
            self._discrete_step(dt)
        pushed = set(self._pushes)  # a force's work (the water's, ``apply_force``) explains a rise as a contact does
        self._pushes.clear()
        new = self.events[start:]
        touched = {name for event in new for name in (event.first, event.second)}
        self.events_energy += energy.check(self, readings, touched | self._touched | pushed)
        self._touched = touched
        self.contact_count += len(new)
        self._report_contacts(new)
        if self.allow_sleep:
            self._settle(dt)
        substeps, sweeps = self._tally
        self.last_stats = StepStats(substeps, sweeps, self._iterations - iterations, len(new),
                                    clock.process_time() - cpu)
        if len(self.events) > 2 * EVENT_HISTORY:
            del self.events[:-EVENT_HISTORY]
        return new

    def _float(self, dt: float) -> None:
        """The water's force and torque on every awake dynamic body under it, added to
        its pushes for this step (``buoyancy.push``); every body woken when the water
        changed since the last step."""
        if self.water is not None and not isinstance(self.water, buoyancy.Water):
            raise ValueError(f"water must be a buoyancy.Water or None, got {self.water!r}")
        if self.water != self._water_stepped:
            self._water_stepped = self.water
            self._wake_islands(set(range(len(self.bodies))))
        if self.water is None:
            return
        for body in self.bodies:
            if body.asleep or body.kinematic:
                continue
            found = buoyancy.push(self.water, body, self.gravity, dt)
            if found is not None:
                self._push(body.name, found.force, found.torque)

    def _largest_acceleration(self) -> float:
        """|g|, or a pushed body's acceleration where it is larger."""
        pushed = [self.bodies[self._index(name)] for name in self._pushes]
        return max([float(np.linalg.norm(self.gravity))] + [float(np.linalg.norm(self.acceleration(body)))
                                                             for body in pushed])

    def _continuous_step(self, dt: float) -> None:
        left = dt
        hover = self._largest_acceleration() * dt * dt / 8
        """How high a body resting by its support speed rises within the step: gL²/8 at L/2."""
        touching: dict[Pair, np.ndarray] = {}
        """Pairs resolved touching in this step, with their normals: not swept again while
        neither body's velocity changes (a box that the solver left turning 1e-17 rad/s
        would otherwise meet the floor at t = 0 every substep), unless a body's turn is
        swept: it may leave the contact and meet the shape elsewhere (``ccd``)."""
        for _ in range(MAX_SUBSTEPS):
            movers = [body.mover(None if body.asleep else
                                 body.velocity * left + 0.5 * self.acceleration(body) * left * left, left)
                      for body in self.bodies]
            found = self._earliest_contacts(movers, touching, left) if left > 0 else []
            if not found:
                break
            fraction = found[0][0]
            known = {**self._resting, **touching}
            contacts = []
            for _, first, second, point, normal, gap in found:
                if gap < 0:  # a resting body's rounding or a turning body's lift put it inside: out first
                    point = self._push_out(first, second, point, normal, -gap, known)
                contacts.append((first, second, point, normal, max(gap, 0.0)))
            elapsed = min(self._contact_time(first, second, movers, normal, fraction, left)
                          for first, second, _, normal, _ in contacts)
            self._advance(elapsed)
            self._tally[0] += 1
            self.time += elapsed
            left -= elapsed
            group = self._with_touching(contacts, known, hover)
            self._wake_islands(set().union(*(self._pair_bodies(pair) for pair, _ in group)))
            # Every pair just solved leaves touching or separating and stays so until a
            # body's velocity changes (two bodies move linearly apart; a body leaving a
            # static shape at its support speed or more stays above it for the time
            # left); a pair met a hair after the start (a body hovering by its support)
            # swept again met again, and was solved twice a step.
            resting = {pair for pair, _ in group[len(contacts):]}
            moved = set().union(*(self._resolve(part, left, resting) for part in self._apart(group)))
            touching = {pair: normal for pair, normal in touching.items() if not self._pair_bodies(pair) & moved}
            touching.update({pair: contact[1] for pair, contact in group})
        # (when the substeps run out, the rest of the step is moved without sweeping; rare, the events show why)
        self._tally[0] += 1  # the last stretch
        self._advance(left)
        self.time += left
        self._resting = {**self._sleeping_pairs(), **touching}
        self._warm = {pair: impulses for pair, impulses in self._warm.items() if pair in self._resting}
        self._come_to_rest()

    def _come_to_rest(self) -> None:
        """The pairs still touching at the step's end (within ``REST_GAP`` of the body's
        reach) solved for no approach: a body at rest leaves the step at rest.

        A body resting by its support speed s = ½(-g·n)·L comes back to the surface at the
        step's end moving into it at s - (-g·n)·L = -s; the next step's contact stops that
        approach and gives the support again, one impulse 2ms at the step boundary.  Here
        it is split at that same instant: the approach is stopped now (ms, friction within
        μ of it) and the next step adds the support (ms): the motion is the same, but the
        velocity read between steps is the body's own, zero at rest (it read -g·dt/2,
        -0.08175 m/s at 1/60 s).  No bounce, no support, no event: the contact was
        resolved in the step, this is its end."""
        group = []
        for pair, normal in self._resting.items():
            if self._asleep(pair):
                continue
            touch = self._touch(pair, normal, 0.0)
            if touch is not None and touch[2] <= REST_GAP * self.bodies[pair[0]].reach():
                group.append((pair, touch))
        for part in self._apart(group):
            self._resolve(part, 0.0, {pair for pair, _ in part}, record=False)
        self._at_rest = dict(group)

    def _apart(self, group: list[tuple[Pair, Touch]]) -> list[list[tuple[Pair, Touch]]]:
        """``group`` as solves: each part that a joint links (its rows are relaxed between
        compiled passes, a pass at a time) on its own, and every other contact in one
        solve (``impulses``), each in the group's order.  Parts are what neither a
        contact between two bodies nor a joint links (contacts with static shapes link
        nothing)."""
        if not self.joints:
            return [group] if group else []
        links = [(first, self._index(second)) for (first, second), _ in group if second not in self.statics]
        roots = islands(len(self.bodies), links + self._joint_links())
        jointed = {roots[self._index(name)] for joint in self.joints for name in (joint.first, joint.second) if name}
        parts: dict[int, list[tuple[Pair, Touch]]] = {}
        for contact in group:
            root = roots[contact[0][0]]
            parts.setdefault(root if root in jointed else -1, []).append(contact)
        return list(parts.values())

    # --- contacts reported, sleep -------------------------------------------------------

    def _report_contacts(self, events: list[ContactEvent]) -> None:
        """The step's pairs in contact (its events, and the pairs at rest at its end) to the
        callbacks (``callbacks``)."""
        now: dict[tuple[str, str], ContactPair] = {}
        for (first, second), (point, normal, _) in self._at_rest.items():
            now[(self.bodies[first].name, second)] = ContactPair(self.bodies[first].name, second, point, normal, 0.0)
        impulses: dict[tuple[str, str], float] = {}
        for event in events:
            key = (event.first, event.second)
            impulses[key] = impulses.get(key, 0.0) + event.impulse
            now[key] = ContactPair(event.first, event.second, event.point, event.normal, impulses[key])
        sleeping = {(self.bodies[first].name, second) for first, second in self._sleeping_pairs()}
        self._contacts.update(now, sleeping, self.on_begin, self.on_persist, self.on_end)

    def _asleep(self, pair: Pair) -> bool:
        """Whether the pair's bodies all sleep."""
        first, second = pair
        return self.bodies[first].asleep and (second in self.statics or self.bodies[self._index(second)].asleep)

    def _sleeping_pairs(self) -> dict[Pair, np.ndarray]:
        """The resting pairs of sleeping islands (kept, with their warm starts, while they sleep)."""
        return {pair: normal for pair, normal in self._resting.items() if self._asleep(pair)}

    def _islands(self) -> list[int]:
        """Each body's island (``sleep.islands``) through the resting pairs of two bodies
        and the joints between two bodies."""
        links = [(first, self._index(second)) for first, second in self._resting if second not in self.statics]
        return islands(len(self.bodies), links + self._joint_links())

    def _joint_links(self) -> list[tuple[int, int]]:
        """The pairs of bodies that joints join (a joint to the world links nothing)."""
        return [(self._index(joint.first), self._index(joint.second)) for joint in self.joints if joint.second]

    def wake(self, name: str) -> None:
        """Wake body ``name`` and every body of its island (``ValueError`` for an unknown name)."""
        if name not in {body.name for body in self.bodies}:
            raise ValueError(f"name: no body named {name!r}")
        self._wake_islands({self._index(name)})

    def _wake_islands(self, indices: set[int]) -> None:
        """Wake the islands of the bodies ``indices`` (nothing to do when none sleeps)."""
        if not any(self.bodies[index].asleep for index in indices):
            return
        roots = self._islands()
        waking = {roots[index] for index in indices}
        for index, body in enumerate(self.bodies):
            if roots[index] in waking:
                body.asleep, body.still_for = False, 0.0

    def _wake_changed(self) -> None:
        """Wake the islands of sleeping bodies given a velocity or moved since they slept
        (an edit, a user's assignment)."""
        sleeping = [index for index, body in enumerate(self.bodies) if body.asleep]
        if not sleeping:
            return
        bodies = [self.bodies[index] for index in sleeping]
        now = [np.array([getattr(body, name) for body in bodies]).reshape(len(bodies), -1)
               for name in ("velocity", "angular_velocity", "position", "rotation")]
        slept = np.array([body._slept for body in bodies])
        changed = np.flatnonzero(np.any(np.concatenate(now, axis=1) != slept, axis=1))
        self._wake_islands({sleeping[position] for position in changed.tolist()})

    def _settle(self, dt: float) -> None:
        """Count how long each awake body has been still; put to sleep the islands whose
        bodies have all been still for ``TIME_TO_SLEEP`` (velocities set to zero).  A
        kinematic body is still only when it does not move at all: its velocity is its
        motion, however slow, not what the solver left."""
        sprung = {name for joint in self.joints if isinstance(joint, Spring) for name in (joint.first, joint.second)}
        for body in self.bodies:
            if not body.asleep:  # a spring's force is not balanced by being slow: a body on one never sleeps
                speed = point_speed_bound(body.velocity, body.angular_velocity, body.reach())
                still = (speed == 0 if body.kinematic else speed <= SLEEP_SPEED) and body.name not in sprung
                body.still_for = body.still_for + dt if still else 0.0
        roots = self._islands()
        ready: dict[int, bool] = {}
        for index, body in enumerate(self.bodies):
            ready[roots[index]] = ready.get(roots[index], True) and (body.asleep or body.still_for >= TIME_TO_SLEEP)
        for index, body in enumerate(self.bodies):
            if ready[roots[index]] and not body.asleep:
                body.asleep = True
                body.velocity, body.angular_velocity = np.zeros(3), np.zeros(3)
                body._slept = np.concatenate([body.velocity, body.angular_velocity, body.position,
                                              body.rotation.ravel()])

    def _discrete_step(self, dt: float) -> None:
        """The whole step moved, then every overlap pushed out, and the overlaps with the
        pairs still touching from the last step resolved as one group, with the support
        speeds for the next step (a heavy body on a light one on the floor: the light
        one is not pushed into the floor; resolved with no support, a dropped log rocked
        end to end for ever, 0.43 rad/s after 20 s)."""
        self._advance(dt)
        self._tally[0] += 1
        self.time += dt
        overlaps: dict[Pair, Touch] = {}
        for _ in range(PUSH_OUT_PASSES):  # pushing one pair apart can press another together
            pushed = False
            for index, name in self._candidates([body.mover(np.zeros(3), 0.0) for body in self.bodies]):
                body = self.bodies[index]
                self._tally[1] += 1
                found = sweep(body.world_shape(), self._target_shape(name), np.zeros(3))
                if not (found.hit and found.initially_overlapping):
                    continue
                self._wake_islands(self._pair_bodies((index, name)))
                point, normal = np.asarray(found.point, float), np.asarray(found.normal, float)
                depth = float(found.penetration_depth)
                if depth > CONTACT_SLOP * 1e-6 * body.reach():
                    known = {**self._resting, **{pair: touch[1] for pair, touch in overlaps.items()}}
                    point, pushed = self._push_out(index, name, point, normal, depth, known), True
                overlaps[(index, name)] = (point, normal, 0.0)
            if not pushed:
                break
        hover = self._largest_acceleration() * dt * dt / 8
        group = list(overlaps.items())
        for pair, normal in self._resting.items():  # still touching, not overlapping: resting all the same
            touch = self._touch(pair, normal, hover) if pair not in overlaps else None
            if touch is not None:
                group.append((pair, touch))
        if group:  # the support speeds carry the bodies through the next step
            self._resolve(group, dt, {pair for pair, _ in group[len(overlaps):]})
        self._resting = {pair: touch[1] for pair, touch in group}

    def _index(self, name: str) -> int:
        """The index of body ``name`` (a map rebuilt when the bodies change)."""
        stale = len(self._slots) != len(self.bodies) or self.bodies[self._slots.get(name, 0)].name != name
        if stale:
            self._slots = {body.name: index for index, body in enumerate(self.bodies)}
        return self._slots[name]

    def _pair_bodies(self, pair: Pair) -> set[int]:
        first, second = pair
        return {first} if second in self.statics else {first, self._index(second)}

    def _target_shape(self, second: str):
        return self.statics[second] if second in self.statics else self.bodies[self._index(second)].world_shape()

    def _candidates(self, movers: list[Mover]) -> list[Pair]:
        """The pairs whose motions' boxes meet (``pairs``), one of them awake, not both
        kinematic, not joined by a joint (``joints``), and the pair not refused by
        ``pair_filter``: for each body in order,
        the static shapes in the world's order (none for a kinematic body), then the
        later bodies in order."""
        count = len(movers)
        if count == 0:
            return []
        starts = np.array([body.position for body in self.bodies])
        reaches = np.array([mover.reach for mover in movers]) * (1 + CONTACT_SLOP)
        lo, hi = swept_boxes(starts, np.array([mover.chord for mover in movers]), reaches)
        awake = np.array([not body.asleep for body in self.bodies])
        kinematic = np.array([body.kinematic for body in self.bodies])
        meets: list[list[Pair]] = [[] for _ in range(count)]
        for name, shape in self.statics.items():
            if isinstance(shape, Plane):
                touching = near_plane(shape, lo, hi)
            else:
                box = self._static_boxes.get(name)
                if box is None or box[0] is not shape:
                    box = self._static_boxes[name] = (shape, static_box(shape))
                touching = boxes_meeting(lo, hi, box[1])
            for index in np.flatnonzero(touching & awake & ~kinematic):
                meets[index].append((int(index), name))
        firsts, seconds = overlapping_pairs(lo, hi)
        either = (awake[firsts] | awake[seconds]) & ~(kinematic[firsts] & kinematic[seconds])
        joined = {frozenset(pair) for pair in self._joint_links()}
        for index, other in zip(firsts[either].tolist(), seconds[either].tolist(), strict=True):
            if frozenset((index, other)) not in joined:
                meets[index].append((index, self.bodies[other].name))
        pairs = [pair for pairs in meets for pair in pairs]
        if self.pair_filter is None:
            return pairs
        return [(index, name) for index, name in pairs if self.pair_filter(self.bodies[index].name, name)]

    def _earliest_contacts(self, movers: list[Mover], skip, left: float) -> list:
        """Every contact at the earliest fraction of the window, as (fraction, first, second,
        point, normal, gap): ``ccd.first_contact`` of each body's motion with each static
        shape and each later body whose boxes meet (``_candidates``).  The gap is negative
        for an overlap (its depth), and a turning body's lift along the normal against a
        static shape or a kinematic body (module docstring)."""
        found = []
        for index, name in self._candidates(movers):
            other = still(self.statics[name]) if name in self.statics else movers[self._index(name)]
            if (index, name) in skip and movers[index].turn is None and other.turn is None:
                continue
            self._tally[1] += 1
            hit = first_contact(movers[index], other)
            if hit is None:
                continue
            gap = -hit.depth
            relative = self._relative_acceleration((index, name))
            if np.any(relative) and (movers[index].turn is not None or other.turn is not None):
                gap += float(hit.normal @ self._lift(relative, hit.fraction * left, left))
            found.append((hit.fraction, index, name, hit.point, hit.normal, gap))
        earliest = min((contact[0] for contact in found), default=None)
        return [contact for contact in found if contact[0] == earliest]

    @staticmethod
    def _lift(acceleration: np.ndarray, elapsed: float, left: float) -> np.ndarray:
        """How far a body ``elapsed`` into a window of ``left`` is from its chord, moving
        with constant ``acceleration`` g (relative to what it meets): the parabola
        x0 + vτ + ½gτ² less the chord's point x0 + (τ/left)(v·left + ½g·left²),

            lift = ½g·τ(τ - left)  (against g, at most |g|·left²/8)."""
        return 0.5 * acceleration * elapsed * (elapsed - left)

    def _contact_time(self, index: int, second: str, movers: list[Mover], normal, fraction: float,
                      left: float) -> float:
        """When ``fraction`` of the chord is covered.  Against a static shape (or a
        kinematic body, or another body whose acceleration differs), on the relative
        parabola along the contact normal: ½(g·n)τ² + (v·n)τ = fraction·(chord·n), g, v
        and the chord relative.  Two bodies falling alike move linearly relative to
        each other, τ = fraction·left; a turning body turns as the sweep turned it at
        τ = fraction·left (lifted off the chord: the contact's gap)."""
        static = second in self.statics
        other = None if static else self.bodies[self._index(second)]
        acceleration = self._relative_acceleration((index, second))
        if not np.any(acceleration) or movers[index].turn is not None or (
                other is not None and movers[self._index(second)].turn is not None):
            return fraction * left
        velocity, chord = self.bodies[index].velocity, movers[index].chord
        if other is not None:
            velocity, chord = velocity - other.velocity, chord - movers[self._index(second)].chord
        a, b, c = 0.5 * float(acceleration @ normal), float(velocity @ normal), -fraction * float(chord @ normal)
        if fraction <= 0 or c == 0:
            return fraction * left
        if a == 0:
            return min(max(-c / b, 0.0), left) if b != 0 else fraction * left
        # the stable roots (``solve_quadratic``: q/a and c/q): a contact along a normal
        # across gravity has a = ½g·n of its rounding, 1e-16, and (-b - sqrt(b² - 4ac))/2a
        # cancelled to 0 (a box struck 60 m/s at the step's start, 0.5 m away)
        _, low, high = solve_quadratic(a, b, c, b * b - 4 * a * c)
        roots = [r for r in (low, high) if 0 <= r <= left]  # (NaN: no root)
        return min(roots) if roots else fraction * left

    def _push_out(self, first: int, second: str, point, normal, depth: float, touching) -> np.ndarray:
        """Separate an overlapping pair by ``depth`` along ``normal``: the body alone against
        a static shape; of two bodies, the one farther from the ground through the
        ``touching`` pairs (pushed down, the lower would go into what it rests on), or
        both by their inverse masses on the same footing.  The contact point, on the
        second's surface, moves with it."""
        body = self.bodies[first]
        if second in self.statics:
            body.position = body.position + depth * normal
            return point
        other_index = self._index(second)
        other = self.bodies[other_index]
        level = self._support_levels(list(touching))
        shares = [1 / body.mass, 1 / other.mass]
        if body.kinematic or other.kinematic:  # never pushed: the dynamic body moves the whole depth
            shares = [float(not body.kinematic), float(not other.kinematic)]
        elif level[first] != level[other_index]:
            shares = [float(level[first] > level[other_index]), float(level[other_index] > level[first])]
        mine = shares[0] / sum(shares)
        body.position = body.position + mine * depth * normal
        other.position = other.position - (1 - mine) * depth * normal
        return point - (1 - mine) * depth * normal

    def _with_touching(self, contacts, touching, hover: float) -> list[tuple[Pair, Touch]]:
        """The contacts (with their gaps) and, after them, every pair of ``touching`` linked
        to them through a body (a stack) that still touches, within ``hover``: its point,
        normal and gap found again."""
        group = {(first, second): (point, normal, gap) for first, second, point, normal, gap in contacts}
        bodies = set().union(*(self._pair_bodies(pair) for pair in group))
        apart: set[Pair] = set()
        grown = True
        while grown:
            grown = False
            for pair, normal in touching.items():
                if pair in group or pair in apart or not self._pair_bodies(pair) & bodies:
                    continue
                found = self._touch(pair, normal, hover)
                if found is None:
                    apart.add(pair)
                    continue
                group[pair] = found
                bodies |= self._pair_bodies(pair)
                grown = True
        return list(group.items())

    def _touch(self, pair: Pair, normal, hover: float) -> Touch | None:
        """The pair's contact if it is within ``hover`` (and ``CONTACT_SLOP`` of the body's
        reach) along ``normal``, with the gap (0 when touching or overlapping)."""
        first, second = pair
        body = self.bodies[first]
        probe = hover + CONTACT_SLOP * body.reach()
        self._tally[1] += 1
        found = sweep(body.world_shape(), self._target_shape(second), -probe * normal)
        if not found.hit:
            return None
        return np.asarray(found.point, float), np.asarray(found.normal, float), float(found.t) * probe

    def _advance(self, elapsed: float) -> None:
        """Every body moved ``elapsed`` along its parabola and turned at its angular velocity."""
        for body in self.bodies:
            if body.asleep:
                continue
            acceleration = self.acceleration(body)
            body.position = body.position + body.velocity * elapsed + 0.5 * acceleration * elapsed * elapsed
            body.velocity = body.velocity + acceleration * elapsed
            body.rotation = turned(body.rotation, body.angular_velocity * elapsed)

    # --- impulses ----------------------------------------------------------------------

    def _resolve(self, group, left: float, resting=frozenset(), record: bool = True,
                 links: list[Link] | None = None) -> set[int]:
        """Sequential impulses at every point of every contact of ``group`` (pairs with
        their point and normal), layer by layer from the ground up: first the contacts
        with static shapes and between bodies on the same footing, then each layer of
        bodies resting on those, with the body nearer the ground held (shock
        propagation).  Solved all at once, the iterations pushed an upper box off the
        lower one, which no impulse (they only push) could undo: a stack of two boxes
        turned 1.7e-4 rad/s and drifted; a heavy body pressed a light one into its support.

        The normal velocity each point leaves with is the bounce (restitution times
        the approach; none for the ``resting`` pairs, which were touching already), and
        against a static shape at least the *support* ``-(g·n)·left/2``: the speed whose
        chord over the time ``left`` still to go cancels gravity's pull into the surface —
        the normal force of a resting contact, so a body at rest neither sinks nor is
        swept into the surface again.

        The rows of the joints of the group's bodies (``links``; by default built over
        ``left``, not warm-started: their impulses this step are applied already) are
        relaxed in every layer's iterations, after its contacts: a joint may tie a body to
        one below or above it, so it belongs to no one layer.  Returns the bodies whose
        velocities the solve may have changed."""
        contacts = [self._contact(first, second, point, normal, gap, left, (first, second) in resting)
                    for (first, second), (point, normal, gap) in group]
        level = self._support_levels([contact.pair for contact in contacts])
        layers: dict[float, list[tuple[_Contact, tuple[float, float]]]] = {}
        for contact in contacts:
            held, layer = (1.0, 1.0), 0.0
            if contact.pair[1] not in self.statics:
                lower, upper = level[contact.pair[0]], level[self._index(contact.pair[1])]
                held = (0.0, 1.0) if lower < upper else (1.0, 0.0) if upper < lower else held
                layer = max(lower, upper)
            layers.setdefault(layer, []).append((contact, held))
        touched = set().union(*(self._pair_bodies(pair) for pair, _ in group))
        if links is None:  # none at a step's end (``_come_to_rest``): the next step's start solves them
            links = self._links(touched, left) if left > 0 else []
        moved = touched | {self._index(name) for link in links for name in (link.joint.first, link.joint.second)
                           if name}
        solve = Solve([self.bodies[index] for index in sorted(touched)])
        for layer in sorted(layers) or [0.0]:
            members = layers.get(layer, [])
            warm = [self._warmed(contact) for contact, _ in members]  # before packing: sets their impulses
            packed = solve.layer(members, [self._sides(contact.pair) for contact, _ in members])
            packed.warm_start(warm)
            if links:
                self._relax_with_joints(solve, packed, links)
            else:
                self._iterations += packed.solve_to(SOLVER_ITERATIONS, SOLVER_RTOL)
            packed.unpack()
        solve.store()
        for contact in contacts:
            self._warm[contact.pair] = (contact.normal_sum.copy(), contact.tangent_sum.copy())
            if record:
                self.events.append(ContactEvent(self.bodies[contact.pair[0]].name, contact.pair[1], self.time,
                                                contact.point, contact.normal, float(contact.normal_sum.sum())))
        return moved

    def _contact(self, first: int, second: str, point, normal, gap: float, left: float, resting: bool) -> _Contact:
        """The support of a body ``gap`` above a static shape is the normal speed whose
        chord over the time left closes the gap: ½·(-g·n)·left - gap/left, which may be
        an approach — a resting body hovers up to gL²/8 within a step and may keep coming
        down; between two bodies (which fall alike) it is -gap/left.  (Held at 0 or
        more, a side contact late in a step stopped a resting ball in the air: it hopped
        0.14 mm at one wall hit, 6 mm after 60 s between walls.)"""
        points = self._contact_points(first, second, point, normal)
        approach = self._relative_velocity((first, second), point) @ normal
        material = self._material(first, second)
        bounce = material.restitution if -approach > self._rest_speed and not resting else 0.0
        support, held = 0.0, np.zeros(3)
        if left > 0:
            support = -gap / left
            pull = self._relative_acceleration((first, second))
            if np.any(pull):  # a static shape or a kinematic body: held against the pull
                support += max(-0.5 * float(pull @ normal) * left, 0.0)
                held = -0.5 * (pull - float(pull @ normal) * normal) * left
        leaving = [max(-bounce * min(float(self._relative_velocity((first, second), p) @ normal), 0.0), support)
                   if bounce > 0 else support for p in points]
        return _Contact((first, second), point, normal, points, leaving, held, material.friction,
                        np.zeros(len(points)), np.zeros((len(points), 3)), bounce == 0)

    def _material(self, first: int, second: str) -> Material:
        """The pair's combined material (``materials.combined``); the world's restitution
        and friction for a body or static shape without its own."""
        default = Material(self.restitution, self.friction)
        own = self.bodies[first].material or default
        if second in self.statics:
            return combined(own, self.materials.get(second, default))
        return combined(own, self.bodies[self._index(second)].material or default)

    def _warmed(self, contact: _Contact) -> bool:
        """Whether the contact starts from the impulses its pair took at its last solve
        (not a bounce, same number of points: a resting box's four corners then converge
        in an iteration or two instead of ~40, the iterations shrinking the error by ~0.45
        each); if so its accumulated impulses are set to them (applied by the layer)."""
        previous = self._warm.get(contact.pair)
        if not contact.warmable or previous is None or len(previous[0]) != len(contact.points):
            return False
        contact.normal_sum, contact.tangent_sum = previous[0].copy(), previous[1].copy()
        return True

    def _relax_with_joints(self, solve: Solve, packed: Layer, links: list[Link]) -> None:
        """A layer's passes with the joints' rows relaxed after each (their bodies' velocities
        written out for them and read back), until neither changes an impulse by more than
        ``SOLVER_RTOL`` of the largest."""
        for _ in range(SOLVER_ITERATIONS):
            self._iterations += 1
            change, largest = packed.relax()
            solve.store()
            change = max([change] + [link.relax() for link in links])
            solve.load()
            if change <= SOLVER_RTOL * max([largest] + [link.size() for link in links]):
                break

    def _sides(self, pair: Pair) -> tuple[Body, Body | None]:
        """The pair's body and its other body (None: a static shape)."""
        first, second = pair
        return self.bodies[first], None if second in self.statics else self.bodies[self._index(second)]

    def _support_levels(self, pairs) -> dict[int, float]:
        """Each body's distance from the ground through ``pairs`` of touching shapes: 0
        touching a static shape, 1 resting on such a body, ...; infinite (and absent
        bodies) when nothing static holds it (kept for the bodies in ``pairs`` only: a
        group's parts are solved one by one, and a map of every body made that O(N²)).  A
        kinematic body is a support below the ground (-1): a body touching it is on the
        ground floor."""
        level: dict[int, float] = defaultdict(lambda: math.inf)
        for pair in pairs:
            for index in self._pair_bodies(pair):
                if self.bodies[index].kinematic:
                    level[index] = -1
        for first, second in pairs:
            if second in self.statics:
                level[first] = 0
        changed = True
        while changed:
            changed = False
            for first, second in pairs:
                if second in self.statics:
                    continue
                other = self._index(second)
                for lower, upper in ((first, other), (other, first)):
                    if level[lower] + 1 < level[upper]:
                        level[upper], changed = level[lower] + 1, True
        return level

    def _contact_points(self, first: int, second: str, point, normal) -> list[np.ndarray]:
        """Where the pair touches (``patch.contact_patch``), within the slop of the larger
        body's reach."""
        slop = CONTACT_SLOP * self.bodies[first].reach()
        if second not in self.statics:
            slop = max(slop, CONTACT_SLOP * self.bodies[self._index(second)].reach())
        return contact_patch(self.bodies[first].world_shape(), self._target_shape(second), point, normal, slop)

    def _relative_velocity(self, pair: Pair, point) -> np.ndarray:
        """The velocity of the pair's first body at ``point`` less the second's."""
        body, other = self._sides(pair)
        velocity = point_velocity(body, point)
        return velocity if other is None else velocity - point_velocity(other, point)


Pair = tuple[int, str]
"""A body's index and the name of what it touches: a static shape or a later body."""
Touch = tuple[np.ndarray, np.ndarray, float]
"""Where a pair touches: point, normal (from the second towards the first) and gap."""


@dataclass
class _Contact:
    """One pair's contact in a solve: its points, the normal speed each should leave
    with, and the impulses accumulated at each."""

    pair: Pair
    point: np.ndarray
    normal: np.ndarray
    points: list[np.ndarray]
    leaving: list[float]
    held: np.ndarray
    """The sliding velocity friction aims at: against a static shape, the one whose
    chord over the time left cancels gravity's pull along the surface (a box at rest on
    a slope it grips crept 0.014 units/s aiming at 0), else 0."""
    friction: float
    """The pair's combined Coulomb coefficient."""
    normal_sum: np.ndarray
    tangent_sum: np.ndarray
    warmable: bool
    """Not a bounce: may start from its pair's last impulses."""


def turned(rotation: np.ndarray, angle: np.ndarray) -> np.ndarray:
    """``rotation`` turned by the rotation vector ``angle`` (Rodrigues), re-orthonormalised."""
    size = float(np.linalg.norm(angle))
    if size == 0:
        return rotation
    axis = angle / size
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    turn = np.eye(3) + np.sin(size) * k + (1 - np.cos(size)) * (k @ k)
    u, _, vt = np.linalg.svd(turn @ rotation)
    return u @ vt
