import numpy as np

from sweeplab.render.png import decode_png, encode_png


def test_round_trip():
    pixels = np.random.default_rng(3).integers(0, 256, (7, 5, 3), dtype=np.uint8)
    assert np.array_equal(decode_png(encode_png(pixels)), pixels)
    rgba = np.random.default_rng(4).integers(0, 256, (2, 9, 4), dtype=np.uint8)
    assert np.array_equal(decode_png(encode_png(rgba)), rgba)
