"""What a sweep can run: each model's parameters (names and types), how a point's parameters become a
channel and a call, and running one point. The functions here run in worker processes, so they take and
return plain data (dicts of numbers and strings)."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .. import __version__
from .. import _validate as v
from ..analysis import analyze
from ..analysis.analyze import ANALYSIS, analysis_arguments
from ..analysis.link import LINK_ANALYSIS, analyze_link, link_analysis_arguments
from ..analysis.result import METRICS as ANALYSIS_METRICS
from ..channels.continuous import ContinuousTwoState
from ..channels.jakes import BitLevelFading, ThresholdFading
from ..channels.markov import Bernoulli, GilbertElliott
from ..emulator import EMULATE, check_machine, emulate, emulation_arguments
from ..tcp import simulate, simulate_link, simulate_transfer
from ..tcp.transfer import TRANSFER, TRANSFER_COUNTS, TRANSFER_METRICS, transfer_arguments
from ..tcp.link import LINK, LINK_COUNTS, LINK_METRICS, link_arguments
from ..tcp.slotted import METRICS as SIMULATION_METRICS
from ..tcp.slotted import SLOTTED, simulation_arguments

#: Channel parameters, common to every model. ``channel`` picks the kind (see :func:`make_channel`).
CHANNEL_PARAMETERS: dict[str, type] = {
    "channel": str, "error_rate": float, "fdt": float, "fading_margin_db": float, "p": float, "q": float,
    "mean_burst": float, "loss_good": float, "loss_bad": float, "mean_good": float, "mean_bad": float,
    "mean_phase": float, "drop_rate": float, "snr_db": float, "fading_model": str, "oscillators": int,
    "packet_bits": int, "modulation": str, "samples_per_packet": int,
}

def _declarations() -> dict[str, Any]:
    """Each sweep model's declaration (WCDMA's imported here, where it is needed)."""
    from ..wcdma.tcp import WCDMA

    return {"simulate": SLOTTED, "analyze": ANALYSIS, "simulate_link": LINK, "analyze_link": LINK_ANALYSIS,
            "simulate_transfer": TRANSFER, "wcdma": WCDMA, "emulate": EMULATE}


_DECLARATIONS = _declarations()

#: Per model, the parameters a point may set besides the channel's (the keyword arguments of the call): each model's
#: declaration says which (:meth:`tcpfade._params.Model.sweep_types`). A WCDMA point gives its rays by name.
MODEL_PARAMETERS: dict[str, dict[str, type]] = {
    name: {k: (str if name == "wcdma" and k == "rays" else t) for k, t in model.sweep_types().items()}
    for name, model in _DECLARATIONS.items()
}

#: Per model, the parameters that take one of a set of names, and which (the declaration's words).
MODEL_CHOICES: dict[str, dict[str, str]] = {name: model.sweep_choices() for name, model in _DECLARATIONS.items()}

#: Per model, the parameters whose None a parameter file may give as "none".
MODEL_OPTIONAL: dict[str, frozenset[str]] = {name: model.optional_names() for name, model in _DECLARATIONS.items()}

#: Channel kinds: the parameters each needs, and those it may take.
CHANNEL_KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "fading": (frozenset({"fdt"}), frozenset({"fdt", "error_rate", "fading_margin_db"})),
    "markov": (frozenset({"p", "q"}), frozenset({"p", "q", "loss_good", "loss_bad"})),
    "burst": (frozenset({"error_rate", "mean_burst"}), frozenset({"error_rate", "mean_burst"})),
    "bernoulli": (frozenset({"error_rate"}), frozenset({"error_rate"})),
    "continuous": (frozenset({"mean_good", "mean_bad"}), frozenset({"mean_good", "mean_bad"})),
    "on_off": (frozenset({"mean_phase", "drop_rate"}), frozenset({"mean_phase", "drop_rate"})),
    # simulated fading, packet by packet (zorzi-rao §5): the threshold model and the bit-level one.
    "threshold": (frozenset({"fdt"}), frozenset({"fdt", "error_rate", "fading_margin_db", "fading_model",
                                                  "oscillators"})),
    "bit_level": (frozenset({"fdt", "snr_db"}), frozenset({"fdt", "snr_db", "packet_bits", "modulation",
                                                           "samples_per_packet", "fading_model", "oscillators"})),
    # no channel losses (the link models, asked for by name: a sweep never picks a channel), or the WCDMA chain's
    # own channel
    "none": (frozenset(), frozenset()),
}

MODELS = tuple(MODEL_PARAMETERS)


def parameter_types(model: str) -> dict[str, type]:
    """Every parameter a point of ``model`` may set, with its type."""
    return {**MODEL_PARAMETERS[model], **CHANNEL_PARAMETERS}


def make_channel(params: dict[str, Any], model: str = "simulate"):
    """The channel of a point: for the slotted models ``channel`` = "fading" (the default: zorzi-rao eqs.
    (2)-(5) from ``fdt`` and ``error_rate`` or ``fading_margin_db``), "markov" (``p``, ``q``, optional
    ``loss_good``, ``loss_bad``), "burst" (``error_rate``, ``mean_burst``), "bernoulli" (``error_rate``), and for
    ``simulate`` the simulated fading of zorzi-rao §5: "threshold" (``fdt`` and ``error_rate`` or
    ``fading_margin_db``, optional ``fading_model``, ``oscillators``) and "bit_level" (``fdt``, ``snr_db``,
    optional ``packet_bits``, ``modulation``, ``samples_per_packet``, ``fading_model``, ``oscillators``); for
    the link models "continuous" (``mean_good``, ``mean_bad``: abouzeid §III, the default), and for
    ``simulate_link`` and ``emulate`` every slot channel above too (stepped per packet, the fading ones in real
    time); for transfers "on_off" (``mean_phase``, ``drop_rate``: VDELDROP, tsaoussidis-badr §4, the default), "continuous"
    and every slot channel; "none" (no channel losses) for ``simulate_link``, ``simulate_transfer`` and ``emulate``
    (and the WCDMA chain, which makes its own)."""
    kinds = _MODELS[model].channels
    kind = v.choice("channel", params.get("channel", kinds[0]), kinds)
    needed, allowed = CHANNEL_KINDS[kind]
    given = {k for k in CHANNEL_PARAMETERS if k != "channel" and k in params}
    for name in sorted(given - allowed):
        raise v.fail(name, params[name], f"is not a parameter of a {kind!r} channel (it takes "
                                         f"{', '.join(sorted(allowed))})")
    for name in sorted(needed - given):
        raise v.fail(name, None, f"is needed by a {kind!r} channel")
    return _channel(kind, tuple(sorted((k, params[k]) for k in given)))


@lru_cache(maxsize=4096)
def _channel(kind: str, items: tuple[tuple[str, Any], ...]):
    """Channels are shared by the points that differ only in the model's parameters (building a fading
    chain solves eqs. (2)-(5))."""
    p = dict(items)
    if kind == "fading":
        if ("error_rate" in p) == ("fading_margin_db" in p):
            raise v.fail("error_rate", p.get("error_rate"), "give exactly one of error_rate and fading_margin_db "
                                                              "for a 'fading' channel")
        return GilbertElliott.from_fading(**p)
    if kind == "markov":
        return GilbertElliott(**p)
    if kind == "burst":
        return GilbertElliott.from_burst(p["error_rate"], p["mean_burst"])
    if kind == "continuous":
        return ContinuousTwoState(mean_good=p["mean_good"], mean_bad=p["mean_bad"])
    if kind == "threshold":
        if ("error_rate" in p) == ("fading_margin_db" in p):
            raise v.fail("error_rate", p.get("error_rate"), "give exactly one of error_rate and fading_margin_db "
                                                              "for a 'threshold' channel")
        return ThresholdFading(**p)
    if kind == "bit_level":
        return BitLevelFading(**p)
    if kind == "on_off":
        return ContinuousTwoState.on_off(p["mean_phase"], p["drop_rate"])
    if kind == "none":
        return None
    return Bernoulli(p["error_rate"])


def _function(model: str):
    from ..wcdma import simulate as simulate_wcdma

    return {"simulate": simulate, "analyze": analyze, "simulate_link": simulate_link, "analyze_link": analyze_link,
            "simulate_transfer": simulate_transfer, "wcdma": simulate_wcdma, "emulate": emulate}[model]


def defaults(model: str) -> dict[str, Any]:
    """The value each parameter of ``model`` takes when a point does not set it: the call's own defaults (from its
    signature), the model's default variant and channel kind. An export lists them beside the set ones, so that
    a row says everything the point ran with."""
    import inspect

    signature = inspect.signature(_function(model)).parameters
    out: dict[str, Any] = {_MODELS[model].variant_param: _MODELS[model].variant, "channel": _MODELS[model].channels[0]}
    for name in MODEL_PARAMETERS[model]:
        p = signature.get(name)
        if p is not None and p.default is not inspect.Parameter.empty:
            out[name] = p.default
    return out


def canonical(model: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with each name a model matches loosely (its variant, its profile: "Linux" is "linux") in the form
    its declaration gives it, so that one point spelled two ways is one point: the same seed, the same store key,
    the same row in an export."""
    declaration = getattr(_function(model), "model", None) if model in MODEL_PARAMETERS else None
    if declaration is None:
        return params
    out = dict(params)
    for name, value in params.items():
        rule = declaration[name].rule if name in declaration else None
        if isinstance(value, str) and isinstance(rule, v.Choice) and rule.loose:
            try:
                out[name] = rule.check(name, value)
            except v.ParameterError:
                pass   # refused where the point is checked, with the experiment file's line
    return out


