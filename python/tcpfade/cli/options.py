"""Options shared by several commands: describing a channel, printing a table, whether to draw a progress bar."""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

import click

from .. import _validate as v
from ..plots._figure import FORMATS as FIGURE_FORMATS
from ..sweep.store import EXPORT_FORMATS
from ..channels import (
    FADING_MODELS,
    MODULATIONS,
    Bernoulli,
    BitLevelFading,
    GilbertElliott,
    ThresholdFading,
    TraceChannel,
)

CHANNEL_KINDS = ("markov", "threshold", "bit-level")


def _refuse(value, message: str, param, ctx):
    """click's BadParameter carrying the value given, for the one-line message of :func:`tcpfade.cli.main`."""
    error = click.BadParameter(message, ctx=ctx, param=param)
    error.given = value
    raise error


class Count(click.ParamType):
    """A whole number that may be written as 1e6 (``--slots 1e6``), checked by the API's own rule."""

    name = "count"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).replace("_", "").strip()
        try:
            return int(text)   # exactly, however large (a seed of 2**64 - 1 is not a float's)
        except ValueError:
            pass
        from decimal import Decimal, InvalidOperation

        try:
            number = Decimal(text)   # exactly: 9007199254740993e0 is that integer, not the float next to it
        except InvalidOperation:
            _refuse(value, "must be a whole number (1000000 or 1e6)", param, ctx)
        if not number.is_finite() or number != number.to_integral_value() or abs(number) > Decimal(10) ** 400:
            _refuse(value, "must be a whole number (1000000 or 1e6)", param, ctx)
        return int(number)


class OutputFile(click.ParamType):
    """A file to write, checked before any work is done: its directory exists and is writable, and its suffix is
    one of ``suffixes`` when given (so a long computation never ends in an error about where to put its result)."""

    name = "file"

    def __init__(self, suffixes: tuple[str, ...] | None = None) -> None:
        self.suffixes = suffixes

    def convert(self, value, param, ctx):
        path = Path("/dev/stdout") if value == "-" else Path(value)   # "-": standard output, as other tools read it
        why = _why(v.unwritable, path)
        # A table to standard output or a device is CSV whatever its name (tcpfade._io.write_table).
        if not why and self.suffixes and path.suffix.lower() not in self.suffixes and \
                not (".csv" in self.suffixes and v.streamed(path)):
            why = f"the suffix must be one of {', '.join(self.suffixes)}"
        if why:
            _refuse(value, why, param, ctx)
        return path


def _why(check, path: Path) -> str | None:
    """``check(path)``, or what the operating system said when looking the path up failed (a name longer than the
    file system allows, a loop of links)."""
    try:
        return check(path)
    except OSError as exc:
        return f"cannot be used: {exc.strerror or exc}"


class OutputDir(click.ParamType):
    """A directory to write into: it exists and is writable, or it can be created in its parent, which exists (as
    every other output's directory must: a mistyped path is refused, not created)."""

    name = "directory"

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            _refuse(value, "must be a directory path (give . for the current directory)", param, ctx)
        path = Path(value)
        why = _why(lambda p: ("exists and is not a directory" if p.exists() and not p.is_dir() else
                              f"its parent directory {str(p.parent)!r} does not exist (create it first)"
                              if not p.exists() and not p.parent.is_dir() else
                              v.uncreatable(p) or (v.unwritable_directory(p) if p.is_dir() else None)), path)
        if why:
            _refuse(value, why, param, ctx)
        return path


class InputFile(click.ParamType):
    """An existing, readable file."""

    name = "file"

    def convert(self, value, param, ctx):
        path = Path(value)
        why = _why(v.unreadable, path)
        if why:
            _refuse(value, why, param, ctx)
        return path


COUNT, OUTPUT_FILE, OUTPUT_DIR, INPUT_FILE = Count(), OutputFile(), OutputDir(), InputFile()
#: A figure to write (the formats the plots write) and a table to export (the store's).
FIGURE_FILE, TABLE_FILE = OutputFile(FIGURE_FORMATS), OutputFile(EXPORT_FORMATS)

