"""What one step of the playground's world cost: ``StepStats``, filled by ``World.step``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StepStats:
    """One step's work: ``substeps`` (contact times the step stopped at, plus the last
    stretch; 1 with CCD off), ``sweeps`` (pair sweeps: pairs swept for their first
    contact, resting pairs probed, with CCD off pairs tested for overlap; not the
    contact patch's corner probes), ``solver_iterations`` (sequential-impulse passes
    over a layer's contacts, summed over the step's layers and groups), ``contacts``
    (contact events resolved) and ``cpu_seconds`` (the process's CPU time in the step)."""

    substeps: int = 0
    sweeps: int = 0
    solver_iterations: int = 0
    contacts: int = 0
    cpu_seconds: float = 0.0
