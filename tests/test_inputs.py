"""Every input answered: each reproducer of the robustness issue, as a test. Each call gets a project error that
names the parameter (and is raised where the input enters), or a correct result checked against theory."""

import math

import numpy as np
import pytest

import tcpfade
from tcpfade import wcdma
from tcpfade.cli import main
from tcpfade.errors import ParameterError, ParameterTypeError, TraceFormatError

GE = tcpfade.GilbertElliott
CT = tcpfade.ContinuousTwoState


@pytest.mark.parametrize("call, parameter", [
    # requests that cannot fit in memory or time, refused up front (they aborted or grew without bound)
    (lambda: tcpfade.Bernoulli(0.1).trace(2**62, seed=1), "slots"),
    (lambda: GE.from_fading(error_rate=0.1, fdt=0.01).trace(2**62, seed=1), "slots"),
    (lambda: tcpfade.analyze("newreno", GE.from_fading(error_rate=0.1, fdt=0.01), wmax=2, rto_slots=2**31), "rto_slots"),
    (lambda: CT(1.0, 0.1).states([0, 1e308], seed=0), "times"),
    (lambda: CT(1.0, 0.1).packet_losses([0, 1], 1e308, seed=0), "duration"),
    (lambda: CT(1.0, 0.1).bad_time(1e308, 2, seed=0), "window"),
    # hangs: a timer firing every 1e-17 s (the timer's own range refuses it, below the microsecond), one every 1e-6 s
    # for 1e6 s (the work estimate refuses it), a default duration made from a mean of 1e11 s
    (lambda: tcpfade.simulate_link("reno", rate=100, tau=0.01, mean_good=0.8, mean_bad=0.2, duration=10, seed=1,
                                   rto=1e-17), "rto"),
    (lambda: tcpfade.simulate_link("reno", rate=100, tau=0.01, mean_good=0.8, mean_bad=0.2, duration=1e6, seed=1,
                                   rto=1e-6), "duration"),
    (lambda: tcpfade.simulate_link("reno", rate=100, tau=0.01, mean_good=1e11, mean_bad=0.2, seed=1),
     "duration (default)"),
    # a run too short for its batches says so
    (lambda: tcpfade.simulate_link("reno", rate=1.63, tau=0, mean_good=100, mean_bad=0.01, duration=2.65, seed=261),
     "duration"),
    (lambda: tcpfade.simulate("reno", tcpfade.Bernoulli(0.1), slots=10, seed=1), "slots"),
    # were foreign exceptions
    (lambda: GE.from_fading(fdt=0.5, fading_margin_db=1e6), "fading_margin_db"),
    (lambda: tcpfade.analyze("newreno", tcpfade.Bernoulli(0.1), wmax=2, rto_slots=2**32), "rto_slots"),
    (lambda: tcpfade.Bernoulli(10**400), "error_rate"),
    (lambda: tcpfade.simulate("reno", tcpfade.Bernoulli(0.1), seed=1, ack_delay_slots=2**64), "ack_delay_slots"),
    (lambda: GE.from_fading(fdt=1e-300, error_rate=0.1), "fdt"),
    (lambda: tcpfade.analyze_link("reno", rate=100, tau=0.01, beta=1, mean_good=1e-4, mean_bad=0.2), "mean_good"),
    (lambda: tcpfade.analyze_link("reno", rate=2**64, tau=0.01, mean_good=1, mean_bad=0.2), "rate"),
    (lambda: tcpfade.analyze_link("reno", rate=100, tau=0, buffer=0, mean_good=0.8, mean_bad=0.2), "buffer"),
    # found by the long fuzz profile: a rate of 1e-308 overflowed the analysis; a timer cap below the round trip
    # with a full buffer (spurious timeouts, which simulation shows at goodput 0.03) gave an analysed goodput of 1.005
    (lambda: tcpfade.analyze_link("reno", rate=1e-308, tau=0, mean_good=2, mean_bad=2), "rate"),
    (lambda: tcpfade.analyze_link("reno", rate=1, tau=0, mean_good=90.44, mean_bad=1e-4, max_rto=1, buffer=31,
                                  recovery="rounds"), "max_rto"),
    # found by the long fuzz profile after the uplink joined: a duration of 1e308 s overflowed the slot count
    (lambda: wcdma.simulate_system(seed=1, duration=1e308), "duration"),
    # accepted at entry and failing later, or refused without the parameter's name
    (lambda: GE("0.5", b"1"), "p"),
    (lambda: GE((), 1), "p"),
    (lambda: GE.from_fading(fdt=0.1, fading_margin=0.0), "fading_margin"),
    (lambda: tcpfade.simulate_link("reno", rate=100, tau=0.01, mean_good=0.8, mean_bad=0.2, seed=1, min_rto=None),
     "min_rto"),
    (lambda: tcpfade.load_trace(5), "path"),
    (lambda: tcpfade.Store("/tmp") if hasattr(tcpfade, "Store") else tcpfade.sweep.Store("/tmp"), "store"),
    (lambda: GE(p=0.3), "q"),
    (lambda: tcpfade.simulate("reno", tcpfade.Bernoulli(0.1), seed=1, sltos=5), "sltos"),
])
def test_reproducer_is_refused_naming_its_parameter(call, parameter):
    import tcpfade.sweep  # noqa: F401 - Store

    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.parameter == parameter
    assert str(info.value).startswith(f"{parameter} = ") and " is not allowed: " in str(info.value)


