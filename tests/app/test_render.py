"""Headless rendering: real frames through Mesa's EGL, checked on their pixels."""

import numpy as np
import pytest

from sweeplab.scene import tessellate
from sweeplab.view.camera import OrbitCamera
from sweeplab.cli import DEMO_SCENE, main
from sweeplab.render.headless import OffscreenRenderer
from sweeplab.render.png import decode_png
from sweeplab.render.renderer import BACKGROUND, _by_style
from sweeplab.scene.model import Scene, SceneObject, load
from sweeplab.render.programs import PROGRAMS, build_program
from sweeplab.view.model import CONTACT, HIT, OVERLAP, Drawable, LineBatch, ViewModel, build_view_model

SIZE = (480, 320)


def near(pixels: np.ndarray, color, tolerance=40) -> np.ndarray:
    """Mask of pixels within ``tolerance`` (0-255 per channel) of an RGBA colour."""
    target = np.array(color[:3]) * 255
    return np.all(np.abs(pixels.astype(int) - target) <= tolerance, axis=-1)


def shaded_like(pixels: np.ndarray, color, tolerance=0.08) -> np.ndarray:
    """Mask of pixels whose chromaticity matches ``color`` (flat shading scales brightness)."""
    rgb = pixels.astype(float)
    total = rgb.sum(axis=-1, keepdims=True)
    target = np.array(color[:3]) / sum(color[:3])
    return (total[..., 0] > 60) & np.all(np.abs(rgb / np.maximum(total, 1) - target) <= tolerance, axis=-1)


@pytest.fixture(scope="module")
def offscreen(gl_context):
    return OffscreenRenderer(SIZE, ctx=gl_context)


def framed(view) -> OrbitCamera:
    camera = OrbitCamera()
    camera.frame(*view.bounds)
    return camera


def test_every_shader_compiles(gl_context):
    with gl_context:
        for name in PROGRAMS:
            assert build_program(gl_context, name).glo > 0


def test_frame_is_not_black(offscreen):
    view = build_view_model(load(DEMO_SCENE))
    pixels = offscreen.render(view, framed(view))
    assert pixels.shape == (SIZE[1], SIZE[0], 3)
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 50


def test_contact_marker_is_drawn_at_the_projected_contact_point(offscreen):
    view = build_view_model(load(DEMO_SCENE))
    camera = framed(view)
    pixels = offscreen.render(view, camera)
    for report in view.reports:
        if report.status != "hit":
            continue
        x, y = camera.project(report.result.point, SIZE)[0].round().astype(int)
        window = pixels[y - 2:y + 3, x - 2:x + 3]
        assert near(window, CONTACT).any(), f"no contact marker for {report.name} at {(x, y)}"


def test_miss_scene_has_no_hit_colour(offscreen):
    scene = Scene([SceneObject("ball", "sphere", {"center": [-4.0, 3.0, 0.0], "radius": 1.0}),
                   SceneObject("tri", "triangle", {"a": [0.0, -1, -1], "b": [0.0, 1, -1], "c": [0.0, 0, 1]})],
                  moving="ball", direction=[8.0, 0.0, 0.0])
    view = build_view_model(scene)
    assert view.reports[0].status == "miss"
    pixels = offscreen.render(view, framed(view), show_grid=False)
    assert not shaded_like(pixels, HIT).any()
    assert not near(pixels, CONTACT).any()
    hit_scene = Scene(scene.objects[:1] + scene.objects[1:], moving="ball", direction=[8.0, -3.0, 0.0])
    hit_pixels = offscreen.render(build_view_model(hit_scene), framed(view), show_grid=False)
    assert shaded_like(hit_pixels, HIT).sum() > 100


def test_initial_overlap_colour(offscreen):
    scene = Scene([SceneObject("ball", "sphere", {"center": [0.0, 0.0, 0.5], "radius": 1.0}),
                   SceneObject("floor", "polygon", {"vertices": [[-3.0, -3, 0], [3.0, -3, 0], [3.0, 3, 0],
                                                                 [-3.0, 3, 0]]})],
                  moving="ball", direction=[2.0, 0.0, 0.0])
    view = build_view_model(scene)
    pixels = offscreen.render(view, framed(view), show_grid=False)
    assert shaded_like(pixels, OVERLAP).sum() > 100


def test_render_command_writes_a_png(tmp_path, gl_context, capsys):
    output = tmp_path / "frame.png"
    assert main(["render", "-o", str(output), "--size", "200x120", "--camera=-60,30,25"]) == 0
    assert decode_png(output.read_bytes()).shape == (120, 200, 3)
    assert "5 of 6 targets hit" in capsys.readouterr().out


