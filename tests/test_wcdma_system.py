"""The WCDMA uplink (zorzi-rossi-mazzini §2.1): power control on its own, the traces and their summaries, and the
SIR traces turned into block error probabilities. The layout and the loop are hand-checked in
crates/tcpfade-core/src/wcdma."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import tcpfade
from tcpfade import wcdma


def test_one_user_alone_without_fading_settles_within_a_step_of_the_target():
    # The target per coded symbol, the SIR the trace holds (a target per bit: tests/test_wcdma_reference.py).
    r = wcdma.simulate_system(users=1, duration=2.0, fading=False, target_sir_db=4.0, sir_reference="symbol", seed=1)
    sir = r.sir_db[0].astype(float)
    settled = np.argmax(sir <= 4.0 + 0.5)
    assert np.all(np.abs(sir[settled:] - 4.0) <= 0.5 + 1e-4)
    # Every step down took 0.5 dB off the power, from the maximum.
    assert r.power_dbw[0, 0] == -16.0 and r.power_dbw[0, 1] == -16.5


def test_a_zero_step_loop_does_nothing():
    r = wcdma.simulate_system(users=20, duration=1.0, step_db=0.0, seed=2)
    assert np.all(r.power_dbw == -16.0) and np.all(r.to_frame().share_at_max_power == 1.0)


def test_traces_summaries_and_reproducibility():
    a = wcdma.simulate_system(users=30, duration=2.0, seed=3)
    b = wcdma.simulate_system(users=30, duration=2.0, seed=3)
    c = wcdma.simulate_system(users=30, duration=2.0, seed=4)
    assert a.sir_db.shape == a.power_dbw.shape == a.fading_db.shape == (30, 3000)
    assert np.array_equal(a.sir_db, b.sir_db) and not np.array_equal(a.sir_db, c.sir_db)
    assert np.all((a.power_dbw >= -96.0) & (a.power_dbw <= -16.0))
    f = a.to_frame()
    assert len(f) == 30 and set(f.serving_cell) <= set(range(25))
    # Time at maximum power, as the summary reports it, is the share of slots whose power is the maximum.
    at_max = (a.power_dbw == -16.0).mean(axis=1)
    assert np.allclose(f.share_at_max_power, at_max, atol=1 / 3000 + 1e-12)
    # The mean of the combined RAKE gain is the rays' total power, 1 (0 dB), over users and time.
    assert abs(np.log10((10 ** (a.fading_db.astype(float) / 10)).mean()) * 10) < 0.3


def test_block_error_probability_follows_the_sir():
    # Per coded symbol, the loaded system: users at maximum power spread the SIRs (and the P_e) widely.
    r = wcdma.simulate_system(users=60, duration=2.0, seed=5, sir_reference="symbol")
    p = r.block_error_probability(1)
    assert p.shape == (60, 200) and np.all((p >= 0) & (p <= 1))
    rho = stats.spearmanr(r.sir_db.mean(axis=1), p.mean(axis=1)).statistic
    assert rho < -0.8, rho
    with pytest.raises(tcpfade.ParameterError, match="tti_frames = 3"):
        r.block_error_probability(3)


@pytest.mark.parametrize("kwargs, needle", [
    (dict(doppler_hz=-1.0), "doppler_hz = -1"), (dict(users=0), "users = 0"),
    (dict(rays="typical-urban"), "rays = 'typical-urban' is not allowed"), (dict(duration=1e-5), "duration"),
    (dict(rays=[]), "rays"), (dict(duration=1e9), "duration = 1000000000.0 is not allowed: traces of 90 users"),
])
def test_bad_input_is_refused(kwargs, needle):
    with pytest.raises(tcpfade.ParameterError, match=needle):
        wcdma.simulate_system(**{"seed": 1, **kwargs})


# -- TCP over the radio bearer ------------------------------------------------------------------------------------

def test_a_clean_bearer_carries_the_payload_share_of_its_rate():
    # No block errors: the link is always busy after the first round trips, so S → 472/512 (headers are
    # overhead, eq. (1)); a constant 10 mW while sending gives ATP = 10 mW × the busy share.
    seconds = 60
    r = wcdma.tcp_over_blocks(np.zeros(100 * seconds, dtype=np.uint8), power_dbw=np.full(1500 * seconds, -20.0))
    assert r.timeouts == 0 and r.throughput <= 472 / 512
    assert r.throughput == pytest.approx(472 / 512, rel=0.01)
    assert r.atp == pytest.approx(0.01 * r.delivered * 4096 / 103_400 / r.duration, rel=1e-6)
    assert r.ace == pytest.approx(r.atp / (r.throughput * 103_400))


def test_a_dead_bearer_delivers_nothing_and_losses_follow_the_blocks():
    dead = wcdma.tcp_over_blocks(np.ones(3000, dtype=np.uint8))
    assert dead.delivered == 0 and dead.throughput == 0.0 and dead.timeouts > 0 and dead.block_error_rate == 1.0
    # Every fifth block wrong: a 39.6-ms packet overlaps 4 or 5 blocks, so almost every packet meets one.
    periodic = np.zeros(6000, dtype=np.uint8)
    periodic[::5] = 1
    r = wcdma.tcp_over_blocks(periodic)
    assert r.block_error_rate == pytest.approx(0.2) and r.throughput < 0.05
    # Bursts: 1 s of errors every 10 s (10% of blocks) leave most packets through.
    bursty = np.zeros(6000, dtype=np.uint8)
    for start in range(0, 6000, 1000):
        bursty[start:start + 100] = 1
    b = wcdma.tcp_over_blocks(bursty)
    assert b.block_error_rate == pytest.approx(0.1) and b.throughput > 0.5


def test_the_bearer_takes_any_sequence_of_bits_and_refuses_what_is_not_one(monkeypatch):
    """A list, a tuple, a bool or int8 array and a strided view are the same sequence (the core gets an array); what
    numpy would turn into numbers without a word (complex, dates, a masked array's hidden values) is refused, as are
    probabilities that do not match the blocks and a run beyond the memory limit, before any work."""
    errors = np.zeros(6000)
    errors[::37] = 1
    base = repr(wcdma.tcp_over_blocks(errors).to_dict())   # repr: ATP and ACE are NaN without a power trace
    for same in (list(errors), tuple(errors), errors.astype(bool), errors.astype(np.int8), np.repeat(errors, 2)[::2]):
        assert repr(wcdma.tcp_over_blocks(same).to_dict()) == base
    for bad, needle in ((errors.astype(complex), "complex128"), (errors.astype("datetime64[s]"), "datetime64"),
                        (np.ma.masked_array(errors, mask=errors == 1), "masked array"),
                        (np.r_[errors[:-1], 0.5], "element 5999 is 0.5")):
        with pytest.raises(tcpfade.ParameterError, match=rf"^block_errors = .*{needle}"):
            wcdma.tcp_over_blocks(bad)
    with pytest.raises(tcpfade.ParameterError, match=r"^power_dbw = an array of complex128"):
        wcdma.tcp_over_blocks(errors, power_dbw=np.full(90_000, -20 + 1j))
    with pytest.raises(tcpfade.ParameterError, match=r"^block_error_probability = an array of 1 .*one probability per "
                                                     r"block of block_errors \(6000\)"):
        wcdma.tcp_over_blocks(errors, block_error_probability=[0.9])
    monkeypatch.setenv("TCPFADE_MEMORY_LIMIT", "5e4")
    with pytest.raises(tcpfade.ParameterError, match=r"^block_errors = a sequence of 6000 blocks .*memory"):
        wcdma.tcp_over_blocks(errors)


def test_the_whole_chain_gives_a_row_per_user_and_throughput_falls_with_the_error_rate():
    # Per coded symbol at 5.5 dB: users below maximum power decode every block, those at it lose many.
    w = wcdma.simulate(users=40, duration=20.0, seed=6, sir_reference="symbol")
    f = w.to_frame()
    assert len(f) == 40 and {"throughput", "block_error_rate", "atp", "ace", "mean_sir_db"} <= set(f.columns)
    assert np.all((f.throughput >= 0) & (f.throughput <= 472 / 512))
    # Users with negligible block errors all get the clean bearer's throughput; every user with P_e above 1%
    # gets less than any of them (many tie at the top, so a rank correlation would mostly measure ties).
    clean, lossy = f[f.block_error_rate < 1e-6], f[f.block_error_rate > 0.01]
    assert len(clean) > 10 and len(lossy) >= 1
    assert np.allclose(clean.throughput, clean.throughput.iloc[0]) and lossy.throughput.max() < clean.throughput.min()
    again = wcdma.simulate(users=40, duration=20.0, seed=6, sir_reference="symbol").to_frame()
    pd_equal = np.allclose(f.throughput, again.throughput) and np.allclose(f.atp, again.atp)
    assert pd_equal
    # The chain's second half on the same uplink run is the chain (which also names its profile; the half takes the
    # parts by name, not a profile).
    split = wcdma.tcp_over_system(wcdma.simulate_system(users=40, duration=20.0, seed=6,
                                                        sir_reference="symbol")).to_frame()
    assert (f["profile"] == "papers").all()
    pd.testing.assert_frame_equal(split, f.drop(columns="profile"))
    with pytest.raises(tcpfade.ParameterError, match="tti_frames = 3"):
        wcdma.simulate(users=5, duration=5.0, tti_frames=3, seed=1)
    with pytest.raises(tcpfade.ParameterError, match="block_errors"):
        wcdma.tcp_over_blocks(np.array([0, 2, 1]))


def test_the_command_line_runs_the_chain_and_refuses_bad_input(tmp_path, capsys):
    import pandas as pd

    from tcpfade.cli import main

    out = tmp_path / "users.csv"
    assert main(["wcdma", "simulate", "--users", "10", "--duration", "5", "--seed", "1", "--csv", str(out)]) == 0
    assert len(pd.read_csv(out)) == 10 and "throughput S" in capsys.readouterr().out
    assert main(["wcdma", "simulate", "--users", "10", "--tti-frames", "3", "--seed", "1"]) == 2
    assert "--tti-frames = 3 is not allowed" in capsys.readouterr().err


def test_whole_numbers_as_floats_are_the_integers():
    """The fuzzer's find: ``users=5.0`` (a count written as a float) reached ``range`` unconverted. The chain now
    runs on its checked arguments: the same result as ``users=5``."""
    a = wcdma.simulate(users=5.0, tti_frames=1.0, duration=5.0, seed=1).to_frame()
    b = wcdma.simulate(users=5, tti_frames=1, duration=5.0, seed=1).to_frame()
    pd.testing.assert_frame_equal(a, b)
