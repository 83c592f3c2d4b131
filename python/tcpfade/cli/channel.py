"""``tcpfade channel``: describe, simulate, fit and plot packet-error channels."""

from __future__ import annotations

import math
from pathlib import Path

import click
import numpy as np
from tqdm import tqdm

from .. import _validate as v
from ..channels import (
    MODULATIONS,
    TRACE_FORMATS,
    bit_level_error_rate,
    fit_markov,
    load_trace,
    save_trace,
)
from ..channels.studies import ZORZI_RAO_FIT_FDT, chockalingam_table1, fit_versus_analysis
from ..plots import plot_error_vs_snr
from .options import (COUNT, FIGURE_FILE, INPUT_FILE, OUTPUT_FILE, SEED_HELP, build_channel, channel_options, emit,
                      output_options, print_table, wrote)

@click.group()
def channel() -> None:
    """Packet-error channels: describe, simulate traces, fit, reproduce tables and plots."""


@channel.command()
@channel_options
@output_options()
def describe(as_json: bool, csv_path: Path | None, **options) -> None:
    """Describe a channel from whichever parameters you have.

    \b
    Examples:
      tcpfade channel describe --p 0.99 --q 0.9
      tcpfade channel describe --error-rate 0.01 --burst 4
      tcpfade channel describe --error-rate 0.1 --fdt 0.01
      tcpfade channel describe --fading-margin-db 20 --fdt 0.08
    """
    info = build_channel(**options).describe()
    emit(info, as_json=as_json, csv_path=csv_path, human=lambda: print_table(info))


@channel.command()
@channel_options
@click.option("--slots", type=COUNT, required=True, help="Number of slots to simulate (1e6 is fine).")
@click.option("--seed", type=COUNT, required=True, help=SEED_HELP)
@click.option("--out", type=OUTPUT_FILE, required=True, help="File to write.")
@click.option("--format", "fmt", type=click.Choice(TRACE_FORMATS), help="File format (default: from the suffix; "
              ".npy -> npy, .bin -> binary, else text).")
def trace(slots: int, seed: int, out: Path, fmt: str | None, **options) -> None:
    """Simulate a channel and write its loss trace (1 = lost)."""
    ch = build_channel(**options)
    losses = ch.trace(v.integer("--slots", slots, 1), seed=seed)
    save_trace(out, losses, fmt)
    wrote(out, f"{losses.size} slots, error rate {losses.mean():.6g}")


@channel.command()
@click.argument("path", type=INPUT_FILE)
@click.option("--format", "fmt", type=click.Choice(TRACE_FORMATS), help="File format (default: from the suffix).")
@click.option("--histogram", is_flag=True, help="Also print the burst-length histogram beside the geometric law.")
@output_options()
def fit(path: Path, fmt: str | None, histogram: bool, as_json: bool, csv_path: Path | None) -> None:
    """Fit a two-state Markov model to a loss trace (zorzi-rao's hybrid approach)."""
    result = fit_markov(load_trace(path, fmt))

    def human() -> None:
        print_table(result.to_dict())
        if histogram:
            click.echo("")
            click.echo(result.burst_histogram().head(40).to_string(index=False))

    emit(result, as_json=as_json, csv_path=csv_path, human=human)


@channel.command()
@output_options("one row per entry of the table")
def table1(as_json: bool, csv_path: Path | None) -> None:
    """Recompute chockalingam Table 1 (p, q, F, mean burst from fading)."""
    table = chockalingam_table1()
    emit(table, as_json=as_json, csv_path=csv_path,
         human=lambda: click.echo(table.to_string(index=False, float_format=lambda x: f"{x:.6g}")))


def _float_list(name: str, text: str) -> list[float]:
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise v.fail(name, text, "must be a comma-separated list of numbers") from None
    if not values:
        raise v.fail(name, text, "must list at least one number")
    return values


#: The most SNR points `error-vs-snr` draws (each is a simulated error rate over every packet of a curve).
MAX_SNR_POINTS = 10_000


@channel.command("error-vs-snr")
@click.option("--out", type=FIGURE_FILE, required=True, help="Figure to write: .png, .svg or .pdf.")
@click.option("--fdt", "fdts", default="0.001,0.016,0.256", show_default=True, help="Comma-separated fD·T values.")
@click.option("--snr-db", "snrs", default="0:45:2.5", show_default=True,
              help="SNR grid in dB: start:stop:step or a comma-separated list.")