def test_render_command_reports_a_bad_scene(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["render", str(bad), "-o", str(tmp_path / "x.png")]) == 2
    assert "not a sweeplab scene" in capsys.readouterr().err


@pytest.mark.parametrize("convex", [False, True])
def test_see_through_surface_is_blended_once(offscreen, convex):
    """A see-through surface covers each pixel with one blend of its colour: the depth
    pre-pass of a two-sided surface writes no colour (it once did: moderngl applies a
    colour mask only when the framebuffer is bound), a culled convex solid needs none."""
    surface = tessellate.capsule([0, 0, 0], [0, 0, 0], 1.0) if convex else \
        tessellate.polygon([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]])

    def center_pixel(alpha):
        view = ViewModel(drawables=[Drawable(tessellate.Mesh(surface.triangles, convex=surface.convex),
                                             (0.9, 0.2, 0.2, alpha), outline_width=0.0)])
        camera = framed(view)
        pixels = offscreen.render(view, camera, show_grid=False).astype(float)
        return pixels[SIZE[1] // 2 - 2:SIZE[1] // 2 + 3, SIZE[0] // 2 - 2:SIZE[0] // 2 + 3].mean(axis=(0, 1))

    opaque, background = center_pixel(1.0), np.array(BACKGROUND[:3]) * 255
    np.testing.assert_allclose(center_pixel(0.5), (opaque + background) / 2, atol=3)


def test_batches_of_one_style_are_one_draw_call():
    view = build_view_model(load(DEMO_SCENE), "mover")
    batches = [((b.color, b.width, b.on_top), b.segments) for b in view.lines]
    lines = _by_style(batches)
    assert len(lines) == len({style for style, _ in batches}) < len(batches)
    for style, segments in lines:
        same = [np.reshape(positions, (-1, 3)) for other, positions in batches if other == style]
        np.testing.assert_array_equal(segments, np.concatenate(same))
    points = _by_style([((b.color, b.size, b.on_top), b.positions) for b in view.points])
    contacts = [positions for (color, _, _), positions in points if color == CONTACT]
    assert len(contacts) == 1 and len(contacts[0]) == 5


def test_opaque_outlines_and_points_are_drawn_by_style(offscreen):
    """Opaque shapes' outlines and corner points share one call per style; a
    see-through shape's stay with its surface (blending depends on order)."""
    view = build_view_model(load(DEMO_SCENE), "mover")
    offscreen.render(view, framed(view))
    calls = offscreen.renderer._calls
    opaque = [d for d in view.drawables if d.fill[3] >= 1]
    see_through = [d for d in view.drawables if d.fill[3] < 1]
    outline_styles = {(d.outline, d.outline_width) for d in opaque if d.outline_width > 0 and len(d.mesh.outline)}
    point_styles = {(d.fill, d.point_size) for d in opaque if len(d.mesh.points)}
    assert len(outline_styles) < len(opaque)
    assert len([c for c in calls if c.program == "line" and c.stage == "opaque"]) == len(outline_styles)
    assert len([c for c in calls if c.program == "point" and c.stage == "opaque"]) == len(point_styles)
    translucent = [c.program for c in calls if c.stage == "translucent"]
    assert translucent.count("mesh") == len(see_through) and translucent[0] == "mesh"


def test_see_through_surfaces_do_not_hide_what_is_behind_them(offscreen):
    """A line through a see-through ball is seen inside it, and the ball and a second
    see-through surface that coincides with it (the swept path's end cap and the end
    pose) blend evenly: see-through surfaces write no depth.  moderngl keeps the
    depth mask on the framebuffer; ``ctx.depth_mask = False`` did nothing, and the
    end pose was speckled where the two surfaces fought."""
    green = (0.1, 0.9, 0.1, 1.0)
    ball = tessellate.sphere([0.0, 0, 0], 1.0)
    path = tessellate.capsule([-3.0, 0, 0], [0.0, 0, 0], 1.0)
    line = LineBatch(np.array([[[0.0, 0, -3], [0.0, 0, 3]]]), green, width=3.0)

    def render(drawables, lines):
        view = ViewModel(drawables=drawables, lines=lines)
        camera = OrbitCamera(yaw=-np.pi / 2, pitch=0.0, distance=6.0)  # looking along +y
        return offscreen.render(view, camera, show_grid=False).astype(int)

    see_through = Drawable(ball, (0.3, 0.3, 0.9, 0.4), outline_width=0.0)
    pixels = render([see_through], [line])
    middle = pixels[SIZE[1] // 2, SIZE[0] // 2]
    assert middle[1] > middle[0] + 60 and middle[1] > middle[2], middle  # green, seen through the ball
    path_only = render([Drawable(path, (0.4, 0.65, 1.0, 0.22), outline_width=0.0)], [])
    ball_only = render([see_through], [])
    both = render([Drawable(path, (0.4, 0.65, 1.0, 0.22), outline_width=0.0), see_through], [])
    # the ball blended over the path everywhere: ball_only + (1 - alpha) (path_only - background)
    background = np.array(BACKGROUND[:3]) * 255
    expected = ball_only + (1 - see_through.fill[3]) * (path_only - background)
    rows, columns = slice(SIZE[1] // 2 - 30, SIZE[1] // 2 + 30), slice(SIZE[0] // 2 + 5, SIZE[0] // 2 + 40)
    assert np.abs(both - expected)[rows, columns].max() <= 3


@pytest.mark.parametrize("width", [1.0, 3.0, 8.0])
def test_lines_are_as_wide_as_asked_in_pixels(offscreen, width):
    """A vertical line across the view, seen head-on: one-pixel lines are GL's own,
    wider ones quads widened in the vertex shader (one instance per segment).  Along
    a row of the frame the line's coverage (multisampled: a line between pixel
    centres shares them) adds up to ``width`` pixels."""
    green = (0.1, 0.9, 0.1, 1.0)
    line = LineBatch(np.array([[[0.0, 0, -3], [0.0, 0, 3]]]), green, width=width)
    camera = OrbitCamera(yaw=-np.pi / 2, pitch=0.0, distance=6.0)
    pixels = offscreen.render(ViewModel(lines=[line]), camera, show_grid=False).astype(float)
    background, ink = BACKGROUND[1] * 255, green[1] * 255
    coverage = np.clip((pixels[..., 1] - background) / (ink - background), 0, 1)
    assert abs(coverage[SIZE[1] // 2].sum() - width) <= 0.25, coverage[SIZE[1] // 2].sum()
    assert np.all(np.abs(coverage[20:-20].sum(axis=1) - width) <= 0.25)  # the whole way down


def test_a_wide_line_reaching_behind_the_camera_is_cut_at_the_eye(offscreen):
    """Clip-space w crosses zero along the segment: the part in front is drawn (from
    the bottom of the view inwards), the part behind is not folded back into view."""
    green = (0.1, 0.9, 0.1, 1.0)
    camera = OrbitCamera(yaw=-np.pi / 2, pitch=0.0, distance=6.0)
    eye = camera.eye()
    line = LineBatch(np.array([[[0.0, 0, -0.5], eye + 10 * (eye - 0) / np.linalg.norm(eye) + [0, 0, -0.5]]]), green,
                     width=4.0)
    pixels = offscreen.render(ViewModel(lines=[line]), camera, show_grid=False)
    seen = near(pixels, green, tolerance=60)
    rows = np.flatnonzero(seen.any(axis=1))
    assert len(rows) > 0 and rows.max() == SIZE[1] - 1  # runs to the bottom edge (towards the eye, below it)
    assert not seen[: SIZE[1] // 2].any()  # nothing above the horizon: the part behind the eye is cut


def test_particle_sprites_are_shaded_discs_as_wide_as_their_spheres(offscreen):
    """A sprite of radius r at the origin covers the sphere's silhouette: twice the
    radius, twice the width on screen; its pixels are the colour shaded (lit towards
    the upper left, darker at the lower right), the background around it."""
    from sweeplab.view.model import SpriteBatch

    blue = (0.2, 0.5, 0.9, 1.0)
    camera = OrbitCamera()
    camera.frame(np.full(3, -1.0), np.full(3, 1.0))
    widths = []
    for radius in (0.25, 0.5):
        view = ViewModel(sprites=[SpriteBatch(np.zeros((1, 3)), radius, blue)])
        pixels = offscreen.render(view, camera, show_grid=False)
        covered = ~near(pixels, BACKGROUND, tolerance=3)
        rows, columns = np.nonzero(covered)
        widths.append(columns.max() - columns.min() + 1)
        centre = camera.project(np.zeros((1, 3)), SIZE)[0]
        assert covered[int(centre[1]), int(centre[0])]
        disc = pixels[covered].astype(float)
        assert np.all(disc[:, 2] >= disc[:, 0])  # blue, however lit
        assert disc.sum(axis=1).max() > 1.5 * disc.sum(axis=1).min()  # shaded, not flat
    assert widths[1] == pytest.approx(2 * widths[0], rel=0.1)
