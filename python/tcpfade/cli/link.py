"""``tcpfade simulate-link`` and ``tcpfade analyze-link``: TCP over a wireless link with a buffer, event by event
(abouzeid §II-III) and by the Markov renewal-reward analysis (abouzeid §IV)."""

from __future__ import annotations

import click

from .. import _validate as v
from .._record import channel_text
from ..analysis.link import LINK_ANALYSIS, analyze_link as run_analysis
from ..channels.continuous import LOSS_RULES, ContinuousTwoState
from ..tcp import simulate_link as run_link
from ..tcp.link import LINK, LINK_METRICS
from .options import (FIGURE_FILE, LOSSLESS_HELP, OUTPUT_FILE, channel_options, emit, link_channel_option,
                      metric_text, output_options, print_table, progress_bar, require_channel, write_trace, distinct_outputs)


@click.command("simulate-link")
@LINK.options(skip=("channel_clock", "batches", "confidence"))
@channel_options(packet_bytes=False)
@click.option("--loss-rule", type=click.Choice(LOSS_RULES), default="any-instant", show_default=True,
              help="any-instant: a packet is lost if the channel is bad at any instant of it (abouzeid §III); "
                   "vdeldrop: the state at its start decides.")
@click.option("--lossless", is_flag=True, help=LOSSLESS_HELP)
@LINK.options(names=("channel_clock", "batches", "confidence"))
@click.option("--trace-plot", type=FIGURE_FILE,
              help="Draw the sender's window over the first --trace-seconds (.png/.svg/.pdf).")
@click.option("--trace-csv", type=OUTPUT_FILE, help="Write the sender's window over the first --trace-seconds as CSV.")
@output_options()
def simulate_link(loss_rule, lossless, trace_plot, trace_csv, as_json, csv_path, **kw) -> None:
    """Simulate TCP over a wireless link with a buffer and any channel: the continuous-time two-state one
    (--mean-good, --mean-bad), or the options of a slot channel (stepped once per packet; simulated fading in real
    time at fD = fD·T × μ Hz).

    \b
    Examples:
      tcpfade simulate-link --rate 100 --tau 0.01 --beta 8 --mean-good 0.8 --mean-bad 0.2 --seed 1
      tcpfade simulate-link --variant newreno --rate 100 --tau 0.1 --buffer 44 --mean-good 1 --mean-bad 0.01 \\
          --seed 2 --json
      tcpfade simulate-link --rate 125 --tau 0.04 --buffer 6 --error-rate 0.01 --burst 5 --seed 1
      tcpfade simulate-link --rate 125 --tau 0.04 --buffer 6 --channel threshold --fdt 0.02 --error-rate 0.03 --seed 1
      tcpfade simulate-link --variant cubic --profile linux --rate 125 --tau 0.04 --buffer 6 --error-rate 0.01 \\
          --seed 1 --trace-seconds 20 --trace-plot window.png
    """
    distinct_outputs(csv_path=csv_path, trace_csv=trace_csv, trace_plot=trace_plot)
    given = LINK.pick(kw)
    if (trace_plot or trace_csv) and given["trace_seconds"] <= 0:
        option, path = ("--trace-plot", trace_plot) if trace_plot else ("--trace-csv", trace_csv)
        raise v.fail(option, str(path), "needs --trace-seconds > 0 (the seconds of the run to trace)")
    mean_good, mean_bad = given["mean_good"], given["mean_bad"]
    channel = link_channel_option({k: x for k, x in kw.items() if k not in given} | {"mean_good": mean_good,
                                                                                   "mean_bad": mean_bad},
                                  given["packet_bytes"])
    if loss_rule != "any-instant":
        if mean_good is None or mean_bad is None:
            raise v.fail("--loss-rule", loss_rule, "needs a channel: give --mean-good and --mean-bad")
        channel, mean_good, mean_bad = ContinuousTwoState(mean_good, mean_bad, loss_rule=loss_rule), None, None
    continuous = mean_good is not None or mean_bad is not None
    channel = require_channel(channel, lossless, "--mean-good/--mean-bad, --error-rate, --p/--q, --fdt or "
                                                 "--trace-file", continuous=continuous)
    given.update(channel=channel, mean_good=mean_good, mean_bad=mean_bad)
    confidence = given["confidence"]
    r = run_link(**given, progress=progress_bar())

    def human() -> None:
        items = {"variant": r.variant, "profile": r.profile, "channel": channel_text(r.channel), "mu T (pipe) [packets]": r.pipe, "buffer B [packets]": r.buffer,
                 "w_p [packets]": r.max_in_flight, "simulated [s]": r.duration}
        for m in LINK_METRICS:
            items[m] = metric_text(r, m, getattr(r, m), r.ci[m])
        items.update({"goodput [bit/s]": r.goodput_bps, "timeouts": r.timeouts,
                      "fast retransmits": r.fast_retransmits, "channel losses": r.channel_losses,
                      "buffer losses": r.buffer_losses})
        print_table(items)
        click.echo(f"[a, b]: {confidence:.0%} confidence interval (batch means). Units: goodput, received_rate and new_received_rate as a "
                   "fraction of μ; loss rates per packet; timeouts and fast retransmits per second; mean_rtt in s.")

    emit(r, as_json=as_json, csv_path=csv_path, human=human)
    write_trace(r, trace_csv, trace_plot)   # after the result: a file that fails to write loses nothing printed


@click.command("analyze-link")
@LINK_ANALYSIS.options()
@output_options()
def analyze_link(as_json, csv_path, **kw) -> None:
    """Goodput of TCP Reno or NewReno over a wireless link with a buffer, by abouzeid's renewal-reward analysis.

    abouzeid §IV models Reno; with --recovery paper (the default) Reno and NewReno get the same result (a triple
    duplicate halves the window once), with --recovery rounds each variant recovers the packets a bad visit
    destroyed in its own way.

    \b
    Examples:
      tcpfade analyze-link --rate 100 --tau 0.01 --beta 8 --mean-good 0.8 --mean-bad 0.2
      tcpfade analyze-link --rate 100 --tau 0.01 --beta 8 --mean-good 0.8 --mean-bad 0.2 --reading paper --json
      tcpfade analyze-link --rate 200 --tau 0.079 --beta 1.5 --mean-good 1.93 --mean-bad 0.084 --recovery rounds
    """
    a = run_analysis(**kw, progress=progress_bar())
    emit(a, as_json=as_json, csv_path=csv_path, human=lambda: print_table({
        "variant": a.variant, "reading": a.reading, "recovery": a.recovery,
        "channel": channel_text(a.channel), "mu T (pipe) [packets]": a.pipe,
        "buffer B [packets]": a.buffer, "w_p [packets]": a.max_window, "goodput rho (fraction of mu)": a.goodput,
        "goodput [bit/s]": a.goodput_bps, "ceiling (1-f) rho_ideal": a.goodput_ceiling,
        "E[N] per good state [packets]": a.reward, "E[U] effective bad [s]": a.mean_effective_bad, "P_NL": a.p_no_loss,
        "P_TD": a.p_triple_duplicate, "P_TO": a.p_timeout, "mean RTO at a bad visit [s]": a.mean_rto_at_bad,
        "mean backoff at a bad visit": a.mean_backoff_at_bad}))
