"""Surface materials: restitution and friction per body and per static shape, and how
a pair's two materials combine (Box2D's rule).

A contact between materials a and b bounces and grips as ``combined(a, b)``:

    restitution = max(e_a, e_b)        friction = sqrt(μ_a · μ_b)

so a bouncy ball bounces off any floor, and ice (μ = 0) makes any pair slide.  A
material of ``None`` (a body's default) is the world's own restitution and friction.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass


@dataclass(frozen=True)
class Material:
    """``restitution`` e in [0, 1] (the fraction of the approach speed a bounce leaves
    with) and Coulomb ``friction`` μ >= 0 (tangential over normal impulse), finite;
    ``ValueError`` naming the field otherwise."""

    restitution: float = 0.5
    friction: float = 0.5

    def __post_init__(self):
        for name, low, high in (("restitution", 0.0, 1.0), ("friction", 0.0, math.inf)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Real) \
                    or not (low <= value <= high and math.isfinite(value)):
                raise ValueError(f"{name} must be a finite number in [{low:g}, {high:g}], got {value!r}")
            object.__setattr__(self, name, float(value))


def combined(a: Material, b: Material) -> Material:
    """The material of a contact between ``a`` and ``b``: restitution the larger,
    friction the geometric mean (Box2D's ``b2MixRestitution``, ``b2MixFriction``)."""
    return Material(max(a.restitution, b.restitution), math.sqrt(a.friction * b.friction))
