"""The legend's layout (``ui.legend``), headless: which colours it lists, its columns,
its corner; and the camera's projection of points behind it."""

from __future__ import annotations

import numpy as np
import pytest

from sweeplab.cli import DEMO_SCENE
from sweeplab.scene.model import load
from sweeplab.ui.legend import CORNERS, MARGIN, WIDTH_SHARE, corner, grid, shown_entries
from sweeplab.view import model as view_model
from sweeplab.view.camera import OrbitCamera

VIEW = (100.0, 20.0, 600.0, 400.0)
BOX = (200.0, 100.0)


def test_the_legend_lists_the_colours_the_view_draws_with():
    view = view_model.build_view_model(load(DEMO_SCENE), selected="mover")
    listed = {meaning for _, meaning in shown_entries(view)}
    assert {"start", "time of impact", "end", "swept path", "target hit", "first hit (outline)", "target missed",
            "contact point", "contact normal", "feature touched", "selected (outline)"} <= listed
    assert not listed & {"overlapping at start", "separation (depth)", "another engine's answer", "collide and slide"}


def test_the_legend_lists_nothing_for_an_empty_view():
    assert shown_entries(view_model.ViewModel()) == []


@pytest.mark.parametrize("view_width, columns", [(200.0, 2), (200.5, 2), (199.5, 1), (1000.0, 5), (10.0, 1)])
def test_columns_fit_in_a_share_of_the_view(view_width, columns):
    """60-pixel cells: ``WIDTH_SHARE`` (0.6) of a 200-pixel view holds exactly two."""
    assert WIDTH_SHARE * 200.0 == 2 * 60.0
    assert grid(5, 60.0, view_width) == (columns, -(-5 // columns))


def test_one_column_at_least_and_no_more_columns_than_entries():
    assert grid(3, 60.0, 10_000.0) == (3, 1)
    assert grid(0, 60.0, 600.0) == (1, 0)


@pytest.mark.parametrize("count, cell_width, named", [(-1, 60.0, "count"), (3, 0.0, "cell_width"),
                                                      (3, float("nan"), "cell_width")])
def test_a_bad_grid_is_refused(count, cell_width, named):
    with pytest.raises(ValueError, match=named):
        grid(count, cell_width, 600.0)


def test_the_legend_takes_the_bottom_right_corner_unless_a_point_shows_there():
    x, y, width, height = VIEW
    bottom_right = (x + width - MARGIN - BOX[0], y + height - MARGIN - BOX[1])
    assert CORNERS[0] == (1, 1) and corner(VIEW, BOX, np.zeros((0, 2)), 30.0) == bottom_right
    contact = [[x + width - 50.0, y + height - 50.0]]
    assert corner(VIEW, BOX, contact, 30.0) == (x + MARGIN, y + height - MARGIN - BOX[1])  # bottom left
    everywhere = [[x + 50.0, y + 50.0], [x + width - 50.0, y + height - 50.0], [x + 50.0, y + height - 50.0],
                  [x + width - 60.0, y + height - 60.0], [x + 50.0, y + height - 60.0]]
    assert corner(VIEW, BOX, everywhere, 30.0) == (x + width - MARGIN - BOX[0], y + 30.0)  # top right: none there


def test_a_point_on_the_legends_edge_counts_as_covered():
    x, y, width, height = VIEW
    edge = [[x + width - MARGIN - BOX[0], y + height - MARGIN]]  # the bottom right box's bottom-left corner
    assert corner(VIEW, BOX, edge, 30.0) != (x + width - MARGIN - BOX[0], y + height - MARGIN - BOX[1])
    beside = [[x + width - MARGIN - BOX[0] - 0.5, y + height - MARGIN]]
    assert corner(VIEW, BOX, beside, 30.0) == (x + width - MARGIN - BOX[0], y + height - MARGIN - BOX[1])


def test_points_behind_the_camera_project_to_nan_when_asked():
    camera = OrbitCamera.parse("0,0,10,0,0,0")
    behind = camera.eye() + (camera.eye() - camera.target)  # as far behind the eye as the target is ahead
    both = np.array([camera.target, behind])
    pixels = camera.project(both, (800, 600), ahead_only=True)
    assert np.allclose(pixels[0], (400, 300)) and np.array_equal(pixels[0], camera.project(both, (800, 600))[0])
    assert np.isnan(pixels[1]).all() and np.isfinite(camera.project(both, (800, 600))[1]).all()
