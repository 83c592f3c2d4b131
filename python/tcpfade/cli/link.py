"""``tcpfade simulate-link`` and ``tcpfade analyze-link``: TCP over a wireless link with a buffer, event by event
(abouzeid §II-III) and by the Markov renewal-reward analysis (abouzeid §IV)."""

from __future__ import annotations

import click

from .. import _validate as v
from ..analysis.link import MODELS, RECOVERIES, analyze_link as run_analysis
from ..channels.continuous import LOSS_RULES, ContinuousTwoState
from ..tcp import VARIANTS, simulate_link as run_link
from ..tcp.link import LINK_METRICS
from .options import SEED_HELP, channel_options, emit, link_channel_option, output_options, print_table, progress_bar


@click.command("simulate-link")
@click.option("--variant", type=click.Choice(VARIANTS, case_sensitive=False), default="reno", show_default=True,
              help="TCP variant.")
@click.option("--rate", type=float, required=True, help="Link rate μ [packets/s].")
@click.option("--tau", type=float, required=True, help="Round-trip propagation delay τ [s] (T = τ + 1/μ).")
@click.option("--packet-bytes", type=int, default=1000, show_default=True, help="Packet size [bytes].")
@click.option("--buffer", type=int, help="Buffer B [packets] (or --beta).")
@click.option("--beta", type=float, help="Buffer as β = B/(μT) (default 1).")
@click.option("--mean-good", type=float, help="Mean good duration E[X] of the channel [s].")
@click.option("--mean-bad", type=float, help="Mean bad duration E[Y] [s]; without a channel: no channel losses.")
@channel_options(packet_bytes=False)
@click.option("--duration", type=float, help="Simulated time [s] (default 1000·max(t_p, E[X]+E[Y]), >= 100).")
@click.option("--warmup", type=float, help="Unmeasured start [s] (default a tenth of the duration).")
@click.option("--seed", type=int, required=True, help=SEED_HELP)
@click.option("--dupthresh", "-K", type=int, default=3, show_default=True, help="Duplicate-ACK threshold K.")
@click.option("--rto", type=float, help="A fixed timeout [s] instead of RFC 6298.")
@click.option("--min-rto", type=float, default=0.02, show_default=True, help="RFC 6298 minimum RTO [s].")
@click.option("--max-rto", type=float, default=64.0, show_default=True, help="RFC 6298 maximum RTO [s].")
@click.option("--initial-rto", type=float, default=3.0, show_default=True, help="RTO before the first sample [s].")
@click.option("--clock-granularity", type=float, default=0.01, show_default=True, help="Clock tick G [s].")
@click.option("--max-backoff", type=int, default=64, show_default=True,
              help="Largest multiplier of the RTO's exponential backoff (a power of two).")
@click.option("--delayed-ack", type=float, help="Delayed-ACK timeout [s] (default: an ACK per segment).")
@click.option("--wmax", type=int, default=1 << 16, show_default=True, help="Receiver window [packets].")
@click.option("--initial-ssthresh", type=float, help="Initial Wth [packets] (default --wmax).")
@click.option("--recover-guard", is_flag=True,
              help="NewReno: RFC 6582 §3.2 steps 2 and 4 (no fast retransmit until the ACK passes recover).")
@click.option("--byte-counting", is_flag=True,
              help="RFC 3465: grow W by the segments an ACK acknowledges, as Linux does (with --delayed-ack).")
@click.option("--loss-rule", type=click.Choice(LOSS_RULES), default="any-instant", show_default=True,
              help="any-instant: a packet is lost if the channel is bad at any instant of it (abouzeid §III); "
                   "vdeldrop: the state at its start decides.")
@click.option("--channel-clock", type=click.Choice(["time", "packets"]), default="time", show_default=True,
              help="time: the channel evolves in real time (abouzeid); packets: only while packets are sent "
                   "(ns-2's original model).")
