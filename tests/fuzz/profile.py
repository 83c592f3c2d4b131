"""Round-robin profiles over the public surface: each surface target gets its own share of cases, so that every
entry is reached (a single draw over ~60 targets would leave some out of a short run)."""

from __future__ import annotations

import time
from collections.abc import Callable

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hseed

from .harness import Runner, Tally
from .surface import surface_case, surface_targets


def run_surface(runner: Runner, per_target: int, master: int = 1, targets: list[str] | None = None,
                tally: Tally | None = None, report: Callable[[str], None] | None = None) -> Tally:
    """``per_target`` hostile calls of each surface target, each in the runner's child; outcomes by entry."""
    tally = tally if tally is not None else Tally()
    start = time.monotonic()
    for target in targets or surface_targets():
        @hseed(master)
        @settings(max_examples=per_target, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @given(surface_case([target]))
        def one(case):
            outcome, detail = runner.run(("api", case))
            tally.add(outcome, repr(case)[:300], detail, entry=target)

        one()
        if report:
            report(f"  {target}: {dict(tally.entries.get(target, {}))} ({time.monotonic() - start:.0f} s)")
    return tally
