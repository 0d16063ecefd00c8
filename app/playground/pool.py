"""A shallow-water pool: water over a rectangular grid of columns, walled at its edge,
coupled both ways with the world's bodies, column by column.

Conventions (the playground's: z up, SI units).  The grid lies in the plane z =
``floor``: ``cells`` = (nx, ny) square columns of side ``cell_size`` from the corner
``corner`` = (x0, y0); column (i, j) has its centre at (x0 + (i + ½)·dx, y0 + (j + ½)·dx).
The water moves under the vertical part of gravity only, g = -gravity_z (its sideways
part does not tilt the pool).

**State, on a staggered grid.**  ``water[i, j]`` is the depth of water in a column
(m: its volume over the column's area A = dx²); ``flow_x[i, j]`` the velocity through
the face between columns i - 1 and i (``flow_x[0]`` and ``flow_x[nx]`` are the walls,
always 0), ``flow_y`` likewise along y; ``displaced[i, j]`` how far bodies over the
column raise its surface (their lids, below).  The surface (``heights``) is

    η = floor + water + displaced,

so a body pushes the surface up where it is, and the water flows away from it.

**A step of dt** (``step``), in ``substeps(dt, g)`` equal substeps τ (the Courant number
(√(g·H) + |u|max)·τ/dx at most ``COURANT``, H the deepest column's water and
displacement, times 1 + K while a body lids a column), each:

1. face velocities from the surface's slope, then damped (the height/velocity scheme
   of the seed's bare-bones simulator: momentum is not advected):

       u_f ← (u_f - g·τ·(η_right - η_left)/dx)·exp(-damping·τ);

2. the volume through each face, from its upwind column (donor cell):

       q_f = u_f·τ·dx·water_upwind,

   limited so that no column gives more than it holds: a column whose outflows add up
   to more than its volume V scales them all by V / (its outflows);
3. each column gains what flows in and loses what flows out.  Each q_f leaves one
   column and enters its neighbour, so Σ water·A changes only by rounding (the
   fluxes cancel in pairs), and no depth goes below zero.

**Bodies push the water.**  For each body, every column whose centre lies under its
box: the vertical line through the centre against the body's shape (exact: a hull's
face planes cut along it, two point sweeps through ``physics.sweep`` for a sphere or a
capsule: ``_vertical_chords``) gives the
body's bottom b and top t there; a = max(b, floor).  The body is a lid on the column's
water: water above a would be inside it, so the column's surface stands higher by

    displaced = min(K·max(0, floor + water - a), t - a),     K = ``LID_STIFFNESS``,

a stiff spring that pushes the water out from under the body (with K infinite, the
water under it would be held exactly at its bottom, which takes a pressure solve; K
finite lets it sink into the body by (η - a)/(1 + K), ~5 % of its draft, and leaves
Σ water·A alone).  Once the body's whole thickness is reached the water runs over it
(a body under water).  Under a lid a column's surface rises 1 + K times its depth, so
a wave runs √(1 + K) times faster there: the substeps count it.  Several bodies over
one column make one lid: the lowest bottom, their thicknesses summed.

**The water pushes the bodies.**  Over each body the water's level is the plane fitted
to the surface of the open columns that ring its footprint (``_level_around``: waves
passing under it tilt it); each column pushes its body up by ρ·g·s·A, s = max(0,
min(t', level) - max(b', floor)) the part of the body under that level with b', t' its
bottom and top where it will be half-way through the step (moved by the body's
vertical speed there times dt/2), at the middle of that part, and drags it towards the
water's velocity there (the faces' mean, horizontal; the water is taken still
vertically) with ρ·s·A·drag·(u_water - v_point), v_point the body's velocity at that
point.  At rest the level is the water around the body: it floats at Archimedes'
draft, whatever K.  ``step`` returns each body's force and torque about its centre of
mass (``Load``); the world applies them over its step like ``World.apply_force``.
The drag's reaction on the water is not applied (the water's momentum is not kept).

Why not the head over the body itself: under a lid it rises 1 + K times what the body
sinks within the step, a spring √(1 + K) times stiffer than Archimedes' that the
explicit step cannot hold: a 0.2 m box of density 500 sloshed at ±0.1 m/s for ever
with K = 10 (settled with K = 5), and a 10 cm plate of density 200 rocked at 2 rad/s.
The level around the body holds both (to 0.1 mm of their drafts 0.1 m and 0.02 m in 6
s, damping 3/s), and the half-step position damps the bob (the same plate's speed in
its fourth second: 1.8 cm/s, 4.6 cm/s taken at the step's start).  Limit: a body
floating very shallow, √(g/draft)·dt near 1 (a 4 mm draft at 1/60 s), still bounces.

The pool's floor and walls hold the water, not the bodies: a world that keeps its
bodies in the pool has static shapes there (the duck pond's floor plane and walls);
a body wholly below the floor or beside the pool meets no water.

The pool is a mutable dataclass of arrays: a world's snapshot (``playground.state``)
carries it, and a restored world continues bit for bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from sweeplab.physics import Capsule, ConvexPolyhedron, Point, Sphere, sweep
from sweeplab.playground.mass import positive
from sweeplab.playground.waves import Waves

COURANT = 0.5
"""The largest Courant number (√(g·H) + |u|)·τ/dx a substep takes: the explicit
staggered scheme is stable below 1 (a wave crosses at most one column a substep); half
of that keeps its phase error small."""
DAMPING = 1.0
"""Default damping of the face velocities (1/s): a wave loses 1 - e^-1 ≈ 63 % of its
speed a second (at 0.3/s a 0.6 m pool sloshed for over 6 s and kept a floating box
bobbing at 0.2 m/s)."""
DRAG = 3.0
"""Default drag (1/s): the force ρ·V_sub·drag per m/s of a body's speed through the water."""
LID_STIFFNESS = 20.0
"""K: how much higher a column's surface stands per metre of water pushed into a body
(module docstring).  Larger holds the water nearer the body's bottom (1/(1 + K) of the
draft sinks in) but makes waves under the body √(1 + K) times faster: more substeps."""
CHORD_MARGIN = 1e-3
"""The vertical sweeps of a sphere or capsule start 1e-3·(1 m + its box's height)
beyond its box, outside the shape (a sweep starting on it would read an overlap)."""


