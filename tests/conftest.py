"""Shared test settings.

CI runs every test at full size (``.ci/run`` is the README's test command: two processes, a file to each at a time,
and nothing else set). A developer who wants a quicker local run may set ``TCPFADE_REDUCED=1``: the statistical
tests that take the ``scale`` fixture then use a quarter of their samples, their tolerances still derived from the
confidence interval of the smaller run; and may leave out tiers by marker (``pytest -m "not slow and not root and
not browser and not docs"``, a few minutes). The markers are given here by module (and by test for the browser), so
that a new test in a module joins its tier.
"""

import os
import signal

import pytest

REDUCED = os.environ.get("TCPFADE_REDUCED") == "1"

# The tests of Ctrl-C simulate it with _thread.interrupt_main(), which does nothing where SIGINT is ignored, and a
# shell without job control starts its background commands so (`cmd &` in a script), Python keeping the disposition
# it inherits and pytest-xdist's workers theirs: there every such test waited for a run of hours to end. The tests
# take the handler an interactive Python has.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def scale():
    """Sample-size multiplier of the statistical tests (0.25 with TCPFADE_REDUCED=1, else 1)."""
    return 0.25 if REDUCED else 1.0


#: Tiers by module (pyproject.toml registers the markers).
TIERS = {
    "test_reproduce.py": ("slow",), "test_fuzz.py": ("slow",), "test_watch.py": ("slow",), "test_kernel_grid.py": ("slow",),
    "test_emulator.py": ("root",), "test_emulator_sweep.py": ("root",), "test_site.py": ("docs", "slow"), "test_docs.py": ("docs",),
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        for name in TIERS.get(item.path.name, ()):
            item.add_marker(getattr(pytest.mark, name))
        if "chromium" in item.name or "browser" in item.name:
            item.add_marker(pytest.mark.browser)
