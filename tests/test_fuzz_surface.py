"""The fuzzer reaches the whole public surface (issue 34), and regression tests for what it found.

- every name in ``__all__`` of tcpfade and of each subpackage (and the public names of tcpfade.devices,
  tcpfade.errors, tcpfade.emulator) is a fuzz target or is skipped with a reason (tests/fuzz/surface.py), and each
  parameter of each target has a declared strategy: a new public function or parameter fails here until the fuzzer
  is told how to call it;
- every CLI command is fuzzed or skipped with a reason;
- a quick round-robin profile: every target gets a few hostile calls, each answered by a result that holds its
  properties or a clean ParameterError;
- then one regression test per defect the fuzzer found.
"""

import inspect

import pytest

from fuzz.harness import DEFECTS, Runner, Tally
from fuzz.profile import run_surface
from fuzz.strategies import MINUTES_COMMANDS, RUNS_PROGRAMS, command_table
from fuzz.surface import (ANYTHING_PARAMETERS, BY_NAME, CLI_SKIP, CLI_SLOW, KNOWN_DEFECTS, SPECS, cli_commands, public_surface,
                          skip_reason, surface_targets)

import tcpfade
from tcpfade.errors import ParameterError, TcpfadeError


def test_every_public_name_has_a_target_or_a_reason():
    surface = public_surface()
    targets = set(surface_targets())
    assert len(surface) > 80 and len(targets) > 50, (len(surface), len(targets))
    # the subpackages are all there (a subpackage added later is found by the walk)
    for module in ("tcpfade.wcdma", "tcpfade.plots", "tcpfade.sweep", "tcpfade.reproduce", "tcpfade.analysis",
                   "tcpfade.channels", "tcpfade.tcp", "tcpfade.devices"):
        assert any(name.startswith(module + ".") for name in surface) or module == "tcpfade.tcp", module
    for name in ("tcpfade.sweep.point_seed", "tcpfade.sweep.run_sweep", "tcpfade.sweep.Store",
                 "tcpfade.simulate_transfers", "tcpfade.devices.device", "tcpfade.analysis.compare",
                 "tcpfade.load_trace", "tcpfade.plots.plot_error_vs_snr", "tcpfade.wcdma.tcp_over_blocks"):
        assert name in targets, name
    for name, obj in surface.items():
        reason = skip_reason(name, obj)
        assert (name in targets) != bool(reason), name
        if reason:
            assert len(reason) > 8, (name, reason)


def test_every_parameter_of_every_target_has_a_strategy():
    for target in surface_targets():
        assert target in SPECS, f"{target}: declare its parameters' strategies in tests/fuzz/surface.py SPECS"
        sig = inspect.signature(__import__("fuzz.surface").surface.resolve(target))
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            assert (p.name in SPECS[target] or p.name in BY_NAME
                    or p.name in ANYTHING_PARAMETERS.get(target, ())), f"{target}({p.name}=...) has no strategy"


def test_every_command_is_fuzzed_or_skipped_with_a_reason():
    fuzzed = {path for path, _ in command_table()}
    for path in cli_commands():
        assert path in fuzzed or path in CLI_SKIP, path
        if path in CLI_SKIP:
            assert path in RUNS_PROGRAMS
    assert set(CLI_SLOW) == MINUTES_COMMANDS


@pytest.fixture(scope="module")
def runner():
    with Runner(timeout=30) as r:
        yield r


def test_every_surface_entry_answers_hostile_calls(runner):
    """The quick profile of the surface: a few hostile calls of every target."""
    tally = run_surface(runner, 3)
    targets = surface_targets()
    assert set(tally.entries) == set(targets)
    assert tally.counts["success"] > 20 and tally.counts["rejected"] > 40, tally.counts
    unexpected = {e: ex for e, ex in tally.by_entry.items() if e not in KNOWN_DEFECTS}
    assert not unexpected, unexpected


# -- regressions: one per defect the surface fuzzer found -----------------------------------------------------------


def test_point_seed_refuses_what_no_experiment_can_hold():
    from tcpfade.sweep import point_seed

    assert point_seed(1, "simulate", {"p": 0.1}, 0) == point_seed(1, "simulate", {"p": 0.1}, 0)
    for args, name in [((2**64, "simulate", {}, 0), "master"), ((1, b"1", {}, 0), "model"),
                       ((1, "simulate", [1.0], 0), "params"), ((1, "simulate", {"p": b"1"}, 0), "params"),
                       ((1, "simulate", {"p": __import__("numpy").zeros(2)}, 0), "params"),
                       ((1, "simulate", {}, -1), "replication"), ((1, "simulate", {}, True), "replication")]:
        with pytest.raises(ParameterError, match=f"^{name} = .* is not allowed: "):
            point_seed(*args)
    with pytest.raises(ParameterError, match="^master = .* is not allowed"):
        point_seed(model="simulate", params={}, replication=0)


def test_sweep_entries_refuse_what_is_not_an_experiment(tmp_path):
    from tcpfade.sweep import Experiment, run_sweep, sweep_status

    for call in (lambda: run_sweep(-1.0), lambda: sweep_status(True), lambda: sweep_status(__import__("numpy").ones(3))):
        with pytest.raises(ParameterError, match="^experiment = .* is not allowed: must be an Experiment"):
            call()
    data = {"sweep": {"model": "simulate"}, "fixed": {"fdt": 0.016, "error_rate": 0.05},
            "output": {"store": "x.sqlite"}}
    with pytest.raises(ParameterError, match="^text = .* is not allowed"):
        Experiment.from_dict(data, text=__import__("numpy").zeros(2))
    with pytest.raises(ParameterError, match="^source = .* is not allowed"):
        Experiment.from_dict(data, source=[])
    with pytest.raises(ParameterError, match="^data = .* is not allowed"):
        Experiment.from_dict(True)
    assert Experiment.from_dict(data, base=str(tmp_path)).store == tmp_path / "x.sqlite"


def test_the_universal_curve_refuses_a_zero_denominator_of_eq_5():
    # found by the surface fuzzer: A = B = 0 at any Doppler (or B = 0 at f_d = 0) divided by zero in x_s
    import tcpfade
    from tcpfade import wcdma

    with pytest.raises(tcpfade.ParameterError, match="A·doppler_hz \\+ B must not be 0"):
        wcdma.universal_curve([0.3, 1.0], 0, A=0, B=0, alpha=2.44)
    assert 0 < wcdma.universal_curve(0.01, 6.0) < 1
