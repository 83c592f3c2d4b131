"""The quick profile of the fuzzing suite (tests/fuzz): hostile calls of every public function and CLI command,
each in a child process, with a fixed seed. Every outcome must be a success that holds its properties or a clean
rejection; ``validation/fuzz.py`` runs the long profile (10^5 cases) whose figures
docs/validation/engineering.md gives."""

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from fuzz.harness import DEFECTS, Runner, Tally
from fuzz.strategies import SLOW_COMMANDS, api_case, cli_case, command_table

QUICK = settings(max_examples=400, derandomize=True, deadline=None, database=None, phases=[Phase.generate],
                 suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def runner():
    with Runner() as r:
        yield r


def test_api_calls_are_answered(runner):
    tally = Tally()

    @QUICK
    @given(api_case())
    def one(case):
        outcome, detail = runner.run(("api", case))
        tally.add(outcome, repr(case)[:300], detail)

    one()
    assert sum(tally.counts.values()) == 400
    assert tally.counts["success"] > 40 and tally.counts["rejected"] > 40, tally.counts   # both kinds exercised
    assert tally.defects == 0, {k: tally.examples[k] for k in DEFECTS if k in tally.examples}


def test_cli_invocations_are_answered(runner):
    tally = Tally()
    commands = [c for c in command_table() if c[0] not in SLOW_COMMANDS]

    @QUICK
    @given(cli_case(commands))
    def one(argv):
        outcome, detail = runner.run(("cli", argv))
        tally.add(outcome, " ".join(argv), detail)

    one()
    assert tally.counts["rejected"] > 40, tally.counts
    assert tally.defects == 0, {k: tally.examples[k] for k in DEFECTS if k in tally.examples}