def test_wrong_kinds_are_also_type_errors():
    with pytest.raises(TypeError):
        GE("0.5", 0.5)
    with pytest.raises(ParameterTypeError):
        tcpfade.simulate("reno", "gilbert", seed=1)


def test_slow_fading_keeps_its_digits():
    """zorzi-rao eq. (3) at F = -10 dB: as fD·T -> 0, p_GB -> 0 like 2πfD·T/(2√(πF)) · ... (it was 0.835 at 1e-6,
    and 1e-9 took 66 s). Checked against the small-ρ-gap limit p_GB ≈ √(2/π)·(1 − ρ)θ, exact to O(d²)."""
    for fdt in (1e-6, 1e-9, 1e-12):
        ch = GE.from_fading(fading_margin_db=-10, fdt=fdt)
        x = 2 * math.pi * fdt
        one_minus_rho = x * x / 4
        theta = math.sqrt(2 / 0.1 / (one_minus_rho * (2 - one_minus_rho)))
        d = one_minus_rho * theta
        assert 1 - ch.p == pytest.approx(math.sqrt(2 / math.pi) * d, rel=1e-4)
        assert 0 < ch.p < 1 and 0 < ch.q < 1
        # the stationary error rate is eq. (2)'s whatever the Doppler, to what p and q stored as doubles near 1 hold:
        # 1 - p and 1 - q carry an absolute error of 2^-53 each, ε = p_GB/(p_GB + p_BG) so
        # |Δε| <= ε(1 - ε)(2^-53/p_GB + 2^-53/p_BG) (each difference rounded once more: a factor 2)
        eps = -math.expm1(-10.0)
        bound = 2 * eps * (1 - eps) * (2**-53 / (1 - ch.p) + 2**-53 / (1 - ch.q))
        assert abs(ch.error_rate - eps) <= bound


def test_p_gb_against_high_precision_quadrature():
    """Q(θ, ρθ) − Q(ρθ, θ) by mpmath's quadrature at 40 digits (independent of scipy and of our series): at
    F = -10 dB, fD·T = 0.001 the former ncx2 difference lost 1e-7 of it to cancellation."""
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 40

    def q(a, b):
        f = lambda x: x * mp.exp(-(x - a) ** 2 / 2) * mp.besseli(0, a * x) * mp.exp(-a * x)   # noqa: E731
        return mp.quad(f, [b] + [p for p in (a - 12, a, a + 12) if p > b] + [mp.inf])

    for f_lin, fdt in ((0.1, 1e-3), (1.0, 1e-3), (10.0, 0.01)):
        x = 2 * mp.pi * fdt
        rho = mp.besselj(0, x)
        theta = mp.sqrt(2 / mp.mpf(f_lin) / (1 - rho**2))
        reference = float(q(theta, rho * theta) - q(rho * theta, theta))
        p, _ = tcpfade.markov_from_fading(f_lin, fdt)
        assert 1 - p == pytest.approx(reference, rel=1e-12)