def profile_defaults(model: str, params: dict[str, Any]) -> dict[str, Any]:
    """What the point's profile (``params["profile"]`` or the model's default one) sets, for a model whose
    declaration has profiles: between the signature's defaults and the point's own values in an export row."""
    declaration = getattr(_function(model), "model", None) if model in MODEL_PARAMETERS else None
    if declaration is None or not declaration.profiles:
        return {}
    chosen = declaration.profile(params.get("profile", declaration["profile"].default))
    resolved = declaration.profiled((), {k: x for k, x in params.items() if k in declaration})
    return {k: resolved[k] for k in declaration.profile_values(chosen.name)}


def _number(x: Any) -> int | float:
    """A metric as stored: counts stay integers (JSON keeps them so), everything else a float."""
    if isinstance(x, (bool, int, np.integer, np.bool_)):
        return int(x)
    return float(x)


def split(model: str, params: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of the model's call (the point's parameters minus the channel's)."""
    return {k: val for k, val in params.items() if k in MODEL_PARAMETERS[model]}


def _notes(record) -> str:
    """The record's ``notes``: why a metric of the row is NaN or infinite (empty when none is), kept in the store so
    that an export says what a direct call's row says."""
    return str(record.to_dict().get("notes", ""))


def _run_simulate(variant, channel, seed, kwargs):
    r = simulate(variant, channel, seed=seed, **kwargs)
    metrics = {m: float(getattr(r, m)) for m in SIMULATION_METRICS}
    metrics.update(energy_efficiency_lower_bound=float(r.energy_efficiency_lower_bound),
                   timeouts=int(r.timeouts), fast_retransmits=int(r.fast_retransmits), notes=_notes(r))
    return metrics, {m: [float(lo), float(hi)] for m, (lo, hi) in r.ci.items()}


def _run_analyze(variant, channel, seed, kwargs):
    r = analyze(variant, channel, **kwargs)
    metrics = {m: float(getattr(r, m).optimistic) for m in ANALYSIS_METRICS}
    metrics.update(states=int(r.states), mean_cycle=float(r.mean_cycle), notes=_notes(r))
    return metrics, {m: [float(getattr(r, m).low), float(getattr(r, m).high)] for m in ANALYSIS_METRICS}


#: Per-visit terms of the link models (abouzeid §IV-F, I, J), in both.
_VISIT_TERMS = ("p_no_loss", "p_triple_duplicate", "p_timeout", "mean_effective_bad", "mean_rto_at_bad",
                "mean_backoff_at_bad", "goodput_bps")


def _run_simulate_link(variant, channel, seed, kwargs):
    r = simulate_link(variant, channel=channel, seed=seed, **kwargs)
    metrics = {m: float(getattr(r, m)) for m in (*LINK_METRICS, *_VISIT_TERMS)}
    metrics.update({m: int(getattr(r, m)) for m in LINK_COUNTS}, notes=_notes(r))
    return metrics, {m: [float(lo), float(hi)] for m, (lo, hi) in r.ci.items()}


def _run_analyze_link(variant, channel, seed, kwargs):
    r = analyze_link(variant, channel=channel, **kwargs)
    metrics = {m: float(getattr(r, m)) for m in ("goodput", "reward", "ideal_goodput", *_VISIT_TERMS)}
    return {**metrics, "notes": _notes(r)}, {}


def _run_simulate_transfer(variant, channel, seed, kwargs):
    r = simulate_transfer(variant, channel, seed=seed, **kwargs)
    metrics = {m: _number(getattr(r, m)) for m in TRANSFER_METRICS}
    metrics.update({m: int(getattr(r, m)) for m in TRANSFER_COUNTS})
    metrics.update({f"{kind}_{what}": int(count) for kind, counts in r.by_kind.items()
                    for what, count in zip(("segments", "bytes", "dropped"), counts)})
    metrics.update(completed=int(r.completed), energy_sender_joules=float(r.energy_sender_joules), notes=_notes(r))
    return metrics, {}


#: The WCDMA chain's row in a sweep: its users summarized (:meth:`tcpfade.wcdma.WcdmaResult.to_dict`).
WCDMA_METRICS = ("mean_throughput", "median_throughput", "share_below_half", "mean_block_error_rate",
                 "median_block_error_rate", "mean_atp", "median_ace", "share_at_max_power")


def _run_wcdma(variant, channel, seed, kwargs):
    """One run of the WCDMA chain, summarized over its users (the per-user table is the direct call's)."""
    from ..wcdma import simulate as simulate_wcdma

    row = simulate_wcdma(seed=seed, variant=variant, **kwargs).to_dict()
    return {**{k: row[k] for k in WCDMA_METRICS}, "notes": str(row.get("notes", ""))}, {}


def _check_wcdma(variant, channel, kwargs):
    from ..wcdma.tcp import wcdma_arguments

    wcdma_arguments(seed=0, variant=variant, **kwargs)


#: An emulated run's row: the kernel's figures, per second where they are counts (runs of any length compare).
EMULATE_METRICS = ("goodput", "goodput_bps", "retransmissions_per_s", "timeouts_per_s", "channel_loss_rate",
                   "buffer_loss_rate", "rtt")


def _run_emulate(variant, channel, seed, kwargs):
    """One kernel run. Its figures have no interval of their own (one transfer); replications give the spread."""
    r = emulate(variant, channel=channel, seed=seed, **kwargs)
    measured = r.duration - r.warmup
    metrics = {"goodput": float(r.goodput), "goodput_bps": float(r.goodput_bps),
               "retransmissions_per_s": r.retransmissions / measured,
               # TCP_INFO counts RTO expirations from Linux 6.7 only: before, the row says "not measured" (None).
               "timeouts_per_s": None if r.timeouts is None else r.timeouts / measured,
               "channel_loss_rate": float(r.channel_loss_rate), "buffer_loss_rate": float(r.buffer_loss_rate),
               "rtt": float(r.rtt), "min_rtt": float(r.min_rtt), "retransmissions": int(r.retransmissions),
               "link_packets": int(r.link_packets), "lateness_mean": float(r.lateness_mean), "notes": _notes(r)}
    return metrics, {}


def _emulate_backend(workers: int | None, dask: str | None) -> int:
    """The kernel runs in real time, and its TCP reacts to the timing the link keeps: two emulations at once
    would share the CPU and distort each other's delays and rates. So one point at a time, in this process."""
    if dask is not None:
        raise v.fail("dask", dask, "cannot run the emulate model: its points run one at a time on this machine "
                                   "(concurrent emulations compete for the CPU and distort each other's timing)")
    if workers is not None and workers != 1:
        raise v.fail("workers", workers, "must be 1 for the emulate model: concurrent emulations compete for the "
                                         "CPU and distort each other's timing")
    check_machine()   # root, TUN and namespaces: said once, before any point runs
    return 1


def _any_backend(workers: int | None, dask: str | None) -> int | None:
    return workers


@dataclass(frozen=True)
class _Model:
    """How a sweep runs a model: the channel kinds it takes (the first the default), its default variant,
    its argument check (no computing) and its run, which returns (metrics, intervals); ``backend`` checks the
    runner's choice of workers and the machine before anything runs, and returns the number of workers;
    ``variant_param`` names the call's first parameter (the emulator's is the kernel's ``congestion_control``)."""

    channels: tuple[str, ...]
    variant: str
    check: Callable[..., Any]
    run: Callable[..., tuple[dict, dict]]
    backend: Callable[[int | None, str | None], int | None] = _any_backend
    variant_param: str = "variant"


#: The analysis needs a two-state Markov channel; the slotted simulation also takes the simulated fading.
_MARKOV_CHANNELS = ("fading", "markov", "burst", "bernoulli")
_SLOT_CHANNELS = (*_MARKOV_CHANNELS, "threshold", "bit_level")
_MODELS = {
    "simulate": _Model(_SLOT_CHANNELS, "newreno",
                       lambda variant, ch, kw: simulation_arguments(variant, ch, seed=0, **kw), _run_simulate),
    "analyze": _Model(_MARKOV_CHANNELS, "tahoe", lambda variant, ch, kw: analysis_arguments(variant, ch, **kw),
                      _run_analyze),
    "simulate_link": _Model(("continuous", *_SLOT_CHANNELS, "none"), "reno",
                            lambda variant, ch, kw: link_arguments(variant, channel=ch, seed=0, **kw),
                            _run_simulate_link),
    "analyze_link": _Model(("continuous",), "reno",
                           lambda variant, ch, kw: link_analysis_arguments(variant, channel=ch, **kw),
                           _run_analyze_link),
    "simulate_transfer": _Model(("on_off", "continuous", *_SLOT_CHANNELS, "none"), "probing",
                                lambda variant, ch, kw: transfer_arguments(variant, ch, seed=0, **kw),
                                _run_simulate_transfer),
    "wcdma": _Model(("none",), "newreno", _check_wcdma, _run_wcdma),  # the variant is a parameter of the call
    "emulate": _Model(("continuous", *_SLOT_CHANNELS, "none"), "reno",
                      lambda variant, ch, kw: emulation_arguments(variant, channel=ch, seed=0, **kw), _run_emulate,
                      _emulate_backend, "congestion_control"),
}


def former_names(model: str) -> dict[str, str]:
    """The former names of ``model``'s parameters (old -> new), from its declaration (``Param.old_names``)."""
    declaration = getattr(_function(model), "model", None)
    return {} if declaration is None else {old: p.name for p in declaration.params for old in p.old_names}


def backend_workers(model: str, workers: int | None, dask: str | None) -> int | None:
    """The workers ``model`` runs on, given the runner's ``workers`` and ``dask``: an error where the model cannot
    run so (the emulator: one at a time, on a machine that can run it)."""
    return _MODELS[model].backend(workers, dask)


def check_point(model: str, params: dict[str, Any]) -> None:
    """Raise the error the point would raise when run, without running it."""
    channel = make_channel(params, model)
    kwargs = split(model, params)
    m = _MODELS[model]
    m.check(kwargs.pop(m.variant_param, m.variant), channel, kwargs)


def run_point(task: dict[str, Any]) -> dict[str, Any]:
    """Run one point: ``task`` = {"index", "model", "params", "seed"}. Returns {"index", "metrics",
    "intervals", "seconds"}: for the simulations the intervals are confidence intervals, for ``analyze`` the
    (pessimistic, optimistic) bounds, with the optimistic value as the metric (where simulations sit); for
    ``analyze_link`` none (its goodput is a single value)."""
    start = time.perf_counter()
    model, params = task["model"], task["params"]
    kwargs = split(model, params)
    m = _MODELS[model]
    variant = kwargs.pop(m.variant_param, m.variant)
    metrics, intervals = m.run(variant, make_channel(params, model), task["seed"], kwargs)
    return {"index": task["index"], "metrics": metrics, "intervals": intervals,
            "seconds": time.perf_counter() - start}


@lru_cache(maxsize=None)
def code_fingerprint() -> str:
    """A hash of the code that computes results: the Rust core and the package's modules except the command
    line, plots, reproductions and the sweep machinery (but its model mapping). Results computed by different
    code never share a store key."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    def computes(path: Path) -> bool:
        top = path.relative_to(root).parts[0]
        if top in ("cli", "plots", "reproduce", "__pycache__") or (top == "sweep" and path.name != "models.py"):
            return False
        return path.suffix == ".py" or path.name.startswith("_core")

    files = sorted(p for p in root.rglob("*") if p.is_file() and computes(p))
    for path in files:
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@v.checked(model=v.Choice(MODELS))
def model_identity(model: str) -> str:
    """The model's identity in the store: its name, tcpfade's version and the code fingerprint."""
    return f"{model}/tcpfade-{__version__}/{code_fingerprint()}"