#: The one description of --seed, so every command says the same.
SEED_HELP = "Seed of the random numbers: the same inputs and seed give the same results."


def wrote(path: Path, what: str = "") -> None:
    """Confirm a file written (on stderr, so that stdout stays the result)."""
    click.echo(f"wrote {path}" + (f" ({what})" if what else ""), err=True)


def distinct_outputs(**paths: Path | None) -> None:
    """Refuse two output options that name one file (the second would overwrite the first without a word); the
    options by their Python names (``csv_path``, ``trace_csv``, ...)."""
    seen: dict[str, str] = {}
    for name, path in paths.items():
        if path is None:
            continue
        key = os.path.realpath(path)
        option = "--csv" if name == "csv_path" else "--" + name.replace("_", "-")
        if key in seen:
            raise v.fail(option, str(path), f"names the file {seen[key]} writes too: give each output its own file")
        seen[key] = option


def write_trace(result, csv_path: Path | None, plot_path: Path | None) -> None:
    """Write a run's window trace (``result.trace``) as CSV and as a figure, where asked; after the result is out."""
    if csv_path:
        from .._io import write_table

        write_table(result.trace, csv_path, "--trace-csv")
        wrote(csv_path)
    if plot_path:
        result.plot_trace(plot_path)
        wrote(plot_path)


def output_options(rows: str = "one row"):
    """``--json`` and ``--csv PATH`` for a command that prints results (every such command has both); ``rows``
    says what a CSV row is. The command then calls :func:`emit`."""
    def decorate(f):
        f = click.option("--csv", "csv_path", type=OUTPUT_FILE,
                         help=f"Also write the result as CSV ({rows}; intervals as <metric>_low, <metric>_high).")(f)
        return click.option("--json", "as_json", is_flag=True,
                            help="Print the result as JSON instead of a table.")(f)
    return decorate


def _finite(value):
    """``value`` with every non-finite number (NaN, ±inf: an interval a run could not give, a rate never seen) as
    None, so that ``--json`` prints JSON (which has no NaN) and a reader gets null; numpy scalars as Python's."""
    import math

    if isinstance(value, dict):
        return {k: _finite(x) for k, x in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(x) for x in value]
    if type(value).__module__ == "numpy" and hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        value = value.item()
    return None if isinstance(value, float) and not math.isfinite(value) else value


def emit(result, *, as_json: bool, csv_path: Path | None, human) -> None:
    """Print ``result`` (a result record, a dict of a row, or a DataFrame) as JSON (``as_json``) or call ``human()``
    to print the table a person reads, then write it as CSV to ``csv_path`` when given: printed first, the result is
    not lost if the file cannot be written after all. pandas is imported only for a CSV or a table (a command that
    prints a record stays quick)."""
    is_record = hasattr(result, "to_frame") and hasattr(result, "to_dict") and not hasattr(result, "columns")
    payload = dict(result) if isinstance(result, dict) else result.to_dict() if is_record else None
    _print(result, payload, as_json, human)
    if csv_path:
        import pandas as pd

        from .._io import write_file

        frame = pd.DataFrame([payload]) if isinstance(result, dict) else result.to_frame() if is_record else result
        write_file(csv_path, lambda p: frame.to_csv(p, index=False), parameter="--csv")
        wrote(csv_path)


def _print(result, payload, as_json: bool, human) -> None:
    if as_json:
        if payload is None:
            click.echo(result.to_json(orient="records", indent=2, default_handler=str))
        else:
            click.echo(json.dumps(_finite(payload), indent=2, allow_nan=False,
                                  default=lambda x: None if x is None else str(x)))
    else:
        human()


