"""sweeplab physics: sweep tests (linear shape casts) in pure numpy.

Never imports the editor, GL or UI code.  Public API (stable): the shapes, the
answer type and ``sweep``.
"""

from physics.result import Feature, SweepResult
from physics.shapes import (Capsule, ConvexPolyhedron, Plane, Point, Polygon, Segment, Sphere, Triangle,
                            TriangleMesh)
from physics.sweep import sweep

__all__ = ["Point", "Segment", "Plane", "Triangle", "Polygon", "Sphere", "Capsule", "ConvexPolyhedron",
           "TriangleMesh", "SweepResult", "Feature", "sweep"]
