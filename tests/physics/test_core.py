"""Target cores: feature frames and the widest feature, per batch element."""

import numpy as np

from physics.core import EDGE, FACE, VERTEX, core_features


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