def channel_options(f=None, *, markov_only: bool = False, packet_bytes: bool = True):
    """Options that describe a channel, shared by every command that takes one; ``markov_only`` keeps those of a
    two-state Markov channel (the analysis' channels), so that help lists only what the command accepts;
    ``packet_bytes=False`` leaves --packet-bytes to a command that has its own."""
    if f is None:
        return lambda g: channel_options(g, markov_only=markov_only, packet_bytes=packet_bytes)
    markov = [   # a two-state Markov chain's: all that ``analyze`` takes
        click.option("--p", "p", type=float, help="P(good -> good) of a two-state Markov chain."),
        click.option("--q", "q", type=float, help="P(bad -> bad) of a two-state Markov chain."),
        click.option("--error-rate", type=float, help="Average packet error rate ε."),
        click.option("--burst", type=float, help="Mean error-burst length in slots (with --error-rate)."),
        click.option("--fading-margin-db", type=float, help="Fading margin F in dB (with --fdt)."),
        click.option("--fdt", type=float, help="Normalized Doppler frequency fD·T (T = packet time)."),
    ]
    simulated = [   # simulated fading and recorded traces
        # --model was this option's name; it also meant a sweep's function and analyze-link's reading (docs/glossary.md)
        click.option("--channel", "--model", "channel_kind", type=click.Choice([*CHANNEL_KINDS, "bit_level"]),
                     default="markov", callback=lambda _ctx, _param, kind: kind.replace("_", "-"),
                     show_default=True, help="markov: two-state chain (or Bernoulli); threshold / bit-level: "
                                             "simulated Jakes fading."),
        click.option("--snr-db", type=float, help="Average SNR per bit in dB (bit-level model)."),
        *([click.option("--packet-bytes", type=int, default=1024, show_default=True, help="Packet size (bit-level).")]
          if packet_bytes else []),
        click.option("--modulation", type=click.Choice(MODULATIONS), default="bpsk", show_default=True,
                     help="Modulation of the bit-level model (bit error probability against the SNR)."),
        click.option("--fading-model", type=click.Choice(FADING_MODELS), default="jakes", show_default=True,
                     help="Fading simulator (threshold / bit-level models)."),
        click.option("--oscillators", type=int, help="Oscillators: N0 for jakes (default 8), M for cisoids (default 64)."),
        click.option("--trace-file", type=INPUT_FILE,
                     help="Replay losses from a trace file (text, .bin or .npy) instead of a model."),
    ]
    for option in reversed(markov if markov_only else markov + simulated):
        f = option(f)
    return f


def _given(**kwargs) -> list[str]:
    return ["--" + k.replace("_", "-") for k, val in kwargs.items() if val is not None]


def note_iid(channel) -> None:
    """After a run on the channel of --error-rate alone, say that it was i.i.d.: a forgotten --fdt would otherwise
    pass unnoticed (independent losses are a fading channel's opposite). Said after the run, so that an error
    stays one line."""
    if isinstance(channel, Bernoulli):
        click.echo("note: --error-rate alone is a channel of independent (i.i.d.) losses; add --fdt for Rayleigh "
                   "fading or --burst for a two-state chain", err=True)


def build_channel(p, q, error_rate, burst, fading_margin_db, fdt, channel_kind="markov", snr_db=None, packet_bytes=1024,
                  modulation="bpsk", fading_model="jakes", oscillators=None, trace_file=None):
    """The channel the options describe, or a ParameterError naming what is missing or conflicting."""
    if trace_file is not None:
        others = _given(p=p, q=q, error_rate=error_rate, burst=burst, fading_margin_db=fading_margin_db, fdt=fdt,
                        snr_db=snr_db)
        if others:
            raise v.fail("--trace-file", str(trace_file), f"cannot be combined with {', '.join(others)}")
        return TraceChannel.from_file(trace_file)
    if channel_kind in ("bit-level", "threshold"):
        # What the simulated fading does not take is an error, never dropped without a word.
        unused = _given(p=p, q=q, burst=burst, **({"error_rate": error_rate, "fading_margin_db": fading_margin_db}
                                                  if channel_kind == "bit-level" else {"snr_db": snr_db}))
        if unused:
            raise v.fail(unused[0], "given", f"is not a parameter of --channel {channel_kind}")
    if channel_kind == "bit-level":
        if fdt is None or snr_db is None:
            raise v.fail("--channel", channel_kind, "the bit-level model needs --fdt and --snr-db")
        return BitLevelFading(fdt, snr_db, packet_bits=8 * v.integer("--packet-bytes", packet_bytes, 1),
                              modulation=modulation, fading_model=fading_model, oscillators=oscillators)
    if channel_kind == "threshold":
        if fdt is None or (error_rate is None) == (fading_margin_db is None):
            raise v.fail("--channel", channel_kind, "the threshold model needs --fdt and one of --error-rate, --fading-margin-db")
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
        if (error_rate is None) == (fading_margin_db is None):
            raise v.fail("--fdt", fdt, "give one of --error-rate and --fading-margin-db with it")
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


