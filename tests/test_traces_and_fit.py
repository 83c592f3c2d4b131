"""Trace channels, trace files and the Markov fit."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tcpfade
from tcpfade.errors import TraceExhaustedError, TraceFormatError


@pytest.mark.parametrize("suffix", [".txt", ".bin", ".npy"])
def test_trace_file_round_trip(tmp_path, suffix):
    losses = tcpfade.GilbertElliott(p=0.95, q=0.6).trace(1234, seed=1)
    path = tcpfade.save_trace(tmp_path / f"t{suffix}", losses)
    assert np.array_equal(tcpfade.load_trace(path), losses)
    replay = tcpfade.TraceChannel.from_file(path)
    assert np.array_equal(replay.trace(1234, seed=0), losses)


def test_malformed_text_trace_names_line_and_field(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("0 1 0\n# fine\n1 1 x 0\n")
    with pytest.raises(TraceFormatError, match=r"line 3, field 3.*'x'"):
        tcpfade.load_trace(path)


def test_malformed_binary_and_array_traces(tmp_path):
    path = tmp_path / "bad.bin"
    path.write_bytes(bytes([0, 1, 0, 2]))
    with pytest.raises(TraceFormatError, match="offset 3"):
        tcpfade.load_trace(path)
    with pytest.raises(TraceFormatError, match="element 1"):
        tcpfade.TraceChannel(np.array([0, 3, 1]))
    with pytest.raises(TraceFormatError, match="at least one slot"):
        tcpfade.TraceChannel(np.array([], dtype=np.uint8))
    with pytest.raises(TraceFormatError, match=r"one-dimensional.*shape \(2, 2\)"):
        tcpfade.TraceChannel(np.zeros((2, 2)))


@pytest.mark.parametrize("call, name", [
    (lambda p: tcpfade.fit_markov(None), "trace"),
    (lambda p: tcpfade.save_trace(p / "t.npy", None), "losses"),
    (lambda p: tcpfade.TraceChannel(None), "losses"),
])
def test_an_array_that_is_no_trace_is_named_with_its_value(tmp_path, call, name):
    with pytest.raises(TraceFormatError, match=rf"^{name} = None is not allowed: must be a one-dimensional array") as e:
        call(tmp_path)
    assert e.value.parameter == name and e.value.value is None
    assert not (tmp_path / "t.npy").exists()


def test_trace_exhaustion_and_wrap():
    ch = tcpfade.TraceChannel(np.array([0, 1, 1]))
    with pytest.raises(TraceExhaustedError, match="3 slots"):
        ch.trace(4, seed=0)
    wrapped = tcpfade.TraceChannel(np.array([0, 1, 1]), wrap=True).trace(7, seed=0)
    assert wrapped.tolist() == [0, 1, 1, 0, 1, 1, 0]


def test_fit_recovers_chain_parameters():
    truth = tcpfade.GilbertElliott.from_burst(0.05, 5.0)
    n = 4_000_000
    fit = tcpfade.fit_markov(truth.trace(n, seed=2))
    lam = truth.p + truth.q - 1
    se_rate = math.sqrt(0.05 * 0.95 * (1 + lam) / ((1 - lam) * n))
    assert abs(fit.error_rate - 0.05) < 4 * se_rate
    se_burst = math.sqrt(truth.q / (1 - truth.q) ** 2 / fit.bursts)
    assert abs(fit.mean_burst - 5.0) < 4 * se_burst
    # The hybrid q and the slot-counted q differ only by the trace's end effects.
    assert fit.q == pytest.approx(fit.q_counted, abs=2 / fit.bursts)
    hist = fit.burst_histogram()
    assert hist["observed"].sum() == fit.bursts


def test_fit_by_hand():
    fit = tcpfade.fit_markov([0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1])
    assert (fit.losses, fit.bursts, fit.mean_burst) == (6, 3, 2.0)
    assert fit.q == pytest.approx(0.5) and fit.q_counted == pytest.approx(3 / 5)


def test_fit_needs_losses_and_successes():
    with pytest.raises(tcpfade.ParameterError, match="at least one lost"):
        tcpfade.fit_markov([0, 0, 0])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=2, max_size=300).filter(lambda x: 0 < sum(x) < len(x)))
def test_fit_counts_are_consistent(bits):
    fit = tcpfade.fit_markov(bits)
    assert fit.losses == sum(bits)
    assert sum(k * c for k, c in fit.burst_lengths.items()) == fit.losses
    starts = sum(1 for i, b in enumerate(bits) if b == 1 and (i == 0 or bits[i - 1] == 0))
    assert fit.bursts == starts


@settings(max_examples=40, deadline=None)
@given(p=st.floats(0, 0.999), q=st.floats(0, 0.999), seed=st.integers(0, 2**64 - 1))
def test_same_seed_same_trace(p, q, seed):
    ch = tcpfade.GilbertElliott(p=p, q=q)
    assert np.array_equal(ch.trace(500, seed=seed), ch.trace(500, seed=seed))


def test_states_follow_losses_for_default_chain():
    losses, states = tcpfade.GilbertElliott(p=0.9, q=0.7).trace(10_000, seed=4, states=True)
    assert np.array_equal(losses, states)