class Load(NamedTuple):
    """The water's push on one body over a step: ``force`` (N, world) and ``torque``
    (N·m) about its centre of mass."""

    force: np.ndarray
    torque: np.ndarray


@dataclass
class Pool:
    """Water ``depth`` deep over ``cells`` = (nx, ny) columns of ``cell_size`` from
    ``corner`` = (x0, y0) on a floor at height ``floor`` (module docstring).
    ``density`` (kg/m³), ``damping`` (1/s), ``drag`` (1/s), ``waves`` (drawn only).
    ``ValueError`` naming the argument for cells that are not two whole numbers >= 1,
    a size, density that is not finite and > 0, a depth, damping or drag that is not
    finite and >= 0, a corner that is not two finite numbers, a floor that is not
    finite or waves that are not ``Waves``."""

    cells: tuple[int, int]
    cell_size: float
    depth: float
    corner: tuple[float, float] = (0.0, 0.0)
    floor: float = 0.0
    density: float = 1000.0
    damping: float = DAMPING
    drag: float = DRAG
    waves: Waves | None = None
    """FFT waves added to the drawn surface only (``waves``; None, the default: none)."""
    water: np.ndarray = field(init=False, repr=False)
    """Each column's depth of water (m), (nx, ny)."""
    flow_x: np.ndarray = field(init=False, repr=False)
    """Velocity through the faces across x (m/s), (nx + 1, ny); the first and last rows are walls."""
    flow_y: np.ndarray = field(init=False, repr=False)
    """Velocity through the faces across y (m/s), (nx, ny + 1); the first and last columns are walls."""
    displaced: np.ndarray = field(init=False, repr=False)
    """How far bodies raise each column's surface (m), (nx, ny), as of the last step's end (module docstring)."""

    def __post_init__(self):
        cells = tuple(self.cells) if isinstance(self.cells, (tuple, list)) else ()
        if len(cells) != 2 or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in cells):
            raise ValueError(f"cells must be two whole numbers >= 1, got {self.cells!r}")
        self.cells = (cells[0], cells[1])
        self.cell_size = positive("cell_size", self.cell_size)
        self.density = positive("density", self.density)
        for name in ("depth", "damping", "drag"):
            setattr(self, name, _not_negative(name, getattr(self, name)))
        try:
            corner = np.asarray(self.corner, float) if np.ndim(self.corner) == 1 else np.zeros(0)
        except (TypeError, ValueError):
            corner = np.zeros(0)
        if corner.shape != (2,) or not np.all(np.isfinite(corner)):
            raise ValueError(f"corner must be two finite numbers (x, y), got {self.corner!r}")
        self.corner = (float(corner[0]), float(corner[1]))
        if self.waves is not None and not isinstance(self.waves, Waves):
            raise ValueError(f"waves must be a Waves or None, got {self.waves!r}")
        if not (isinstance(self.floor, (int, float)) and math.isfinite(self.floor)):
            raise ValueError(f"floor must be a finite height, got {self.floor!r}")
        self.floor = float(self.floor)
        nx, ny = self.cells
        self.water = np.full((nx, ny), self.depth)
        self.flow_x, self.flow_y = np.zeros((nx + 1, ny)), np.zeros((nx, ny + 1))
        self.displaced = np.zeros((nx, ny))

    # --- what it holds ---------------------------------------------------------

    def area(self) -> float:
        """A column's area (m²)."""
        return self.cell_size * self.cell_size

    def volume(self) -> float:
        """The water's volume Σ water·A (m³): bodies in it not counted."""
        return float(np.sum(self.water)) * self.area()

    def mass(self) -> float:
        """The water's mass ρ·Σ water·A (kg)."""
        return self.density * self.volume()

    def heights(self) -> np.ndarray:
        """The surface over each column, floor + water + displaced (m), (nx, ny)."""
        return self.floor + self.water + self.displaced

    def drawn_heights(self, time: float, g: float = 9.81) -> np.ndarray:
        """The surface as drawn at ``time`` (s): ``heights`` plus the FFT waves, if any."""
        heights = self.heights()
        return heights if self.waves is None else heights + self.waves.heights(self.cells, self.cell_size, time, g)

    def centres(self) -> tuple[np.ndarray, np.ndarray]:
        """The columns' centres: x (nx,) and y (ny,)."""
        (nx, ny), dx = self.cells, self.cell_size
        return self.corner[0] + (np.arange(nx) + 0.5) * dx, self.corner[1] + (np.arange(ny) + 0.5) * dx

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The pool's corners in the plane: (x0, y0) and (x0 + nx·dx, y0 + ny·dx)."""
        low = np.array(self.corner)
        return low, low + np.array(self.cells) * self.cell_size

    def surface_at(self, x: float, y: float) -> float:
        """The surface height over the column holding the point (x, y) (piecewise
        constant over each column; a point on a face takes the column above it).
        ``ValueError`` naming x or y for a point outside the pool or not finite."""
        low, high = self.bounds()
        index = []
        for axis, (name, value) in enumerate((("x", x), ("y", y))):
            if not (isinstance(value, (int, float)) and math.isfinite(value) and low[axis] <= value <= high[axis]):
                raise ValueError(f"{name} must be a finite number within the pool [{low[axis]}, {high[axis]}], "
                                 f"got {value!r}")
            index.append(min(int((value - low[axis]) // self.cell_size), self.cells[axis] - 1))
        return float(self.heights()[index[0], index[1]])

    def settle(self, bodies=()) -> float:
        """The water put at rest around ``bodies`` where they are, its volume kept: one
        level L over the open columns, and under each body the depth whose surface
        (lid included) stands at L, floor + w + min(K·max(0, w - gap), t - a) = L:

            w = gap + (L - a)/(1 + K)   while K·(L - a)/(1 + K) <= t - a,   else L - floor - (t - a)

        (gap = a - floor; L found by bisection: the volume grows with it), the flow
        stopped.  Bodies placed in a still pool start in its balance rather than on
        water that has not made room for them.  Returns L."""
        gap, thick = self._lids([self._chords(body) for body in bodies])
        covered = np.isfinite(gap)
        gap = np.where(covered, gap, 0.0)
        area, total = self.area(), self.volume()

        def depths(level: float) -> np.ndarray:
            open_depth = max(level - self.floor, 0.0)
            rise = open_depth - gap
            held = np.where(LID_STIFFNESS * rise <= (1 + LID_STIFFNESS) * thick, gap + rise / (1 + LID_STIFFNESS),
                            open_depth - thick)
            return np.maximum(np.where(covered & (rise > 0), held, open_depth), 0.0)

        low, high = self.floor, self.floor + total / area + float(np.max(thick, initial=0.0)) + self.depth + 1.0
        for _ in range(200):
            middle = (low + high) / 2
            if middle in (low, high):
                break
            low, high = (middle, high) if float(np.sum(depths(middle))) * area < total else (low, middle)
        self.water = depths(high)
        self.water *= total / (float(np.sum(self.water)) * area) if total > 0 else 1.0
        self.flow_x[:] = 0.0
        self.flow_y[:] = 0.0
        self.displaced = _lid(self.water, np.where(covered, gap, np.inf), thick)
        return high

    # --- a step ------------------------------------------------------------------

    def substeps(self, dt: float, g: float, lidded: bool = False) -> int:
        """The substeps a step of ``dt`` takes: ⌈(√(g·H·k) + |u|max)·dt / (COURANT·dx)⌉, at
        least 1, H the deepest column's water and displacement, k = 1 + K when a body
        lids a column (``lidded``), else 1."""
        deepest = float(np.max(self.water + self.displaced)) * (1 + LID_STIFFNESS if lidded else 1)
        fastest = max(float(np.max(np.abs(self.flow_x))), float(np.max(np.abs(self.flow_y))))
        return max(1, math.ceil((math.sqrt(g * deepest) + fastest) * dt / (COURANT * self.cell_size)))

    def step(self, dt: float, bodies=(), g: float = 9.81) -> dict[str, Load]:
        """Advance the water ``dt`` with ``bodies`` (playground ``Body``s) in it under
        gravity ``g`` (m/s², downwards along z); each non-kinematic body's ``Load``
        from the water at the step's start, by name (bodies out of the water: none).
        ``ValueError`` naming dt or g when not finite and > 0 (g: >= 0)."""
        dt = positive("dt", dt)
        g = _not_negative("g", g)
        chords = {body.name: (body, self._chords(body)) for body in bodies}
        gap, thick = self._lids(columns for _, columns in chords.values())
        self.displaced = _lid(self.water, gap, thick)
        surface, open_water = self.heights(), np.isinf(gap)
        loads = {}
        for name, (body, columns) in chords.items():
            if columns is not None and not body.kinematic:
                load = self._load(body, columns, self._level_around(columns, surface, open_water), g, dt)
                if load is not None:
                    loads[name] = load
        count = self.substeps(dt, g, bool(np.any(np.isfinite(gap))))
        for _ in range(count):
            self._flow(dt / count, g)
            self.displaced = _lid(self.water, gap, thick)
        return loads

    def _lids(self, chords) -> tuple[np.ndarray, np.ndarray]:
        """The bodies' lids over the columns from their ``_chords`` (None: not over the
        water): each column's lowest body bottom above the floor (inf: none) and their
        thicknesses summed."""
        gap, thick = np.full(self.cells, np.inf), np.zeros(self.cells)
        for columns in chords:
            if columns is not None:
                i, j, bottom, top = columns
                np.minimum.at(gap, (i, j), bottom - self.floor)
                np.add.at(thick, (i, j), top - bottom)
        return gap, thick

    def _chords(self, body):
        """The columns under ``body``'s box that the body covers: indices i, j and its
        bottom there (not below the floor) and its top, or None when it is beside the
        pool or above its surface."""
        shape = body.world_shape()
        low, high = _box(shape)
        (x0, y0), (x1, y1) = self.bounds()
        if low[2] >= float(np.max(self.heights())) or high[2] <= self.floor or low[0] > x1 or high[0] < x0 \
                or low[1] > y1 or high[1] < y0:
            return None
        xs, ys = self.centres()
        i = np.flatnonzero((xs >= low[0]) & (xs <= high[0]))
        j = np.flatnonzero((ys >= low[1]) & (ys <= high[1]))
        if not len(i) or not len(j):
            return None
        i, j = (index.ravel() for index in np.meshgrid(i, j, indexing="ij"))
        bottom, top = _vertical_chords(shape, xs[i], ys[j], low[2], high[2])
        through = top >= bottom
        if not np.any(through):
            return None
        bottom = np.maximum(bottom[through], self.floor)
        return i[through], j[through], bottom, np.maximum(top[through], bottom)

    def _level_around(self, columns, surface: np.ndarray, open_water: np.ndarray) -> np.ndarray:
        """The water's surface over a body's ``columns`` as the plane z = c0 + c1·x + c2·y
        fitted (least squares) to the open columns that ring them (their neighbours,
        diagonal ones too, that no body covers); the surface over the columns
        themselves where no open column rings them (a body as wide as the pool)."""
        i, j = columns[0], columns[1]
        covered = np.zeros(self.cells, bool)
        covered[i, j] = True
        along_x = covered.copy()  # grown by a column along x, then along y: the eight neighbours
        along_x[1:] |= covered[:-1]
        along_x[:-1] |= covered[1:]
        near = along_x.copy()
        near[:, 1:] |= along_x[:, :-1]
        near[:, :-1] |= along_x[:, 1:]
        ring = near & ~covered & open_water
        if not np.any(ring):
            return surface[i, j]
        xs, ys = self.centres()
        ri, rj = np.nonzero(ring)
        plane = np.linalg.lstsq(np.column_stack([np.ones(len(ri)), xs[ri], ys[rj]]), surface[ri, rj], rcond=None)[0]
        return plane[0] + plane[1] * xs[i] + plane[2] * ys[j]

    def _load(self, body, columns, level: np.ndarray, g: float, dt: float) -> Load | None:
        """Buoyancy and drag summed over a body's ``columns`` (i, j, bottom, top) under
        the water's ``level`` over each, with each column's part of the body where it
        will be half-way through the step (module docstring); None when no part is
        under water."""
        i, j, bottom, top = columns
        xs, ys = self.centres()
        centres = np.column_stack([xs[i], ys[j], bottom])
        sinking = (body.velocity + np.cross(body.angular_velocity, centres - body.position))[:, 2] * (dt / 2)
        low = np.maximum(bottom + sinking, self.floor)
        high = np.minimum(top + sinking, level)
        wet = high > low
        if not np.any(wet):
            return None
        i, j, low, high = i[wet], j[wet], low[wet], high[wet]
        points = np.column_stack([xs[i], ys[j], (low + high) / 2])
        weights = self.density * (high - low) * self.area()  # kg of water displaced per column
        arms = points - body.position
        water = np.column_stack([(self.flow_x[i, j] + self.flow_x[i + 1, j]) / 2,
                                 (self.flow_y[i, j] + self.flow_y[i, j + 1]) / 2, np.zeros(len(i))])
        moving = body.velocity + np.cross(body.angular_velocity, arms)
        forces = self.drag * weights[:, None] * (water - moving)
        forces[:, 2] += weights * g
        return Load(forces.sum(axis=0), np.cross(arms, forces).sum(axis=0))

    def _flow(self, tau: float, g: float) -> None:
        """One substep of ``tau``: velocities from the surface's slope, damped; volumes
        through the faces from their upwind columns, limited; depths updated."""
        dx, surface = self.cell_size, self.heights()
        fade = math.exp(-self.damping * tau)
        self.flow_x[1:-1] = (self.flow_x[1:-1] - g * tau / dx * (surface[1:] - surface[:-1])) * fade
        self.flow_y[:, 1:-1] = (self.flow_y[:, 1:-1] - g * tau / dx * (surface[:, 1:] - surface[:, :-1])) * fade
        water = self.water
        # volume (over A) through each face, positive along the axis, from the upwind column
        across_x = self.flow_x[1:-1] * tau / dx * np.where(self.flow_x[1:-1] > 0, water[:-1], water[1:])
        across_y = self.flow_y[:, 1:-1] * tau / dx * np.where(self.flow_y[:, 1:-1] > 0, water[:, :-1], water[:, 1:])
        out = np.zeros_like(water)
        out[:-1] += np.maximum(across_x, 0.0)
        out[1:] += np.maximum(-across_x, 0.0)
        out[:, :-1] += np.maximum(across_y, 0.0)
        out[:, 1:] += np.maximum(-across_y, 0.0)
        share = np.where(out > water, water / np.where(out > 0, out, 1.0), 1.0)
        across_x *= np.where(across_x > 0, share[:-1], share[1:])
        across_y *= np.where(across_y > 0, share[:, :-1], share[:, 1:])
        change = np.zeros_like(water)
        change[:-1] -= across_x
        change[1:] += across_x
        change[:, :-1] -= across_y
        change[:, 1:] += across_y
        self.water = np.maximum(water + change, 0.0)  # (a column emptied: its outflows were its volume to rounding)


def _lid(water: np.ndarray, gap: np.ndarray, thick: np.ndarray) -> np.ndarray:
    """Each column's displaced thickness under lids ``gap`` above the floor (inf: none)
    ``thick`` thick: min(K·max(0, water - gap), thick) (module docstring)."""
    return np.minimum(LID_STIFFNESS * np.maximum(water - gap, 0.0), thick)


def _not_negative(name: str, value) -> float:
    """``value`` as a float if finite and >= 0, else ``ValueError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return float(value)


def _vertical_chords(shape, x: np.ndarray, y: np.ndarray, low: float, high: float):
    """Where the vertical lines through (x, y) enter and leave ``shape`` (bottom, top;
    bottom > top where a line misses it), ``low`` and ``high`` its box's bottom and top.

    A hull's are its face planes n·p <= c cut along the line (Cyrus-Beck): a face with
    n_z > 0 caps it at z <= (c - n_x·x - n_y·y)/n_z, one with n_z < 0 floors it, an upright
    face keeps the line or misses it.  A sphere's and a capsule's are two point sweeps,
    down from above its box and up from below (``physics.sweep``); a point swept against
    a hull costs ~100 us a lane (the separating axes), the cut ~1 us."""
    if isinstance(shape, ConvexPolyhedron):
        normals, offsets = np.asarray(shape.normals, float), np.asarray(shape.offsets, float)
        room = offsets[None, :] - np.outer(x, normals[:, 0]) - np.outer(y, normals[:, 1])  # (C, F)
        up = normals[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            level = room / up
        top = np.min(np.where(up > 0, level, np.inf), axis=1, initial=high)
        bottom = np.max(np.where(up < 0, level, -np.inf), axis=1, initial=low)
        missed = np.any((up == 0) & (room < 0), axis=1)
        return np.where(missed, np.inf, bottom), np.where(missed, -np.inf, top)
    margin = CHORD_MARGIN * (1.0 + high - low)
    span = high - low + 2 * margin
    starts = np.column_stack([x, y, np.full(len(x), high + margin)])
    down = sweep(Point(starts), shape, np.array([0.0, 0.0, -span]))
    starts[:, 2] = low - margin
    up_sweep = sweep(Point(starts), shape, np.array([0.0, 0.0, span]))
    through = down.hit & up_sweep.hit
    return np.where(through, low - margin + up_sweep.t * span, np.inf), \
        np.where(through, high + margin - down.t * span, -np.inf)


def _box(shape) -> tuple[np.ndarray, np.ndarray]:
    """A world shape's axis-aligned box (lowest and highest corner)."""
    if isinstance(shape, Sphere):
        centre, radius = np.asarray(shape.center, float), float(shape.radius)
        return centre - radius, centre + radius
    if isinstance(shape, Capsule):
        ends, radius = np.stack([np.asarray(shape.a, float), np.asarray(shape.b, float)]), float(shape.radius)
        return ends.min(axis=0) - radius, ends.max(axis=0) + radius
    if isinstance(shape, ConvexPolyhedron):
        vertices = np.asarray(shape.vertices, float)
        return vertices.min(axis=0), vertices.max(axis=0)
    raise ValueError(f"shape: a pool's body is a sphere, capsule or convex polyhedron, not {type(shape).__name__}")
