"""Sweep tests: one module per moving-shape family, and the dispatcher ``sweep``."""

from sweeplab.physics.sweep.capsule import (sweep_capsule_capsule, sweep_capsule_plane, sweep_capsule_polygon,
                                            sweep_capsule_segment, sweep_capsule_triangle)
from sweeplab.physics.sweep.dispatch import sweep, sweep_each
from sweeplab.physics.sweep.sphere import (sweep_sphere_capsule, sweep_sphere_plane, sweep_sphere_point,
                                           sweep_sphere_polygon, sweep_sphere_segment, sweep_sphere_sphere,
                                           sweep_sphere_triangle)

__all__ = ["sweep", "sweep_each", "sweep_capsule_capsule", "sweep_capsule_plane", "sweep_capsule_polygon",
           "sweep_capsule_segment",
           "sweep_capsule_triangle", "sweep_sphere_capsule",
           "sweep_sphere_plane", "sweep_sphere_point", "sweep_sphere_polygon", "sweep_sphere_segment",
           "sweep_sphere_sphere", "sweep_sphere_triangle"]