def test_link_goodput_never_exceeds_capacity():
    """The reproducer gave 1.029; a packet now counts in the window where its delivering transmission started, so
    no window counts more than the link could send. Lossless short runs are the worst case."""
    for seed in range(20):
        r = tcpfade.simulate_link("reno", rate=1.63, tau=0, mean_good=100, mean_bad=0.01, duration=150, seed=seed,
                                  batches=2)
        assert 0 <= r.goodput <= 1 and 0 <= r.received_rate <= 1
        for m in ("goodput", "received_rate", "utilization"):
            lo, hi = r.ci[m]
            assert 0 <= lo <= getattr(r, m) <= hi <= 1


def test_analysed_link_goodput_never_exceeds_capacity():
    """Found by the long fuzz profile: the paper model's eq. (19) gave 1 + 4.8e-9 on a link whose good states
    (4.3e9 s) outlast its fades (2 s, 4 packets) by 10⁹. The excess was rounding: 1 − e^{−λ0·cycle} lost its digits
    (the long fuzz of seed 32 found the same term give NaN), and computed by expm1 eq. (19) falls below capacity by
    about the fades' share of time, as it must: no more than the good time's share of the loss-free goodput, and
    within a few fades' worth of it. The analysis still caps the goodput at the link's capacity."""
    link = dict(rate=2.00001, tau=0.23622712383449365, mean_good=4294967296, mean_bad=2.00001, max_rto=2.00001,
                max_backoff=128, beta=5, reading="paper")
    a = tcpfade.analyze_link("newreno", **link)
    raw = a.reward / (a.mean_good + a.mean_effective_bad) / a.rate
    bad_share = link["mean_bad"] / (link["mean_good"] + link["mean_bad"])
    assert a.goodput == raw <= (1 - bad_share) * a.ideal_goodput <= 1.0
    assert 1 - a.goodput < 5 * bad_share


def test_proportion_intervals_stay_in_unit_interval():
    """Two batches of 30 slots: the t-interval is wider than [0, 1] and is truncated there. A metric conditioned on
    an event no batch but one saw (success probability: a batch without a transmission) has no spread to estimate:
    its interval is the whole range [0, 1] around the finite estimate, with a note saying why (never NaN)."""
    r = tcpfade.simulate("reno", tcpfade.Bernoulli(0.5), slots=60, batches=2, seed=3)
    for m in ("throughput", "load", "successes_per_slot"):
        lo, hi = r.ci[m]
        assert 0 <= lo <= getattr(r, m) <= hi <= 1
    assert r.counts["transmissions"] == 3 and math.isfinite(r.success_probability)
    assert tuple(r.ci["success_probability"]) == (0.0, 1.0) and "no spread" in r.ci["success_probability"].note


def test_trace_files_are_checked_before_reading(tmp_path):
    empty = tmp_path / "empty.npy"
    empty.write_bytes(b"")
    with pytest.raises(TraceFormatError, match="not a valid .npy"):
        tcpfade.load_trace(empty)
    huge = tmp_path / "huge.npy"
    header = "{'descr': '|u1', 'fortran_order': False, 'shape': (10000000000000,), }"
    header += " " * (118 - len(header)) + "\n"
    huge.write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + b"\x00\x01")
    with pytest.raises(TraceFormatError, match="declares 10000000000000 elements"):
        tcpfade.load_trace(huge)
    with pytest.raises(ParameterError, match="path = "):
        tcpfade.save_trace(tmp_path / "missing" / "t.txt", [0, 1])


