"""Orbit camera: a target point seen from ``distance`` at ``yaw``/``pitch`` (z up).

Matrices follow pyrr's row-vector convention (``point @ view @ projection``);
their bytes are the column-major layout GL expects for ``matrix * vector``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import pyrr

from sweeplab.scene.json_files import brief

UP = np.array([0.0, 0.0, 1.0])
PITCH_LIMIT = np.radians(89.0)


@functools.lru_cache(maxsize=8)
def _look_at(eye: tuple, target: tuple) -> pyrr.Matrix44:
    """pyrr's view matrix (~0.1 ms a call), once per camera pose: frames that only
    change the scene ask for it several times with the same pose.  Do not modify it."""
    return pyrr.Matrix44.look_at(np.array(eye), np.array(target), UP)


@dataclass
class OrbitCamera:
    target: np.ndarray = field(default_factory=lambda: np.zeros(3))
    yaw: float = np.radians(-60.0)
    pitch: float = np.radians(30.0)
    distance: float = 20.0
    field_of_view: float = 40.0  # vertical, degrees

    def eye(self) -> np.ndarray:
        offset = np.array([np.cos(self.pitch) * np.cos(self.yaw), np.cos(self.pitch) * np.sin(self.yaw),
                           np.sin(self.pitch)])
        return self.target + self.distance * offset

    def view(self) -> np.ndarray:
        return _look_at(tuple(self.eye().tolist()), tuple(np.asarray(self.target, float).tolist()))

    def projection(self, aspect: float) -> np.ndarray:
        near = max(self.distance * 1e-3, 1e-6)
        return pyrr.Matrix44.perspective_projection(self.field_of_view, aspect, near, self.distance * 100)

    def view_projection(self, size: tuple[float, float]) -> np.ndarray:
        return np.asarray(self.view() @ self.projection(size[0] / size[1]))

    def project(self, points, size: tuple[float, float], ahead_only: bool = False) -> np.ndarray:
        """Pixel coordinates (x right, y down from the top-left) of world points (n, 3).
        A point behind the camera comes out mirrored; with ``ahead_only``, NaN."""
        points = np.atleast_2d(np.asarray(points, float))
        clip = np.c_[points, np.ones(len(points))] @ self.view_projection(size)
        w = clip[:, 3:4]
        if ahead_only:
            w = np.where(w > 0, w, np.nan)
        ndc = clip[:, :2] / w
        return np.c_[(ndc[:, 0] + 1) / 2 * size[0], (1 - ndc[:, 1]) / 2 * size[1]]

    def ray(self, pixel, size: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
        """(origin, segment) of the view ray through ``pixel`` (x right, y down from
        the top-left): from the near plane to the far plane."""
        x, y = pixel
        ndc = np.array([2 * x / size[0] - 1, 1 - 2 * y / size[1]])
        inverse = np.linalg.inv(self.view_projection(size))
        ends = np.array([[ndc[0], ndc[1], -1.0, 1.0], [ndc[0], ndc[1], 1.0, 1.0]]) @ inverse
        ends = ends[:, :3] / ends[:, 3:4]
        return ends[0], ends[1] - ends[0]

    def orbit(self, dx_pixels: float, dy_pixels: float) -> None:
        self.yaw -= np.radians(dx_pixels * 0.4)
        self.pitch = float(np.clip(self.pitch - np.radians(dy_pixels * 0.4), -PITCH_LIMIT, PITCH_LIMIT))

    def pan(self, dx_pixels: float, dy_pixels: float, height_pixels: float) -> None:
        view = self.view()
        right, up = np.asarray(view[:3, 0]), np.asarray(view[:3, 1])
        per_pixel = 2 * self.distance * np.tan(np.radians(self.field_of_view) / 2) / max(height_pixels, 1)
        self.target = self.target - (dx_pixels * right + dy_pixels * up) * per_pixel

    def zoom(self, steps: float) -> None:
        self.distance *= 0.9 ** steps

    def frame(self, low, high) -> None:
        """Look at the box [low, high] so that it fills the view."""
        low, high = np.asarray(low, float), np.asarray(high, float)
        self.target = (low + high) / 2
        radius = max(float(np.linalg.norm(high - low)) / 2, 1e-6)
        self.distance = radius / np.sin(np.radians(self.field_of_view) / 2) * 1.05

    def to_json(self) -> dict:
        return {"target": self.target.tolist(), "yaw": float(np.degrees(self.yaw)),
                "pitch": float(np.degrees(self.pitch)), "distance": float(self.distance)}

    @classmethod
    def parse(cls, text: str) -> OrbitCamera:
        """From ``"yaw,pitch,distance[,tx,ty,tz]"`` (degrees), as the command line takes it."""
        try:
            values = [float(v) for v in text.split(",")]
        except ValueError:
            raise ValueError(f"camera must be numbers 'yaw,pitch,distance[,x,y,z]', got {brief(text)}") from None
        if len(values) not in (3, 6) or values[2] <= 0:
            raise ValueError(f"camera must be 'yaw,pitch,distance[,x,y,z]' with distance > 0, got {brief(text)}")
        camera = cls(yaw=np.radians(values[0]), pitch=np.radians(values[1]), distance=values[2])
        if len(values) == 6:
            camera.target = np.array(values[3:])
        return camera
