"""Continuous-time two-state channel (abouzeid §III, VDELDROP) against its closed forms."""

import math

import numpy as np
import pytest
from scipy import stats

import tcpfade


def test_fraction_of_bad_time_matches_eq1():
    ch = tcpfade.ContinuousTwoState(mean_good=0.1, mean_bad=0.01)
    # 400 windows of 10 s (~90 good/bad cycles each): nearly independent batch means.
    bad = ch.bad_time(10.0, 400, seed=1) / 10.0
    half = stats.t.ppf(0.99995, bad.size - 1) * bad.std(ddof=1) / math.sqrt(bad.size)
    assert abs(bad.mean() - ch.bad_fraction) < half
    assert ch.bad_fraction == pytest.approx(1 / 11)


@pytest.mark.parametrize("rule,loss_good,loss_bad", [("any-instant", 0.0, 1.0), ("any-instant", 0.1, 0.8),
                                                      ("vdeldrop", 0.0, 0.5), ("vdeldrop", 0.05, 1.0)])
def test_packet_loss_probability_matches_closed_form(rule, loss_good, loss_bad):
    ch = tcpfade.ContinuousTwoState(mean_good=0.1, mean_bad=0.02, loss_rule=rule, loss_good=loss_good,
                                    loss_bad=loss_bad)
    n, duration = 100_000, 0.01
    # Packets 1 s apart (8 mean cycles): independent trials.
    losses = ch.packet_losses(np.arange(n) * 1.0, duration, seed=7)
    p = ch.loss_probability(duration)
    assert abs(losses.mean() - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_any_instant_loss_by_hand():
    # p0 = 0, p1 = 1: lost unless good at the start and good for all of d.
    ch = tcpfade.ContinuousTwoState(mean_good=0.1, mean_bad=0.01)
    d = 0.01
    assert ch.loss_probability(d) == pytest.approx(1 - (10 / 11) * math.exp(-d / 0.1))
    assert ch.loss_probability(0.0) == pytest.approx(1 / 11)


def test_channel_evolves_whatever_the_sender_does():
    ch = tcpfade.ContinuousTwoState(mean_good=0.1, mean_bad=0.01)
    times = np.linspace(0, 50, 5001)
    quiet = ch.states(times, seed=3)
    # Same seed, but with many packets judged first: the states at the same times are the same.
    ch.packet_losses(np.linspace(0, 50, 20_000), 0.001, seed=3)
    assert np.array_equal(quiet, ch.states(times, seed=3))


def test_inputs_validated():
    with pytest.raises(tcpfade.ParameterError, match="mean_bad"):
        tcpfade.ContinuousTwoState(mean_good=1.0, mean_bad=0.0)
    with pytest.raises(tcpfade.ParameterError, match="loss_rule"):
        tcpfade.ContinuousTwoState(mean_good=1.0, mean_bad=1.0, loss_rule="gilbert")
    ch = tcpfade.ContinuousTwoState(mean_good=1.0, mean_bad=1.0)
    with pytest.raises(tcpfade.ParameterError, match="below the one before it"):
        ch.packet_losses([1.0, 0.5], 0.1, seed=1)