@click.option("--batches", type=int, default=20, show_default=True, help="Batches for the confidence intervals.")
@click.option("--confidence", type=float, default=0.95, show_default=True, help="Level of the intervals.")
@output_options()
def simulate_link(variant, rate, tau, packet_bytes, buffer, beta, mean_good, mean_bad, duration, warmup, seed,
                  dupthresh, rto, min_rto, max_rto, initial_rto, clock_granularity, max_backoff, delayed_ack, wmax,
                  initial_ssthresh, recover_guard, byte_counting, loss_rule, channel_clock, batches, confidence,
                  as_json, csv_path, **channel_kw) -> None:
    """Simulate TCP over a wireless link with a buffer and any channel: the continuous-time two-state one
    (--mean-good, --mean-bad), or the options of a slot channel (stepped once per packet; simulated fading in real
    time at fD = fD·T × μ Hz).

    \b
    Examples:
      tcpfade simulate-link --rate 100 --tau 0.01 --beta 8 --mean-good 0.8 --mean-bad 0.2 --seed 1
      tcpfade simulate-link --variant newreno --rate 100 --tau 0.1 --buffer 44 --mean-good 1 --mean-bad 0.01 \\
          --seed 2 --json
      tcpfade simulate-link --rate 125 --tau 0.04 --buffer 6 --error-rate 0.01 --burst 5 --seed 1
      tcpfade simulate-link --rate 125 --tau 0.04 --buffer 6 --model threshold --fdt 0.02 --error-rate 0.03 --seed 1
    """
    channel = link_channel_option({**channel_kw, "mean_good": mean_good, "mean_bad": mean_bad}, packet_bytes)
    if loss_rule != "any-instant":
        if mean_good is None or mean_bad is None:
            raise v.fail("--loss-rule", loss_rule, "needs a channel: give --mean-good and --mean-bad")
        channel, mean_good, mean_bad = ContinuousTwoState(mean_good, mean_bad, loss_rule=loss_rule), None, None
    r = run_link(variant.lower(), rate=rate, tau=tau, packet_bytes=packet_bytes, buffer=buffer, beta=beta,
                 mean_good=mean_good, mean_bad=mean_bad, channel=channel, duration=duration, warmup=warmup,
                 seed=seed, dupthresh=dupthresh, rto=rto, min_rto=min_rto, max_rto=max_rto, initial_rto=initial_rto,
                 clock_granularity=clock_granularity, max_backoff=max_backoff, delayed_ack=delayed_ack, wmax=wmax,
                 initial_ssthresh=initial_ssthresh, recover_guard=recover_guard, byte_counting=byte_counting,
                 channel_clock=channel_clock, batches=batches,
                 confidence=confidence, progress=progress_bar())
    if channel is not None:
        described = repr(channel)
    elif mean_good is not None and mean_bad is not None:
        described = repr(ContinuousTwoState(mean_good, mean_bad))
    else:
        described = "none (no channel losses)"
        click.echo("note: no channel given: a loss-free link (give --mean-good/--mean-bad or a channel's options)",
                   err=True)

    def human() -> None:
        items = {"variant": r.variant, "channel": described, "mu T (pipe) [packets]": r.pipe, "buffer B [packets]": r.buffer,
                 "w_p [packets]": r.max_in_flight, "simulated [s]": r.duration}
        for m in LINK_METRICS:
            lo, hi = r.ci[m]
            items[m] = f"{getattr(r, m):.6g}  [{lo:.6g}, {hi:.6g}]"
        items.update({"goodput [bit/s]": r.goodput_bps, "timeouts": r.timeouts,
                      "fast retransmits": r.fast_retransmits, "channel losses": r.channel_losses,
                      "buffer losses": r.buffer_losses})
        print_table(items)
        click.echo(f"[a, b]: {confidence:.0%} confidence interval (batch means). Units: goodput and throughput as a "
                   "fraction of μ; loss rates per packet; timeouts and fast retransmits per second; mean_rtt in s.")

    emit(r, as_json=as_json, csv_path=csv_path, human=human)


@click.command("analyze-link")
@click.option("--variant", type=click.Choice(["reno", "newreno"], case_sensitive=False), default="reno",
              show_default=True, help="TCP variant: the analysis is Reno's (abouzeid §IV); with --recovery rounds "
                                      "each variant's own recovery of several losses.")
