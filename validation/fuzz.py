"""The long profile of the fuzzing suite: hostile calls of every public function and CLI command (tests/fuzz),
each in a child process, counted by outcome. Its figures are in docs/validation/engineering.md ("Every input answered").

    python3 validation/fuzz.py --long                  # 10^5 cases and more: --api 42000 --cli 20000 --surface 700
    python3 validation/fuzz.py --api 0 --cli 0 --surface 20 --only tcpfade.wcdma.simulate   # one entry, briefly

``--surface N`` gives N hostile calls to each entry of the whole public surface (tests/fuzz/surface.py: every name in
``__all__`` of tcpfade and its subpackages); ``--api`` and ``--cli`` draw from the older generators of the main
entry points and of every command. The per-entry table (calls, results, clear errors, defects by kind) is printed
at the end.

Prints the counts, then the first cases of each defect (abort, hang, foreign exception, traceback, message not in
the project's form, a success that breaks a property); exits 1 if there is any defect.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from fuzz.harness import DEFECTS, Runner, Tally  # noqa: E402
from fuzz.profile import run_surface  # noqa: E402
from fuzz.strategies import MINUTES_COMMANDS, api_case, cli_case, command_table  # noqa: E402


def run(kind: str, cases: int, master: int, runner: Runner, tally: Tally) -> Tally:
    strategy = api_case() if kind == "api" else cli_case([c for c in command_table() if c[0] not in MINUTES_COMMANDS])
    start = time.monotonic()

    @seed(master)
    @settings(max_examples=cases, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(case):
        outcome, detail = runner.run((kind, case))
        entry = case[0] if kind == "api" else "cli: " + " ".join(w for w in case[:2] if not w.startswith("-"))
        tally.add(outcome, repr(case)[:300] if kind == "api" else " ".join(case), detail, entry=entry)
        done = sum(tally.counts.values())
        if done % 1000 == 0:
            print(f"  {kind}: {done} cases, {time.monotonic() - start:.0f} s, {dict(tally.counts)}", flush=True)

    one()
    return tally


def _stop(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--api", type=int, default=80_000, help="API cases")
    parser.add_argument("--cli", type=int, default=20_000, help="CLI cases")
    parser.add_argument("--surface", type=int, default=0, help="cases for each entry of the public surface")
    parser.add_argument("--only", nargs="*", help="surface entries to fuzz (default: all)")
    parser.add_argument("--long", action="store_true", help="the long profile: --api 42000 --cli 20000 --surface 700")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.long:
        # The surface phase gives 39,383 cases (some entries' strategies run out before 700), so 42,000 API cases
        # bring the profile over 10^5.
        args.api, args.cli, args.surface = 42_000, 20_000, 700
    start = time.monotonic()
    total = Tally()
    # A kill or a closed terminal ends the run as Ctrl-C does: through the Runner's exit, which ends the child's
    # whole process group (a SIGTERM that skipped it once left a hung child running for 35 minutes).
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    with Runner() as runner:
        if args.surface:
            run_surface(runner, args.surface, args.seed, targets=args.only, tally=total,
                        report=lambda line: print(line, flush=True))
        for kind, n in (("api", args.api), ("cli", args.cli)):
            if n:
                before = sum(total.counts.values())
                run(kind, n, args.seed, runner, total)
                print(f"{kind}: {sum(total.counts.values()) - before} cases")
    print(total.table())
    for entry, examples in sorted(total.by_entry.items()):
        for example in examples:
            print(f"  {entry}: {example[:700]}")
    print(f"all: {sum(total.counts.values())} cases in {time.monotonic() - start:.0f} s: {dict(total.counts)}; "
          f"defects: {total.defects}")
    for k in DEFECTS:
        for example in total.examples.get(k, [])[:10]:
            print(f"  {k}: {example[:800]}")
    return 1 if total.defects else 0


if __name__ == "__main__":
    sys.exit(main())
