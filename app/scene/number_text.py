"""Numbers written as text: what a person types into a field, or a log writes.

One reader, ``parse_number``, for both: a decimal (``"0.1"``, ``"-2e-9"``, parsed
by ``float``, correctly rounded, so a typed value is kept bit-exact) or a hex float
(``"0x1p-3"``, ``"-0x1.8p+1"``: what C's ``%a`` and ``float.hex`` print, read
exactly by ``float.fromhex``).  The value must be finite: NaN and infinity (also a
decimal or hex float beyond float64's range) are refused.  Every refusal is a
``ValueError`` that names the value and says plainly what was wrong.
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
        try:
            return float.fromhex(written)
        except OverflowError:
            raise ValueError(f"{name}: {brief(written)} is beyond the float64 range") from None
    try:
        number = float(written)
    except ValueError:
        if "," in written and _is_decimal(written.replace(",", ".", 1)):
            raise ValueError(f"{name}: {brief(written)} is not a number: write the decimal point as '.'"
                             f" ({written.replace(',', '.', 1)})") from None
        raise ValueError(f"{name}: {brief(written)} is not a number") from None
    if not math.isfinite(number):
        beyond = written.lower().lstrip("+-") not in ("nan", "inf", "infinity")
        raise ValueError(f"{name}: {brief(written)} is beyond the float64 range" if beyond
                         else f"{name} must be finite, got {brief(written)}")
    return number


def _is_decimal(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False