@click.option("--packet-bytes", type=int, default=1024, show_default=True, help="Packet size [bytes].")
@click.option("--modulation", type=click.Choice(MODULATIONS), default="bpsk", show_default=True,
              help="Modulation (bit error probability against the SNR).")
@click.option("--packets", type=COUNT, help="Packets simulated per fD·T [default: max(200000, 2000 / fD·T), "
              "so each curve spans at least 2000 Doppler periods].")
@click.option("--seed", type=COUNT, default=1, show_default=True, help=SEED_HELP)
@output_options("one row per fD·T and SNR")
def error_vs_snr(out: Path, fdts: str, snrs: str, packet_bytes: int, modulation: str, packets: int | None, seed: int,
                 as_json: bool, csv_path: Path | None) -> None:
    """Average packet error rate vs average SNR of the bit-level model (zorzi-rao Fig. 7)."""
    import pandas as pd

    if ":" in snrs:
        parts = _float_list("--snr-db", snrs.replace(":", ","))
        if len(parts) != 3 or not all(map(math.isfinite, parts)) or parts[2] <= 0 or parts[1] < parts[0]:
            raise v.fail("--snr-db", snrs, "must be start:stop:step, finite, with step > 0 and stop >= start")
        count = (parts[1] - parts[0]) / parts[2] + 1
        if count > MAX_SNR_POINTS:
            raise v.fail("--snr-db", snrs, f"gives {count:.3g} SNR points; at most {MAX_SNR_POINTS:,} (a larger step)")
        grid = np.arange(parts[0], parts[1] + parts[2] / 2, parts[2])
    else:
        grid = np.array(_float_list("--snr-db", snrs))
    fdt_values = _float_list("--fdt", fdts)
    for fdt in fdt_values:      # every curve's fD·T checked before the first one is computed
        v.positive("--fdt", fdt)
    bits = 8 * v.integer("--packet-bytes", packet_bytes, 1)
    tables = []
    for fdt in tqdm(fdt_values, desc="fD·T values", unit="curve", disable=None):
        n = packets if packets is not None else max(200_000, math.ceil(2000 / v.positive("--fdt", fdt)))
        t = bit_level_error_rate(fdt, grid, packet_bits=bits, modulation=modulation, packets=n, seed=seed)
        tables.append(t)
    table = pd.concat(tables, ignore_index=True)
    emit(table, as_json=as_json, csv_path=csv_path, human=lambda: None)
    plot_error_vs_snr(table, out, packet_bytes=packet_bytes, modulation=modulation)
    wrote(out)


@channel.command("fit-vs-analysis")
@click.option("--fdt", "fdts", default=",".join(map(str, ZORZI_RAO_FIT_FDT)), show_default=True,
              help="Comma-separated fD·T values.")
@click.option("--error-rate", "rates", default="0.01,0.1", show_default=True,
              help="Comma-separated target packet error rates.")
@click.option("--slots", type=COUNT, default=4_000_000, show_default=True, help="Slots per simulated trace.")
@click.option("--seed", type=COUNT, default=1, show_default=True, help=SEED_HELP)
@output_options("one row per fD·T and error rate")
def fit_vs_analysis(fdts: str, rates: str, slots: int, seed: int, as_json: bool, csv_path: Path | None) -> None:
    """Markov parameters fitted to Jakes traces beside zorzi-rao eq. (3)."""
    fdt_values, rate_values = _float_list("--fdt", fdts), _float_list("--error-rate", rates)
    bar = tqdm(total=len(fdt_values) * len(rate_values), desc="points", unit="point", disable=None)

    def step(label: str) -> None:
        bar.set_postfix_str(label)
        bar.update(1)

    with bar:
        table = fit_versus_analysis(fdt_values, rate_values, slots=v.integer("--slots", slots, 1000),
                                    seed=v.seed(seed), progress=step)
    cols = ["fdt", "target_error_rate", "snr_db", "bitlevel_error_rate", "bitlevel_mean_burst", "bitlevel_burst_ci",
            "analytic_mean_burst", "threshold_mean_burst", "threshold_burst_ci", "threshold_analytic_mean_burst"]
    emit(table, as_json=as_json, csv_path=csv_path,
         human=lambda: click.echo(table[cols].to_string(index=False, float_format=lambda x: f"{x:.4g}")))
    if not math.isfinite(table["bitlevel_mean_burst"].sum()):
        raise v.fail("--slots", slots, "too few slots: some traces had no burst")