#: The options of :func:`channel_options` that describe a channel (the others tune the model).
CHANNEL_KEYS = ("p", "q", "error_rate", "burst", "fading_margin_db", "fdt", "snr_db", "trace_file")


def link_channel_option(kw: dict, packet_bytes: int):
    """For the link commands: the channel the :func:`channel_options` in ``kw`` describe (removed from it), or None
    when they describe none; refused when given with the continuous channel's --mean-good/--mean-bad."""
    channel_kw = {k: kw.pop(k) for k in (*CHANNEL_KEYS, "channel_kind", "modulation", "fading_model", "oscillators")}
    described = [k for k in CHANNEL_KEYS if channel_kw[k] is not None] + (
        ["channel"] if channel_kw["channel_kind"] != "markov" else [])
    if not described:
        return None
    if kw.get("mean_good") is not None or kw.get("mean_bad") is not None:
        raise v.fail("--mean-good", kw.get("mean_good"),
                     f"give the two-state channel or another channel (--{described[0].replace('_', '-')}), not both")
    return build_channel(packet_bytes=packet_bytes, **channel_kw)


#: The flag that asks for a link without channel losses: a run never picks a channel silently.
LOSSLESS_HELP = "Run without channel losses (a run never picks a channel for you: give a channel's options or this)."


def require_channel(channel, lossless: bool, options: str, *, continuous: bool = False):
    """The channel the options describe, or None with --lossless; an error when neither or both are given.
    ``continuous``: --mean-good/--mean-bad were given (the API builds that channel from them)."""
    if continuous:
        if lossless:
            raise v.fail("--lossless", True, "cannot be combined with --mean-good/--mean-bad")
        return channel
    if channel is None and not lossless:
        raise v.fail("channel options", "(none)", f"give a channel ({options}), or --lossless for a link without channel "
                                          "losses")
    if channel is not None and lossless:
        raise v.fail("--lossless", True, "cannot be combined with a channel's options")
    return channel


def metric_text(record, name: str, value: float | None, interval) -> str:
    """A metric and its interval for a human table, ``value  [low, high]`` (``value`` None: the interval alone, as an
    analysis's bounds); a metric that is NaN (undefined in this run) or infinite as the reason the record gives
    (:meth:`Record.why <tcpfade._record.Record.why>`), not as ``nan`` or ``inf``."""
    import math

    ends = [float(interval[0]), float(interval[1])]
    odd = next((x for x in ([value] if value is not None else []) + ends if not math.isfinite(x)), None)
    if odd is not None:
        return record.why(name, odd)
    bracket = f"[{ends[0]:.6g}, {ends[1]:.6g}]"
    return bracket if value is None else f"{value:.6g}  {bracket}"


def print_table(items: dict) -> None:
    """Print key/value pairs as two aligned columns; an undefined (NaN) value prints as such, its reason in the
    record's ``notes`` (printed last, and not at all when empty)."""
    items = {k: val for k, val in items.items() if not (k == "notes" and not val)}
    width = max(len(k) for k in items)
    for key, val in items.items():
        text = ("undefined (see notes)" if isinstance(val, float) and val != val
                else "infinite (see notes)" if isinstance(val, float) and abs(val) == float("inf")
                else f"{val:.6g}" if isinstance(val, float) else str(val))
        click.echo(f"{key:<{width}}  {text}")


def progress_bar() -> bool:
    """Whether a long command draws a progress bar (``progress=True`` of the simulations): on a terminal only, not
    into a pipe or a log."""
    return sys.stderr.isatty()
