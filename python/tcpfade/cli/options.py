"""Options shared by several commands: describing a channel, printing a table, whether to draw a progress bar."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import _validate as v
from ..channels import (
    FADING_MODELS,
    MODULATIONS,
    Bernoulli,
    BitLevelFading,
    GilbertElliott,
    ThresholdFading,
    TraceChannel,
)

MODELS = ("markov", "threshold", "bit-level")


def channel_options(f):
    """Options that describe a channel, shared by ``describe`` and ``trace``."""
    options = [
        click.option("--p", "p", type=float, help="P(good -> good) of a two-state Markov chain."),
        click.option("--q", "q", type=float, help="P(bad -> bad) of a two-state Markov chain."),
        click.option("--error-rate", type=float, help="Average packet error rate ε."),
        click.option("--burst", type=float, help="Mean error-burst length in slots (with --error-rate)."),
        click.option("--fading-margin-db", type=float, help="Fading margin F in dB (with --fdt)."),
        click.option("--fdt", type=float, help="Normalized Doppler frequency fD·T (T = packet time)."),
        click.option("--model", type=click.Choice(MODELS), default="markov", show_default=True,
                     help="markov: two-state chain (or Bernoulli); threshold / bit-level: simulated Jakes fading."),
        click.option("--snr-db", type=float, help="Average SNR per bit in dB (bit-level model)."),
        click.option("--packet-bytes", type=int, default=1024, show_default=True, help="Packet size (bit-level)."),
        click.option("--modulation", type=click.Choice(MODULATIONS), default="bpsk", show_default=True),
        click.option("--fading-model", type=click.Choice(FADING_MODELS), default="jakes", show_default=True,
                     help="Fading simulator (threshold / bit-level models)."),
        click.option("--oscillators", type=int, help="Oscillators: N0 for jakes (default 8), M for cisoids (default 64)."),
        click.option("--trace-file", type=click.Path(dir_okay=False, path_type=Path),
                     help="Replay losses from a trace file (text, .bin or .npy) instead of a model."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _given(**kwargs) -> list[str]:
    return ["--" + k.replace("_", "-") for k, val in kwargs.items() if val is not None]


def build_channel(p, q, error_rate, burst, fading_margin_db, fdt, model, snr_db, packet_bytes, modulation,
                  fading_model, oscillators, trace_file=None):
    """The channel the options describe, or a ParameterError naming what is missing or conflicting."""
    if trace_file is not None:
        others = _given(p=p, q=q, error_rate=error_rate, burst=burst, fading_margin_db=fading_margin_db, fdt=fdt,
                        snr_db=snr_db)
        if others:
            raise v.fail("--trace-file", str(trace_file), f"cannot be combined with {', '.join(others)}")
        return TraceChannel.from_file(trace_file)
    if model == "bit-level":
        if fdt is None or snr_db is None:
            raise v.fail("--model", model, "the bit-level model needs --fdt and --snr-db")
        return BitLevelFading(fdt, snr_db, packet_bits=8 * v.integer("--packet-bytes", packet_bytes, 1),
                              modulation=modulation, fading_model=fading_model, oscillators=oscillators)
    if model == "threshold":
        if fdt is None or (error_rate is None) == (fading_margin_db is None):
            raise v.fail("--model", model, "the threshold model needs --fdt and one of --error-rate, --fading-margin-db")
        return ThresholdFading(fdt, error_rate=error_rate, fading_margin_db=fading_margin_db,
                               fading_model=fading_model, oscillators=oscillators)
    if p is not None or q is not None:
        extra = _given(error_rate=error_rate, burst=burst, fading_margin_db=fading_margin_db, fdt=fdt)
        if p is None or q is None or extra:
            raise v.fail("--p/--q", f"p={p}, q={q}" + (f" with {', '.join(extra)}" if extra else ""),
                         "give both --p and --q and no other channel parameter")
        return GilbertElliott.from_transitions(p, q)
    if fdt is not None:
        if burst is not None:
            raise v.fail("--burst", burst, "cannot be combined with --fdt (the burst follows from fading)")
        return GilbertElliott.from_fading(fdt=fdt, error_rate=error_rate, fading_margin_db=fading_margin_db)
    if fading_margin_db is not None:
        raise v.fail("--fading-margin-db", fading_margin_db, "needs --fdt as well")
    if error_rate is not None and burst is not None:
        return GilbertElliott.from_burst(error_rate, burst)
    if error_rate is not None:
        return Bernoulli(error_rate)
    if burst is not None:
        raise v.fail("--burst", burst, "needs --error-rate as well")
    raise v.fail("channel", "no parameters",
                 "give --p and --q, or --error-rate [--burst], or --fdt with --error-rate or --fading-margin-db")


def print_table(items: dict) -> None:
    """Print key/value pairs as two aligned columns."""
    width = max(len(k) for k in items)
    for key, val in items.items():
        text = f"{val:.6g}" if isinstance(val, float) else str(val)
        click.echo(f"{key:<{width}}  {text}")


def progress_bar() -> bool:
    """Whether a long command draws a progress bar (``progress=True`` of the simulations): on a terminal only, not
    into a pipe or a log."""
    return sys.stderr.isatty()