def test_cli_rejections_are_one_line(tmp_path, capsys):
    cases = [
        (["channel", "trace", "--error-rate", "0.1", "--slots", "4611686018427387904", "--seed", "1", "--out",
          str(tmp_path / "t.txt")], "tcpfade: --slots = 4611686018427387904 is not allowed: "),
        (["channel", "trace", "--error-rate", "0.1", "--slots", "1e3", "--seed", "1", "--out",
          str(tmp_path / "no" / "t.txt")], "tcpfade: --out = "),
        (["simulate", "--variant", "reno", "--error-rate", "0.1", "--seed", "1", "--slots", "10"],
         "tcpfade: --slots = 10 is not allowed: must be >= batches (= 30)"),
        (["simulate", "--variant", "reno", "--fdt", "0.01", "--seed", "1"], "tcpfade: --fdt = 0.01 is not allowed"),
        (["simulate", "--variant", "reno", "--error-rate", "0.1"], "tcpfade: --seed = (none) is not allowed"),
        (["simulate", "--bogus"], "tcpfade: --bogus = (unknown option) is not allowed"),
        (["analyze-link", "--rate", "100", "--tau", "0", "--buffer", "0", "--mean-good", "0.8", "--mean-bad", "0.2"],
         "tcpfade: --buffer = 0 is not allowed"),
        (["sweep", "status", str(tmp_path)], "tcpfade: EXPERIMENT_FILE = "),
        # a figure's suffix is checked before the curves are computed and the CSV written
        (["channel", "error-vs-snr", "--out", str(tmp_path / "reno"), "--csv", str(tmp_path / "c.csv")],
         "tcpfade: --out = "),
    ]
    for argv, start in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(start) and err.count("\n") == 1, (argv, err)
    assert not (tmp_path / "c.csv").exists()
    assert main(["channel", "trace", "--error-rate", "0.1", "--slots", "1e3", "--seed", "1", "--out",
                 str(tmp_path / "t.txt")]) == 0
    assert f"wrote {tmp_path / 't.txt'}" in capsys.readouterr().err


def test_every_option_is_described():
    import click

    from tcpfade.cli import cli

    def walk(command, path):
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                yield from walk(sub, path + (name,))
            return
        for p in command.params:
            if isinstance(p, click.Option):
                yield path, p

    missing = [f"{' '.join(path)} {p.opts[0]}" for path, p in walk(cli, ()) if not p.help]
    assert not missing, missing


def test_bit_level_interval_stays_in_unit_interval():
    t = tcpfade.bit_level_error_rate(0.01, [0.0, 60.0], packet_bits=64, packets=200, batches=2, seed=1)
    assert np.all((0 <= t.error_rate_low) & (t.error_rate_low <= t.error_rate) & (t.error_rate <= t.error_rate_high) & (t.error_rate_high <= 1))


def test_round_off_stays_inside_the_ranges():
    """Found by the long fuzz profile: a busy link's summed busy periods rounded to 1 + 2^-52 of the time, and a
    99.99999999999999% interval multiplied a zero spread by an infinite quantile."""
    r = tcpfade.simulate_link("newreno", rate=500, tau=0.0, seed=29170, duration=200, wmax=996, mean_good=100,
                              max_rto=1, delayed_ack=0.001, min_rto=1, beta=9.173457736627572, initial_ssthresh=100,
                              mean_bad=0.001)
    lo, hi = r.ci["utilization"]
    assert 0 <= lo <= r.utilization <= hi <= 1
    t = tcpfade.bit_level_error_rate(0.01, [0.0, 10.0], packet_bits=64, packets=2000, batches=10, seed=1,
                                     confidence=1 - 1e-16)
    assert np.all((0 <= t.error_rate_low) & (t.error_rate_low <= t.error_rate) & (t.error_rate <= t.error_rate_high) & (t.error_rate_high <= 1))


def test_marcum_q_at_large_arguments():
    """Found by the long fuzz profile: Q(2^31, 1.2e-7) ran for minutes in scipy's ncx2. Where |a − b| > 39 the
    bounds Q(a, b) <= e^{-(b-a)²/2} (b > a) and 1 − Q(a, b) <= e^{-(a-b)²/2} (a > b) put Q at 0 or 1 in double
    precision; close large arguments, where ncx2 gives wrong digits (0.37 for Q(1e9, 1e9), which is 1/2 + 2e-10),
    are refused."""
    assert tcpfade.marcum_q(2**31, 1.19e-7) == 1.0
    assert tcpfade.marcum_q(1e-7, 2**31) == 0.0
    # Q(a, a) = (1 + e^{-a²} I0(a²)) / 2, from Q(a, b) + Q(b, a) = 1 + e^{-(a²+b²)/2} I0(ab)
    from scipy import special

    assert tcpfade.marcum_q(1e4, 1e4) == pytest.approx(0.5 * (1 + special.ive(0, 1e8)), rel=1e-12)
    with pytest.raises(ParameterError, match=r"^a = 1000000000.0 is not allowed"):
        tcpfade.marcum_q(1e9, 1e9)
