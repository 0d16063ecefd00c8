"""Every tolerance of sweeplab, named, with its unit, typical value and what breaks.

Model: Box2D's ``constants.h``.  Add a constant here, never a bare literal elsewhere
(machine constants, such as ``geometry.epsilon``'s, are not tolerances).  The
sections say what a constant may change:

* **Input validation** -- whether user-given shapes are what they claim (a planar,
  convex polygon; a rotation), and how a hull is built from points.
* **Kernel tolerances** -- the sweep kernels decide hit or miss and the time of
  impact with exact comparisons of float results (``<=``, ``== 0``): a graze missed
  or hit by one unit in the last place is answered as round-off says, never faked.
  Tolerances decide only where a computed quantity *is* round-off: whether a polygon
  core has a face at all, whether a separation has a direction, which features of two
  polytopes touch, whether a mesh edge lies in a flat surface -- and one hit or miss,
  an instant of touching that the separating axis test's axes round apart
  (``SAT_TOUCH_ULPS``).  Each is scaled by the lane's own dtype where it stands for
  rounding.
* **Culling** -- conservative early-outs: they change how much work a query does,
  never its answer.
* **Second opinions** -- the GJK cast's own accuracy.
* **Verification** -- comparing two independently computed answers (tests, fixtures,
  the reference solver).  These never change what a query returns.
"""


# --- input validation ---------------------------------------------------------------

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
* a polygon whose Newell length (twice its area) is at most ``slack * extent`` is a
  sliver: it need only lie on one line within the slack.  (The kernels' own
  face-or-edges rule is finer, ``COORDINATE_ROUNDING_ULPS``'s.)

In the kernels (``physics.core.polygon_face``) the same slack, of the core's extent
and rounding, is the length below which an edge does not bound the face.

Typical: 1e-9, far above the ~1e-15 that rotating exact coordinates leaves.
Smaller rejects polygons that were merely rotated; larger accepts warped or
re-entrant ones, whose face tests then answer for the fitted plane."""

ROTATION_ATOL = 1e-9
"""Unit: dimensionless (entries of R^T R - I).

How far a mesh pose's rotation matrix may be from orthonormal.  Rotations typed or
built from angles carry ~1e-16 error; a matrix off by more is a scale or shear,
which a rigid pose cannot hold.  Smaller rejects rotations composed in float32;
larger lets a skewed matrix through, and world-space answers then drift."""

POSED_ROTATION_ATOL = 1e-6
"""Unit: dimensionless (entries of R R^T - I).

How far the rotation given to ``ConvexPolyhedron.posed`` may be from orthonormal; it
is then replaced by the rotation nearest it (its polar factor,
``physics.core.nearest_rotation``), so the posed planes stay exact.  1e-6 admits a
rotation stored in float32 (entries off by ~1e-7) and is where ``nearest_rotation``'s
fixed steps still reach round-off.  Smaller rejects float32 rotations; larger
silently straightens a matrix that scales or shears by more than that."""

HULL_RTOL = 1e-10
"""Unit: fraction of a point set's extent (or its largest coordinate, if larger).

How far a point may lie outside a plane and still count as on it when the convex
hull of a polyhedron is found (``physics.hull``): points that coplanar faces share
up to round-off make one polygonal face, and a set flat or straight to within this
is a polygon or segment.  The polytope kernels (``physics.sweep.sat``) also take it
as the least touching slack of a contact (``contact_rtol``) and the least sine
between two touching edges that cross.  Smaller splits faces of rotated boxes into slivers of
rounding noise; larger merges faces of genuinely (slightly) bent hulls."""

HULL_MERGE_RTOL = 1e-7
"""Unit: fraction of a point set's extent.

Points of a polyhedron closer than this to each other are one vertex of its hull
(``physics.hull``).  A plane through two nearly coincident points and a third has a
normal known only to ~eps / this, so without merging such points leave slivers that
no plane fits and the hull gets a hole.  Smaller keeps more near-duplicates (and
risks those holes); larger moves corners by up to this much of the extent."""


# --- kernel tolerances (decide round-off cases of a query's answer) -----------------

COORDINATE_ROUNDING_ULPS = 64
"""Unit: ulps (of the shape's, in a kernel the lane's, float type) of the largest
coordinate magnitude of a shape.

The rounding a shape's coordinates may carry from being computed (rotated,
translated far from the origin): a 1e-4-wide polygon at 1e6 is only planar to
~1e-10.  64 ulps covers a few chained transforms; fewer rejects such polygons.

