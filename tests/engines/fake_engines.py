"""An engine a worker process imports by name (module level, so it pickles): it
agrees with sweeplab, and crashes its process on chosen queries."""

from __future__ import annotations

from sweeplab.scene.query_log import Engine, EngineAnswer
from tests.engines.fake_tasks import crash


class Agrees:
    """Answers sweeplab's own answer (so every query agrees) and keeps the moving
    sphere's centre of each query in ``asked``; crashes the process on the query whose
    moving centre's x is ``abort_at`` or ``segfault_at``."""

    info = Engine("agrees", "1", "float64")

    def __init__(self, abort_at: float | None = None, segfault_at: float | None = None):
        self.crashes = {abort_at: "abort", segfault_at: "segfault"}
        self.crashes.pop(None, None)
        self.asked: list[list[float]] = []

    def answer(self, moving, target, direction) -> EngineAnswer:
        from sweeplab.physics import sweep

        x = float(moving.center[0])
        if x in self.crashes:
            crash(self.crashes[x])
        self.asked.append([float(v) for v in moving.center])
        ours = sweep(moving, target, direction)
        if not ours.hit:
            return EngineAnswer(False)
        return EngineAnswer(True, float(ours.t), [float(v) for v in ours.point], [float(v) for v in ours.normal])


def unguarded_fcl():
    """python-fcl's adapter with conservative advancement but without its refusal of
    mesh targets (``FclAdapter.answer`` checks the solver's name, the request keeps the
    solver): the real segfault that refusal avoids."""
    from sweeplab.engines.fcl_engine import FclAdapter

    adapter = FclAdapter()
    adapter.solver = "conservative advancement, unguarded"
    return adapter


class Box3dWithoutSlop:
    """Box3D's answers with its contact offset and tolerance dropped: what comparing
    its raw t with sweeplab's touching t would find."""

    def __init__(self):
        from sweeplab.engines import engine

        self.box3d = engine("box3d")
        self.info = self.box3d.info

    def answer(self, moving, target, direction) -> EngineAnswer:
        answer = self.box3d.answer(moving, target, direction)
        return EngineAnswer(answer.hit, answer.t, answer.point, answer.normal)


class InventsGrazes:
    """Agrees with sweeplab, except that it says hit where sweeplab misses by a graze
    (the shapes pass within 1e-14 of the configuration's size): only tolerance effects."""

    info = Engine("invents-grazes", "1", "float64")

    def answer(self, moving, target, direction) -> EngineAnswer:
        from sweeplab.engines.margin import margin, size
        from sweeplab.physics import sweep

        ours = sweep(moving, target, direction)
        if ours.hit:
            return EngineAnswer(True, float(ours.t), [float(v) for v in ours.point], [float(v) for v in ours.normal])
        found = margin(moving, target, direction)
        grazing = found is not None and abs(found) <= 1e-14 * size(moving, target, direction)
        return EngineAnswer(True, 0.5) if grazing else EngineAnswer(False)


def make_adapter(**options):
    """The module as an engine of ``sweeplab.engines.ADAPTERS`` (a test registers it):
    ``InventsGrazes``."""
    return InventsGrazes()
