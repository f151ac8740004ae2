"""Shared fixtures: a deterministic randomness source so every run is reproducible."""

from __future__ import annotations

import pytest

from protocol.randomness import RandomStream


@pytest.fixture
def rand(request: pytest.FixtureRequest) -> RandomStream:
    """A RandomSource seeded by the test's name: deterministic and distinct per test."""
    return RandomStream(request.node.nodeid.encode().ljust(32, b"."))