@click.option("--rate", type=float, required=True, help="Link rate μ [packets/s].")
@click.option("--tau", type=float, required=True, help="Round-trip propagation delay τ [s] (T = τ + 1/μ).")
@click.option("--packet-bytes", type=int, default=1000, show_default=True, help="Packet size [bytes].")
@click.option("--buffer", type=int, help="Buffer B [packets] (or --beta).")
@click.option("--beta", type=float, help="Buffer as β = B/(μT) (default 1).")
@click.option("--mean-good", type=float, required=True, help="Mean good duration E[X] of the channel [s].")
@click.option("--mean-bad", type=float, required=True, help="Mean bad duration E[Y] [s].")
@click.option("--model", type=click.Choice(MODELS), default="refined", show_default=True,
              help="refined: RFC 6298 timer, Karn's rule, packets counted at the link; paper: §IV as printed.")
@click.option("--recovery", type=click.Choice(RECOVERIES), default="paper", show_default=True,
              help="paper: a TD halves once (eq. (10)); rounds: the variant's own recovery of the packets a bad "
                   "visit destroyed (refined model only).")
@click.option("--min-rto", type=float, default=0.02, show_default=True, help="RFC 6298 minimum RTO [s].")
@click.option("--max-rto", type=float, default=64.0, show_default=True, help="RFC 6298 maximum RTO [s].")
@click.option("--clock-granularity", type=float, default=0.01, show_default=True, help="Clock tick G [s].")
@click.option("--max-backoff", type=int, default=64, show_default=True,
              help="Largest multiplier of the RTO's exponential backoff (a power of two).")
@output_options()
def analyze_link(variant, rate, tau, packet_bytes, buffer, beta, mean_good, mean_bad, model, recovery, min_rto,
                 max_rto, clock_granularity, max_backoff, as_json, csv_path) -> None:
    """Goodput of TCP Reno or NewReno over a wireless link with a buffer, by abouzeid's renewal-reward analysis.

    abouzeid §IV models Reno; with --recovery paper (the default) Reno and NewReno get the same result (a triple
    duplicate halves the window once), with --recovery rounds each variant recovers the packets a bad visit
    destroyed in its own way.

    \b
    Examples:
      tcpfade analyze-link --rate 100 --tau 0.01 --beta 8 --mean-good 0.8 --mean-bad 0.2
      tcpfade analyze-link --rate 100 --tau 0.01 --beta 8 --mean-good 0.8 --mean-bad 0.2 --model paper --json
      tcpfade analyze-link --rate 200 --tau 0.079 --beta 1.5 --mean-good 1.93 --mean-bad 0.084 --recovery rounds
    """
    a = run_analysis(variant.lower(), rate=rate, tau=tau, packet_bytes=packet_bytes, buffer=buffer, beta=beta,
                     mean_good=mean_good, mean_bad=mean_bad, model=model, recovery=recovery, min_rto=min_rto,
                     max_rto=max_rto, clock_granularity=clock_granularity, max_backoff=max_backoff,
                     progress=progress_bar())
    emit(a, as_json=as_json, csv_path=csv_path, human=lambda: print_table({
        "variant": a.variant, "model": a.model, "recovery": a.recovery, "mu T (pipe) [packets]": a.pipe,
        "buffer B [packets]": a.buffer, "w_p [packets]": a.max_window, "goodput rho (fraction of mu)": a.goodput,
        "goodput [bit/s]": a.goodput_bps, "ceiling (1-f) rho_ideal": a.goodput_ceiling,
        "E[N] per good state [packets]": a.reward, "E[U] effective bad [s]": a.mean_effective_bad, "P_NL": a.p_no_loss,
        "P_TD": a.p_triple_duplicate, "P_TO": a.p_timeout, "mean RTO at a bad visit [s]": a.mean_rto_at_bad,
        "mean backoff at a bad visit": a.mean_backoff_at_bad}))
