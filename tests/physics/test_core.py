"""Target cores: feature frames and the widest feature, per batch element."""

import numpy as np

from physics.core import EDGE, FACE, VERTEX, core_features, stack_cores


def test_frames_list_face_edges_vertices_in_code_order():
    triangle = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    features = core_features(triangle)
    assert features.codes.tolist() == [FACE, EDGE, EDGE, EDGE, VERTEX, VERTEX, VERTEX]
    anchors, axes = features.anchors.T, features.axes.T  # (F, 3)
    np.testing.assert_array_equal(anchors[0], triangle[0])
    np.testing.assert_array_equal(axes[0], [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(anchors[1:4], triangle)
    np.testing.assert_array_equal(axes[1:4], np.roll(triangle, -1, axis=0) - triangle)
    np.testing.assert_array_equal(anchors[4:], triangle)
    np.testing.assert_array_equal(axes[4:], 0)


def test_widest_feature_per_element_face_longest_edge_or_vertex():
    batch = np.array([
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],   # a face
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [3.0, 0.0, 0.0]],   # a sliver: its longest edge, 2 -> 0
        [[5.0, 5.0, 5.0], [5.0, 5.0, 5.0], [5.0, 5.0, 5.0]],   # a point
    ])
    features = core_features(batch)
    assert features.widest_code.tolist() == [FACE, EDGE, VERTEX]
    np.testing.assert_array_equal(features.widest_axis.T, [[0.0, 0.0, 1.0], [-3.0, 0.0, 0.0], [0.0, 0.0, 0.0]])


def test_segment_and_point_cores():
    segment = core_features(np.array([[0.0, 0.0, 0.0], [0.0, 2.0, 0.0]]))
    assert segment.widest_code == EDGE
    np.testing.assert_array_equal(segment.widest_axis, [0.0, 2.0, 0.0])
    assert segment.codes.tolist() == [EDGE, VERTEX, VERTEX]
    point = core_features(np.array([[1.0, 2.0, 3.0]]))
    assert point.widest_code == VERTEX
    np.testing.assert_array_equal(point.anchors[:, 0], [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(point.axes, 0)


def test_stacked_cores_are_padded_with_features_that_cannot_be_chosen():
    point = np.array([[1.0, 2.0, 3.0]])
    segment = np.array([[0.0, 0.0, 0.0], [0.0, 2.0, 0.0]])
    pentagon = np.array([[5.0, 0, 0], [5.0, 1, 0], [5.0, 2, 1], [5.0, 1, 2], [5.0, 0, 1]])
    alone = [core_features(vertices) for vertices in (point, segment, pentagon)]
    stacked = stack_cores(alone)
    assert stacked.codes.tolist() == [FACE] + [EDGE] * 5 + [VERTEX] * 5
    assert stacked.indices.tolist() == [0, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4]
    vertices = np.moveaxis(stacked.vertices, 0, -1)  # (core, vertex, 3)
    np.testing.assert_array_equal(vertices[0], np.repeat(point, 5, axis=0))
    np.testing.assert_array_equal(vertices[1], np.concatenate([segment, np.repeat(segment[:1], 3, axis=0)]))
    np.testing.assert_array_equal(vertices[2], pentagon)
    np.testing.assert_array_equal(stacked.edge_inverse_squared[:2], [[0.0] * 5, [0.25, 0, 0, 0, 0]])
    segment_edges = np.zeros((5, 3))
    segment_edges[0] = segment[1] - segment[0]
    np.testing.assert_array_equal(stacked.edges[:, 0].T, 0)
    np.testing.assert_array_equal(stacked.edges[:, 1].T, segment_edges)
    np.testing.assert_array_equal(stacked.face_normal[:, :2], 0)
    np.testing.assert_array_equal(stacked.inward[:, :2], 0)
    np.testing.assert_array_equal(stacked.face_normal[:, 2], alone[2].face_normal)
    np.testing.assert_array_equal(stacked.widest_code, [VERTEX, EDGE, FACE])
    for field in ("anchors", "axes"):  # the pentagon is not padded at all
        np.testing.assert_array_equal(getattr(stacked, field)[:, 2], getattr(alone[2], field))
