"""Shared test settings.

``TCPFADE_REDUCED=1`` (set by CI) runs the tests marked ``slow`` in a reduced form: fewer
samples, with tolerances still derived from the confidence interval of the smaller run.
"""

import os

import pytest

REDUCED = os.environ.get("TCPFADE_REDUCED") == "1"


@pytest.fixture
def scale():
    """Sample-size multiplier for slow statistical tests (0.25 in reduced mode)."""
    return 0.25 if REDUCED else 1.0
