"""Numbers written as text: what a person types into a field, or a log writes.

One reader, ``parse_number``, for both: a decimal (``"0.1"``, ``"-2e-9"``, parsed
by ``float``, correctly rounded, so a typed value is kept bit-exact) or a hex float
(``"0x1p-3"``, ``"-0x1.8p+1"``: what C's ``%a`` and ``float.hex`` print, read
exactly by ``float.fromhex``).  The value must be finite: NaN and infinity (also a
decimal or hex float beyond float64's range) are refused.  Every refusal is a
``ValueError`` that names the value and says plainly what was wrong.

A log's strings are read by ``parse_hex_float``: there a number is a JSON number,
and a string must be a hex float (a decimal in quotes is refused, saying to drop
the quotes).
"""

from __future__ import annotations

import math
import re

from sweeplab.scene.json_files import brief

HEX_FLOAT = re.compile(r"^[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?$")
"""A hex float as ``float.hex`` and C's ``%a`` write it (the ``p`` exponent optional)."""


def parse_number(text: str, name: str) -> float:
    """The finite float ``text`` spells (surrounding blanks ignored); ``ValueError``
    naming ``name`` for no number, a decimal comma, any other text, NaN, infinity, or a
    value beyond float64's range."""
    written = text.strip()
    if not written:
        raise ValueError(f"{name}: nothing typed (a number is needed)")
    if HEX_FLOAT.match(written):
        return _from_hex(written, name)
    try:
        number = float(written)
    except ValueError:
        if "," in written and _is_decimal(written.replace(",", ".", 1)):
            raise ValueError(f"{name}: {brief(written)} is not a number: write the decimal point as '.'"
                             f" ({written.replace(',', '.', 1)})") from None
        raise ValueError(f"{name}: {brief(written)} is not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {brief(written)}" if _names_no_finite_number(written)
                         else f"{name}: {brief(written)} is beyond the float64 range")
    return number


def parse_hex_float(text: str, name: str) -> float:
    """The float a hex-float string spells (surrounding blanks ignored): how a log writes
    a float exactly as a string.  ``ValueError`` naming ``name``: "must be finite" for
    NaN or infinity (what ``%a`` prints for them: ``nan``, ``-inf``), "beyond the
    float64 range", and "is not a number or hex float" for anything else — a decimal
    in quotes too, saying to drop the quotes."""
    written = text.strip()
    if HEX_FLOAT.match(written):
        return _from_hex(written, name)
    if _names_no_finite_number(written):
        raise ValueError(f"{name} must be finite, got {brief(written)}")
    hint = " (a decimal in quotes: write it as a JSON number, without the quotes)" if _is_decimal(written) else ""
    raise ValueError(f"{name}: {brief(text)} is not a number or hex float{hint}")


def _from_hex(written: str, name: str) -> float:
    try:
        return float.fromhex(written)
    except OverflowError:
        raise ValueError(f"{name}: {brief(written)} is beyond the float64 range") from None


def _names_no_finite_number(written: str) -> bool:
    """NaN or infinity by name, signed or not (``float`` reads these words)."""
    return written.lower().lstrip("+-") in ("nan", "inf", "infinity")


def _is_decimal(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False
