"""Every tolerance of sweeplab, named, with its unit, typical value and what breaks.

The sweep kernels themselves use no tolerance: they decide hit or miss with exact
comparisons of float results (``<=``, ``== 0``), so a graze missed or hit by one
unit in the last place is answered as float64 round-off says, never faked.
Tolerances appear in two places only:

* **Input validation** — deciding whether a user-given polygon is planar and convex.
* **Verification** — comparing two independently computed answers (tests, fixtures,
  the reference solver).  These never change what a query returns.

Model: Box2D's ``constants.h``.  Add a constant here, never a bare literal elsewhere.
"""

# --- input validation ---------------------------------------------------------

POLYGON_RTOL = 1e-9
"""Unit: fraction of the polygon's extent (its diameter about the centroid).

Validation slack of a polygon, ``POLYGON_RTOL * extent`` plus the rounding of its
coordinates (``COORDINATE_ROUNDING_ULPS``):

* planar: every vertex lies within the slack of the plane through the centroid with
  the Newell normal, plus the height error the rounding of that normal's direction
  can cause (derived from machine epsilon, not a setting: large for slivers);
* convex: no vertex lies outside the line of an edge by more than the slack
  (collinear vertices are allowed);
* an edge no longer than the slack is a near-duplicate vertex: it is not checked
  for convexity and does not bound the face in the inside test (its cylinder and
  end balls still count) — a rounding-sized edge points anywhere and would cut
  the face in two;
* a polygon whose area is below ``slack * extent`` has no meaningful normal and is
  only its edges.

Typical: 1e-9, far above the ~1e-15 that rotating exact coordinates leaves.
Smaller rejects polygons that were merely rotated; larger accepts warped or
re-entrant ones, whose face tests then answer for the fitted plane."""

COORDINATE_ROUNDING_ULPS = 64
"""Unit: ulps of the largest coordinate magnitude of a shape.

The rounding a shape's coordinates may carry from being computed (rotated,
translated far from the origin): a 1e-4-wide polygon at 1e6 is only planar to
~1e-10.  64 ulps covers a few chained transforms; fewer rejects such polygons.

Also: a polygon core whose Newell normal is no longer than this rounding times its
extent (its vertices coincide up to round-off) has no face, only edges: its normal
would point anywhere.  And: two capsule cores whose closest points are within this
rounding of each other at t = 0 are treated as meeting when choosing the separating direction (the
depth is unchanged): their difference vector is round-off and points anywhere,
so the escape rule (common normal, else across the longer axis) is used instead.
Likewise a sphere's center within this rounding of its target's core at t = 0 (a
center on a segment computes an along-the-segment residue of ~1e-16) leaves by the
escape rule of ``physics.sweep.ball``, not along that residue."""


# --- verification (tests, fixtures, reference solver) -------------------------

FLOAT32_RTOL = 1e-5
"""Unit: fraction of the configuration's coordinate scale (and of 1 for times).

How closely a float32 query matches the same query in float64 away from grazes
(answers come in the inputs' dtype; the sphere, capsule and identity-pose mesh
kernels compute in it, polyhedra and posed meshes in float64): float32 eps is
1.2e-7 and a kernel
chains a few dozen roundings.  At a graze the float32 answer may differ in hit
or miss — that is what the editor's precision lens shows, not a bound."""

EXACT_RTOL = 1e-13
"""Unit: fraction of the configuration's coordinate scale (and of 1 for times).

Hand-worked cases, built so that the exact answer is known, must be met to within
this: a few dozen float64 roundings (eps = 2.2e-16).  Larger would let a kernel
lose digits unnoticed; smaller than ~1e-14 fails on honest round-off."""

TIME_ATOL = 1e-9
"""Unit: fraction of the sweep (t is dimensionless in [0, 1]).

Two answers for the time of impact agree when they differ by at most this plus
``TIME_RTOL_PER_SCALE`` times the configuration's coordinate scale over the motion
length (the round-off floor of float64 geometry).  Typical: 1e-9.  Smaller flags
round-off as disagreement; larger hides real grazing bugs."""

TIME_RTOL_PER_SCALE = 1e-12
"""Unit: dimensionless (multiplies |largest coordinate| / |direction|).

Round-off in a time of impact grows with how far the shapes are from the origin
relative to how far they move: t = distance / speed, each carrying absolute error
~ eps * coordinate size.  1e-12 is ~4500 ulp of float64, room for the few dozen
operations of a kernel.  Smaller makes translation-invariance checks at 1e6 fail."""

LENGTH_RTOL = 1e-9
"""Unit: fraction of the configuration's coordinate scale.

Contact points and penetration depths agree when they differ by at most
``LENGTH_RTOL * scale``.  Typical: 1e-9.  Grazing contacts move the point along a
tangent at first order in t error, so this is looser than pure round-off."""

NORMAL_ATOL = 1e-6
"""Unit: length of the difference of two unit vectors.

Contact normals agree when they differ by at most this.  Near a graze the normal
rotates with sqrt(t error), so 1e-6 matches ``TIME_ATOL``'s square-root scale."""

