"""Lesson 10, conservative advancement: the exercise's check.  The lesson's picture is
the Conservative advancement panel's (``view.advancement``'s report of
``physics.sweep.turning.advancement_steps``), and its steps draw the moving shape at
an iteration's t (``Step.iteration``); this module only judges the exercise.
"""

from __future__ import annotations

from sweeplab.scene.model import Scene
from sweeplab.view.advancement import AdvancementReport, advancement_report, advancement_target
from sweeplab.view.exercises import Missing, Verdict, check


def lesson_report(scene: Scene) -> AdvancementReport:
    """The advancement of the scene's turning sweep against its first target;
    ``Missing`` when there is no moving shape, no target or no turn."""
    if scene.moving is None or scene.moving not in scene.names():
        raise Missing("The scene has no moving shape: the exercise needs the turning bat.")
    target = advancement_target(scene, None, None)
    if target is None:
        raise Missing("The scene has no target: the exercise needs the wall.")
    if not scene.turns:
        raise Missing("The sweep does not turn (its rotation is zero): there are no iterations to count.")
    return advancement_report(scene, target)


@check("many iterations", least=10)
def many_iterations(scene: Scene, args: dict) -> Verdict:
    """The turning sweep still reports a contact, and conservative advancement took at
    least ``least`` iterations to certify it."""
    report = lesson_report(scene)
    count = len(report.steps)
    now = f"Against {report.target}: {report.explanation}"
    if not report.answer.hit:
        return Verdict(False, f"{now} The sweep must still end in a contact.")
    if count >= args["least"]:
        return Verdict(True, f"{now} {count} >= {args['least']}.")
    return Verdict(False, f"{now} {count} < {args['least']}.")