In the kernels (typical: 2^-46 = 1.4e-14 of unit coordinates in float64, 7.6e-6 in
float32):

* a polygon core whose Newell vector is no longer than this rounding times its
  extent (its vertices coincide up to round-off) has no face, only edges, for the
  sphere and the capsule kernels alike (``physics.core.face_normal``): its normal
  would point anywhere.  Larger turns thin but honest triangles into edges; zero
  gives slivers of round-off a face whose normal is noise.
* two capsule cores whose closest points are within this rounding of each other at
  t = 0 are treated as meeting when choosing the separating direction (the depth
  is unchanged): their difference vector is round-off and points anywhere, so the
  escape rule (common normal, else across the longer axis) is used instead.
  Likewise a sphere's center within this rounding of its target's core at t = 0 (a
  center on a segment computes an along-the-segment residue of ~1e-16) leaves by
  the escape rule of ``physics.sweep.ball``, not along that residue.
* a mesh contact's core point this far outside a face (of the rounding of the mesh's
  largest |coordinate| plus the point's) still counts as over it for the
  internal-edge rule (``physics.sweep.mesh.over_the_flat_surface``); smaller (or
  float64's ulps for a float32 lane) reads a point that rounding put just outside
  as beside the surface, and its contact keeps the raw edge or vertex normal."""

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

INTERNAL_EDGE_ANGLE = 1e-4
"""Unit: radians.

Two mesh triangles sharing an edge whose normals differ by at most this angle are
flat there: the edge is internal (``physics.mesh_edges``) and a contact on it
reports the face normal.  1e-4 covers meshes stored in float32 (normals off by
~1e-7) and rotated coordinates; a real crease of 0.006 degrees gives a normal
within 1e-4 of the face's anyway.  Smaller lets float32 floors bump; larger hides
real creases (a 1-degree ramp edge would report the face normal)."""


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

BOUNDS_SLACK_ULPS = 1024.0
"""Unit: ulps (of the lane's float type) of the pair's scale (the largest |coordinate|
of either bounding ball's center, plus the motion's and both radii).

How far beyond the touching distance of two bounding balls a pair still gets its
exact test (``physics.sweep.bounds``): ~2.3e-13 of the scale in float64, ~1.2e-4 in
float32.  The exact test itself rounds by a few dozen ulps; this keeps every pair it
could find touching.  Zero skips grazes the exact test hits (a sphere grazing a segment's end
along its bounding ball: 28 of 300 such grazes were skipped,
``tests/physics/test_bounds.py``); larger only runs more exact tests."""

SQUARING_LIMIT = 1e150
"""Unit: coordinate magnitude (the pair's scale, as for ``BOUNDS_SLACK_ULPS``).

At or beyond this scale the bounding-ball test never skips a pair: it squares
lengths, and 1e150 squared is 1e300, just inside float64's 1.8e308 (a query that far
out is rescaled by ``physics.sweep.unit_size`` before its exact test anyway).
Larger lets squares overflow to inf and skip pairs that touch; smaller only runs
more exact tests."""


# --- second opinions (the GJK cast) -------------------------------------------------

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


# --- verification (tests, fixtures, reference solver) -------------------------------

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

FEATURE_CLEARANCE = 1e-6
"""Unit: fraction of the configuration's coordinate scale (distances) and radians (angles).

How clearly a brute-force contact must lie in one feature's region before a test
compares the feature a sweep reports with it: its point at least this far from every
other edge and vertex, its normal at least this far in angle from the face normal
(face) and from square to the edge (edge).  Within it, ties and round-off decide
(a sphere landing on an edge touches face and edge at once; the face wins).  Larger
compares fewer contacts; smaller compares grazes that either feature may claim."""


# --- turning sweeps (conservative advancement) ------------------------------------------

TURNING_TOUCH_RTOL = 2.0 ** -48
"""Unit: fraction of the pair's size (its largest coordinate, radius, pivot or
direction component; ``physics.sweep.advancement.scale_of``).

A turning sweep (``physics.sweep.turning``) reports a hit at the first advancement
step where the shapes' distance is at most this: 16 ulps of 1 in float64 (2^-52), a
few more than GJK's distance rounds to (``gjk.closest_between`` stops when its bounds
meet within 4 ulps of the cores' size).  Smaller costs steps (a contact made by
turning converges geometrically) and can leave a pair whose rounded distance never
gets that small undecided; larger reports t earlier, with the shapes further apart."""
