"""Write RGB(A) images as PNG with the standard library (zlib), no imaging package."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(pixels: np.ndarray) -> bytes:
    """PNG bytes of an (height, width, 3 or 4) uint8 image, top row first."""
    pixels = np.ascontiguousarray(pixels, dtype=np.uint8)
    height, width, channels = pixels.shape
    color_type = {3: 2, 4: 6}[channels]
    rows = np.concatenate([np.zeros((height, 1), np.uint8), pixels.reshape(height, -1)], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6))
            + _chunk(b"IEND", b""))


def decode_png(data: bytes) -> np.ndarray:
    """Pixels of a PNG written by ``encode_png`` (8-bit RGB/RGBA, filter 0 rows)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    position = 8
    chunks: dict[bytes, bytes] = {}
    while position < len(data):
        length, = struct.unpack(">I", data[position:position + 4])
        kind = data[position + 4:position + 8]
        chunks.setdefault(kind, b"")
        chunks[kind] += data[position + 8:position + 8 + length]
        position += 12 + length
    width, height, depth, color_type = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    channels = {2: 3, 6: 4}[color_type]
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, 1 + width * channels)
    if np.any(rows[:, 0]):
        raise ValueError("only unfiltered PNG rows are supported")
    return rows[:, 1:].reshape(height, width, channels)


def write_png(path, pixels: np.ndarray) -> None:
    Path(path).write_bytes(encode_png(pixels))
