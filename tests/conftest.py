"""Shared fixtures.  GL tests need a real OpenGL context: without one they skip,
except when ``SWEEPLAB_REQUIRE_GL=1`` (CI), where a missing context fails them."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def gl_context():
    from app.headless import GLUnavailable, create_context

    try:
        ctx = create_context()
    except GLUnavailable as error:
        if os.environ.get("SWEEPLAB_REQUIRE_GL") == "1":
            pytest.fail(f"SWEEPLAB_REQUIRE_GL=1 but {error}")
        pytest.skip(str(error))
    yield ctx
    ctx.release()