REFERENCE_TIME_ATOL = 1e-6
"""Unit: fraction of the sweep.

How far the analytic time of impact and ``physics.reference`` may differ before
the editor flags a disagreement.  The reference bisects a distance whose slope is
small near a graze, so its t carries an error up to ~sqrt(round-off); 1e-6 sits
above that for unit-scale scenes and far below any real bug.  Smaller flags
honest grazes; larger hides wrong edge or vertex times."""

REFERENCE_SEARCH_STEPS = 200
"""Unit: halvings (bisection) or two-thirds shrinkings (ternary search) of a bracket.

The brute-force reference finds the minimum of the convex distance along the sweep
by ternary search, then the first touching time by bisection, each for this many
steps or until the bracket stops shrinking in float64 — past the float64 resolution
of t in [0, 1].  Fewer steps leave the reference coarser than ``TIME_ATOL``."""


# --- culling (conservative: changes how much work a query does, never its answer) ---

BVH_CULL_RTOL = 1e-12
"""Unit: fraction of the query's coordinate scale (largest |coordinate| of the moving
shape, its motion and the tree).

Added to every node sphere's radius when a tree walk decides whether the moving
shape can reach the node.  Node spheres contain their triangles as float64 computes
distances; the node test itself rounds (~ a few ulps of the scale), so without this
margin a graze that the exact triangle test hits could be culled one level up.
Typical: 1e-12 (thousands of ulps, still far below any node size).  Zero risks
missed grazes under a node boundary; larger only visits more nodes."""

SAT_TOUCH_ULPS = 4
"""Unit: ulps (of the lane's float type) of the separating axis test's earliest exit
time, when that exit is an axis overlapping for one instant only.

Two polytopes that touch at one instant only (two flat hulls coplanar for an
instant, their overlap then a segment) have every axis's overlap interval contain
that instant; computed on different axes, the intervals round apart by an ulp or
two, and the latest entry came out one ulp after the earliest exit: a miss (seen:
0.5076142131979696 > 0.5076142131979695, found by the fcl fuzzer).  Entries this
close after such an exit count as touching, at the entry.  Only such instants get
the slack: a graze one float clear of a solid stays a miss.  Zero misses these
touches; larger also counts flat pairs passing that many ulps of t apart."""

ROTATION_ATOL = 1e-9
"""Unit: dimensionless (entries of R^T R - I).

How far a mesh pose's rotation matrix may be from orthonormal.  Rotations typed or
built from angles carry ~1e-16 error; a matrix off by more is a scale or shear,
which a rigid pose cannot hold.  Smaller rejects rotations composed in float32;
larger lets a skewed matrix through, and world-space answers then drift."""

INTERNAL_EDGE_ANGLE = 1e-4
"""Unit: radians.

Two mesh triangles sharing an edge whose normals differ by at most this angle are
flat there: the edge is internal (``physics.mesh_edges``) and a contact on it
reports the face normal.  1e-4 covers meshes stored in float32 (normals off by
~1e-7) and rotated coordinates; a real crease of 0.006 degrees gives a normal
within 1e-4 of the face's anyway.  Smaller lets float32 floors bump; larger hides
real creases (a 1-degree ramp edge would report the face normal)."""

HULL_RTOL = 1e-10
"""Unit: fraction of a point set's extent (or its largest coordinate, if larger).

How far a point may lie outside a plane and still count as on it when the convex
hull of a polyhedron is found (``physics.hull``): points that coplanar faces share
up to round-off make one polygonal face, and a set flat or straight to within this
is a polygon or segment.  Smaller splits faces of rotated boxes into slivers of
rounding noise; larger merges faces of genuinely (slightly) bent hulls."""

GJK_RTOL = 1e-10
"""Unit: fraction of the configuration's coordinate scale.

The GJK convex cast (``physics.gjk``) stops when the ray point is within the
shapes' margin plus this of their cores' difference.  It is the second opinion's
own accuracy, not a verification bound: its times agree with the analytic ones to
about this over the motion's length (``GJK_TIME_ATOL`` in the tests' comparisons).
Smaller costs iterations on rounded shapes (they converge geometrically); larger
blurs grazing answers."""

GJK_STALL_RTOL = 1e-8
"""Unit: fraction of the configuration's coordinate scale.

When the GJK cast finds no new support point, the gap between its upper and lower
distance bounds at the ray point must be within this for the contact to count;
wider, it answers "stalled" (no answer), never a guess.  Smaller turns more
nearly-degenerate simplices into "stalled"; larger accepts contacts a little off."""

HULL_MERGE_RTOL = 1e-7
"""Unit: fraction of a point set's extent.

Points of a polyhedron closer than this to each other are one vertex of its hull
(``physics.hull``).  A plane through two nearly coincident points and a third has a
normal known only to ~eps / this, so without merging such points leave slivers that
no plane fits and the hull gets a hole.  Smaller keeps more near-duplicates (and
risks those holes); larger moves corners by up to this much of the extent."""

FEATURE_CLEARANCE = 1e-6
"""Unit: fraction of the configuration's coordinate scale (distances) and radians (angles).

How clearly a brute-force contact must lie in one feature's region before a test
compares the feature a sweep reports with it: its point at least this far from every
other edge and vertex, its normal at least this far in angle from the face normal
(face) and from square to the edge (edge).  Within it, ties and round-off decide
(a sphere landing on an edge touches face and edge at once; the face wins).  Larger
compares fewer contacts; smaller compares grazes that either feature may claim."""
