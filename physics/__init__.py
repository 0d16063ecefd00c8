"""sweeplab physics: sweep tests (linear shape casts), compiled scalar kernels (numba).

Never imports the editor, GL or UI code.  Public API (stable): the shapes, the
answer type and ``sweep``.
"""

from sweeplab.physics.kernel_cache import keep_cache_in_step

keep_cache_in_step()  # before any kernel is loaded from numba's cache

from sweeplab.physics.result import Feature, SweepResult
from sweeplab.physics.shapes import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle,
                                     TriangleMesh)
from sweeplab.physics.sweep import sweep
from sweeplab.physics.sweep.turning import Motion

__all__ = ["Point", "Segment", "Plane", "Triangle", "Polygon", "Sphere", "Capsule", "ConvexPolyhedron",
           "TriangleMesh", "SweepResult", "Feature", "sweep", "Motion"]
