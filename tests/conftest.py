"""Shared test settings.

CI runs every test at full size (``.ci/run`` is the README's test command and sets nothing). A developer who wants
a quicker local run may set ``TCPFADE_REDUCED=1``: the statistical tests that take the ``scale`` fixture then use a
quarter of their samples, their tolerances still derived from the confidence interval of the smaller run.
"""

import os

import pytest

REDUCED = os.environ.get("TCPFADE_REDUCED") == "1"


@pytest.fixture
def scale():
    """Sample-size multiplier of the statistical tests (0.25 with TCPFADE_REDUCED=1, else 1)."""
    return 0.25 if REDUCED else 1.0
