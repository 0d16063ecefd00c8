"""Nudging: the selected shape, or the direction, by one ulp or by an epsilon along an axis."""

from __future__ import annotations

import numpy as np

from sweeplab.scene.shape_kinds import KINDS
from sweeplab.editor.parts import EditorParts


class Nudging(EditorParts):
    """The ``Editor``'s nudge settings, owned here (the axis; by one ulp or by
    ``nudge_epsilon``; the selected shape, or the direction with ``nudge_direction``)
    and the nudge command."""

    def _init_nudging(self) -> None:
        self.nudge_axis, self.nudge_by_ulp, self.nudge_direction, self.nudge_epsilon = 0, True, False, 1e-12

    def set_nudge_axis(self, axis: int) -> None:
        self.nudge_axis = axis

    def toggle_nudge_mode(self) -> None:
        self.nudge_by_ulp = not self.nudge_by_ulp

    def toggle_nudge_target(self) -> None:
        self.nudge_direction = not self.nudge_direction

    def _nudged(self, value: float, sign: int) -> float:
        if self.nudge_by_ulp:
            return float(np.nextafter(value, sign * np.inf))
        return float(value + sign * self.nudge_epsilon)

    def nudge(self, sign: int) -> None:
        """Move the selected shape (every point's coordinate on the nudge axis) or the
        direction's component by one ulp or by ``nudge_epsilon``."""
        axis = self.nudge_axis
        if self.nudge_direction:
            direction = list(self.scene.direction)
            direction[axis] = self._nudged(direction[axis], sign)
            self.set_direction(direction)
            return
        if self.selected is None:
            return
        scene_object = self.scene.object(self.selected)
        kind = KINDS[scene_object.kind]
        params = {}
        for parameter in kind.parameters:
            value = scene_object.params[parameter.name]
            if kind.nudged is not None and parameter.name not in kind.nudged:
                pass
            elif parameter.type == "point":
                value = [self._nudged(v, sign) if i == axis else v for i, v in enumerate(value)]
            elif parameter.type in ("points", "body points"):
                value = [[self._nudged(v, sign) if i == axis else v for i, v in enumerate(p)] for p in value]
            elif parameter.type == "offset":  # a plane moves along its normal
                value = self._nudged(value, sign)
            params[parameter.name] = value
        name = self.selected
        self.edit(lambda scene: setattr(scene.object(name), "params", params))
