"""Hypothesis strategies for hostile calls of every public function and CLI command (see :mod:`harness`).

Each parameter draws either a plausible value (inside or near its allowed range, sizes kept small enough that an
accepted case runs in well under a second) or a hostile one (NaN, infinities, 2**62, 10**400, strings, bytes,
None, booleans, containers). A case is a target with a random subset of its optional parameters.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

HOSTILE = st.sampled_from([
    math.nan, math.inf, -math.inf, -1, -1.0, 0, 0.0, -0.0, 1, 2**31, 2**32, 2**62, 2**64, 10**400, 1e308, 1e-308,
    -1e308, 5e-324, 1e-17, "0.5", "1", "", b"1", None, True, False, (), [], {}, [1, 2], [[0.1]], (0.5,),
])
NUMBER = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-2**70, 2**70))


#: One draw in HOSTILE_ONE_IN of a parameter is hostile: a case sets several, so about half the cases carry one.
HOSTILE_ONE_IN = 30


def mixed(plausible: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly plausible values; one draw in :data:`HOSTILE_ONE_IN` hostile or an arbitrary number."""
    return st.integers(1, HOSTILE_ONE_IN).flatmap(
        lambda k: HOSTILE if k == 1 else NUMBER if k == 2 else plausible)


def prob() -> st.SearchStrategy:
    return st.one_of(st.floats(0, 1), st.sampled_from([0.0, 1.0, 1e-300, 1 - 1e-16, 0.5]))


def pos(lo: float = 1e-6, hi: float = 1e3) -> st.SearchStrategy:
    return st.one_of(st.floats(lo, hi), st.sampled_from([lo, hi]))


def count(lo: int, hi: int) -> st.SearchStrategy:
    return st.one_of(st.integers(lo, hi), st.sampled_from([float(lo), float(hi), lo, hi]))


SEED = st.one_of(st.integers(0, 2**64 - 1), st.sampled_from([0, 1, 2**64 - 1]))
VARIANT = st.sampled_from(["oldtahoe", "tahoe", "reno", "newreno", "NewReno", "new-reno", "cubic", "", "vegas"])


def build(name: str, **kwargs) -> tuple:
    return ("build", name, (), kwargs)


@st.composite
def markov_channel(draw):
    kind = draw(st.sampled_from(["bernoulli", "ge", "fading", "burst"]))
    if kind == "bernoulli":
        return build("Bernoulli", error_rate=draw(mixed(prob())))
    if kind == "ge":
        return build("GilbertElliott", p=draw(mixed(prob())), q=draw(mixed(prob())),
                     **draw(st.fixed_dictionaries({}, optional={"loss_good": mixed(prob()),
                                                                "loss_bad": mixed(prob())})))
    if kind == "burst":
        return build("GilbertElliott.from_burst", error_rate=draw(mixed(prob())), mean_burst=draw(mixed(pos(1, 1e4))))
    return draw(fading_channel())


@st.composite
def slot_channel(draw):
    kind = draw(st.sampled_from(["markov", "markov", "threshold", "bitlevel", "trace"]))
    if kind == "markov":
        return draw(markov_channel())
    if kind == "threshold":
        return build("ThresholdFading", fdt=draw(mixed(pos(1e-4, 1))), error_rate=draw(mixed(prob())),
                     **draw(st.fixed_dictionaries({}, optional={"fading_model": st.sampled_from(["jakes", "cisoids", "x"]),
                                                                "oscillators": mixed(count(1, 64))})))
    if kind == "bitlevel":
        return build("BitLevelFading", fdt=draw(mixed(pos(1e-3, 1))), snr_db=draw(mixed(st.floats(-10, 60))),
                     **draw(st.fixed_dictionaries({}, optional={"packet_bits": mixed(count(1, 2048)),
                                                                "modulation": st.sampled_from(["bpsk", "dpsk", "qam"]),
                                                                "samples_per_packet": mixed(count(1, 8))})))
    losses = draw(st.one_of(st.lists(st.integers(0, 1), min_size=0, max_size=50), HOSTILE))
    return build("TraceChannel", losses=losses, wrap=draw(st.one_of(st.booleans(), HOSTILE)),
                 **draw(options(interval=st.one_of(st.none(), mixed(pos(1e-4, 1.0))))))


@st.composite
def fading_channel(draw):
    """from_fading with exactly one (or zero, or two) of its margin parameters."""
    keys = draw(st.sets(st.sampled_from(["error_rate", "fading_margin_db", "fading_margin"]), min_size=0, max_size=2))
    values = {"error_rate": mixed(prob()), "fading_margin_db": mixed(st.floats(-320, 320)),
              "fading_margin": mixed(pos(1e-35, 1e35))}
    return build("GilbertElliott.from_fading", fdt=draw(mixed(pos(1e-13, 3))),
                 **{k: draw(values[k]) for k in keys})


def options(**strategies) -> st.SearchStrategy:
    return st.fixed_dictionaries({}, optional=strategies)


@st.composite
def api_case(draw):
    """One call of a public function: (target, args, kwargs)."""
    target = draw(st.sampled_from([
        "channel", "fading", "trace", "simulate", "simulate", "simulate_link", "simulate_link", "analyze", "analyze",
        "analyze_link", "analyze_link", "continuous", "fading_gain", "autocorrelation", "bit_level", "fit", "marcum",
        "markov_from_fading", "margins", "threshold", "bitlevel_channel", "transfer", "transfer", "coding", "runs"]))
    if target == "runs":
        which = draw(st.sampled_from(["runs.simulate", "runs.analyze"]))
        channel = draw(slot_channel() if which == "runs.simulate" else markov_channel())
        seeds = st.one_of(count(0, 3), st.lists(SEED, max_size=3), st.none(), HOSTILE)
        kwargs = {"channel": channel, "variant": draw(st.one_of(VARIANT, st.lists(VARIANT, max_size=3), HOSTILE)),
                  "seeds": draw(seeds), **draw(options(workers=mixed(count(0, 3)), wmax=st.one_of(
                      mixed(count(1, 32)), st.lists(count(1, 32), max_size=3)), master_seed=mixed(SEED)))}
        if which == "runs.simulate":
            kwargs["slots"] = draw(mixed(count(1, 20_000)))
        return which, (), kwargs
    if target == "channel":
        recipe = draw(markov_channel())
        return recipe[1], recipe[2], recipe[3]
    if target == "fading":
        recipe = draw(fading_channel())
        return recipe[1], recipe[2], recipe[3]
    if target == "threshold":
        return "ThresholdFading", (draw(mixed(pos(1e-3, 1))),), draw(options(
            error_rate=mixed(prob()), fading_margin_db=mixed(st.floats(-40, 40)), fading_model=st.sampled_from(
                ["jakes", "cisoids", "x", None]), oscillators=mixed(count(1, 64))))
    if target == "bitlevel_channel":
        return "BitLevelFading", (draw(mixed(pos(1e-3, 1))), draw(mixed(st.floats(-10, 60)))), draw(options(
            packet_bits=mixed(count(1, 2048)), modulation=st.sampled_from(["bpsk", "dpsk", "qam", None]),
            samples_per_packet=mixed(count(1, 8)), oscillators=mixed(count(1, 64))))
    if target == "trace":
        channel = draw(st.one_of(markov_channel(), slot_channel()))
        return "method:trace", (channel,), {"slots": draw(mixed(count(0, 20_000))), "seed": draw(mixed(SEED)),
                                            **draw(options(states=st.one_of(st.booleans(), HOSTILE)))}
    if target == "simulate":
        return "simulate", (draw(VARIANT), draw(slot_channel())), {
            "seed": draw(mixed(SEED)), "slots": draw(mixed(count(1, 200_000))),
            **draw(options(wmax=mixed(count(1, 64)), dupthresh=mixed(count(1, 8)), rto_slots=mixed(count(1, 500)),
                           initial_ssthresh=mixed(pos(1, 64)), ack_loss=mixed(prob()), ack_delay_slots=mixed(count(0, 20)),
                           batches=mixed(count(2, 100)), trace_slots=mixed(count(0, 100)),
                           transmit_energy=mixed(pos()), w_active=mixed(pos(0, 10)), w_idle=mixed(pos(0, 10)),
                           confidence=mixed(prob())))}
    if target == "simulate_link":
        return "simulate_link", (draw(VARIANT),), {
            "rate": draw(mixed(pos(1, 500))), "tau": draw(mixed(pos(0, 0.5))), "seed": draw(mixed(SEED)),
            "duration": draw(st.one_of(pos(10, 200), HOSTILE)),
            **draw(options(mean_good=mixed(pos(1e-3, 100)), mean_bad=mixed(pos(1e-3, 10)),
                           buffer=mixed(count(0, 200)), beta=mixed(pos(0, 10)), warmup=mixed(pos(0, 50)),
                           wmax=mixed(count(1, 1000)), dupthresh=mixed(count(1, 8)), rto=mixed(pos(1e-3, 10)),
                           initial_rto=mixed(pos(1e-3, 10)), min_rto=mixed(pos(1e-3, 1)), max_rto=mixed(pos(1, 100)),
                           clock_granularity=mixed(pos(0, 0.1)), max_backoff=mixed(count(1, 128)),
                           delayed_ack=mixed(pos(1e-3, 0.5)), channel_clock=st.sampled_from(["time", "packets", "x"]),
                           batches=mixed(count(2, 50)), confidence=mixed(prob()),
                           packet_bytes=mixed(count(1, 10_000)), initial_ssthresh=mixed(pos(1, 100)),
                           channel=st.one_of(slot_channel(), HOSTILE)))}
    if target == "transfer":
        channel = draw(st.one_of(st.none(), HOSTILE, st.builds(lambda m, r: build("ContinuousTwoState.on_off", mean_phase=m, drop_rate=r),
                                                               mixed(pos(1e-2, 20)), mixed(prob()))))
        return "simulate_transfer", (draw(st.sampled_from(["probing", "reno", "tahoe", "newreno", "x"])), channel), {
            "seed": draw(mixed(SEED)), "size_bytes": draw(mixed(count(1, 300_000))), "time_limit": draw(
                mixed(pos(1, 2000))),
            **draw(options(mss=mixed(count(1, 9000)), header_bytes=mixed(count(0, 60)), mtu=mixed(count(1, 70_000)),
                           rate_bps=mixed(pos(1e3, 1e8)), delay=mixed(pos(0, 1)), delayed_ack=mixed(pos(1e-3, 1)),
                           drop_acks=st.one_of(st.booleans(), HOSTILE), loss_on_air=st.booleans(),
                           rwnd_bytes=mixed(count(1, 1 << 20)), dupthresh=mixed(count(1, 8)),
                           min_rto=mixed(pos(1e-3, 2)), max_rto=mixed(pos(1, 100)), initial_rto=mixed(pos(1e-3, 3)),
                           clock_granularity=mixed(pos(0, 0.5)), probe_low=mixed(pos(0.1, 3)),
                           probe_high=mixed(pos(0.1, 3)), best_rtt=st.sampled_from(["earlier", "probes", "data",
                                                                                     "own", 1, None, True]),
                           metering=st.sampled_from(["frame", "payload", "bytes", None]),
                           device=st.sampled_from(["wavelan", "3g-dch",
                                                                                  "802.11-linear", "x", 3]),
                           record_frames=st.booleans()))}
    if target == "coding":
        which = draw(st.sampled_from(["block_error_rate", "viterbi_decode", "conv_encode", "simulate_system",
                                      "tcp_over_blocks", "wcdma.simulate"]))
        if which == "simulate_system":
            return which, (), {"seed": draw(mixed(SEED)), "users": draw(mixed(count(1, 30))), "duration": draw(
                mixed(pos(1e-4, 2))), **draw(options(doppler_hz=mixed(pos(1e-3, 100)), target_sir_db=mixed(
                    st.floats(-10, 10)), step_db=mixed(pos(0, 2)), rays=st.sampled_from(
                    ["vehicular-a-5", "pedestrian-b", "x", [], [0.0, -3.0], [float("nan")]]), fading=st.booleans()))}
        if which == "tcp_over_blocks":
            return which, (draw(st.one_of(st.lists(st.integers(0, 1), min_size=0, max_size=3000),
                                          st.lists(NUMBER, max_size=5), HOSTILE)),), draw(options(
                tti_frames=mixed(st.sampled_from([1, 2, 4, 8, 3])), ack_delay=mixed(pos(0, 1)),
                wmax=mixed(count(1, 256)), batches=mixed(count(2, 40))))
        if which == "wcdma.simulate":
            return which, (), {"seed": draw(mixed(SEED)), "users": draw(mixed(count(1, 10))), "duration": draw(
                mixed(pos(1, 10))), **draw(options(tti_frames=mixed(st.sampled_from([1, 2, 3])),
                                                   ack_delay=mixed(pos(0, 1))))}
        if which == "block_error_rate":
            return which, (draw(st.one_of(mixed(st.floats(-20, 20)), st.lists(st.floats(-20, 20), max_size=40),
                                          HOSTILE)),), {
                "seed": draw(mixed(SEED)), "blocks": draw(mixed(count(1, 20))),
                **draw(options(tti_frames=mixed(st.sampled_from([1, 2, 3, 4, 8])), confidence=mixed(prob())))}
        if which == "viterbi_decode":
            n = draw(mixed(count(1, 40)))
            size = 2 * (n + 8) if isinstance(n, int) and 0 < n < 100 else 4
            return which, (draw(st.one_of(st.lists(st.floats(-10, 10), min_size=size, max_size=size),
                                          st.lists(NUMBER, max_size=5), HOSTILE)), n), {}
        return which, (draw(st.one_of(st.lists(st.integers(0, 1), max_size=50), st.lists(NUMBER, max_size=5),
                                      HOSTILE)),), {}
    if target == "analyze":
        return "analyze", (draw(VARIANT), draw(st.one_of(markov_channel(), slot_channel()))), draw(options(
            wmax=mixed(count(1, 30)), dupthresh=mixed(count(1, 8)), rto_slots=mixed(count(1, 3000)),
            transmit_energy=mixed(pos()), w_active=mixed(pos(0, 10)), w_idle=mixed(pos(0, 10))))
    if target == "analyze_link":
        return "analyze_link", (draw(st.sampled_from(["reno", "newreno", "tahoe", "RENO"])),), {
            "rate": draw(mixed(pos(1, 300))), "tau": draw(mixed(pos(0, 0.3))),
            "mean_good": draw(mixed(pos(1e-4, 100))), "mean_bad": draw(mixed(pos(1e-4, 10))),
            **draw(options(buffer=mixed(count(0, 60)), beta=mixed(pos(0, 5)), reading=st.sampled_from(
                ["refined", "paper", "x"]), recovery=st.sampled_from(["paper", "rounds", "x"]),
                min_rto=mixed(pos(1e-3, 1)), max_rto=mixed(pos(1, 100)), clock_granularity=mixed(pos(0, 0.1)),
                max_backoff=mixed(st.sampled_from([1, 2, 4, 64, 3, 128])), packet_bytes=mixed(count(1, 10_000))))}
    if target == "continuous":
        ch = build("ContinuousTwoState", mean_good=draw(mixed(pos(1e-3, 100))), mean_bad=draw(mixed(pos(1e-3, 10))),
                   **draw(options(loss_rule=st.sampled_from(["any-instant", "vdeldrop", "x"]),
                                  loss_good=mixed(prob()), loss_bad=mixed(prob()))))
        method = draw(st.sampled_from(["states", "packet_losses", "bad_time", "loss_probability"]))
        times = st.one_of(st.lists(st.floats(0, 1e4), max_size=30).map(sorted), HOSTILE,
                          st.lists(NUMBER, max_size=5))
        if method == "states":
            return "method:states", (ch, draw(times)), {"seed": draw(mixed(SEED))}
        if method == "packet_losses":
            return "method:packet_losses", (ch, draw(times), draw(mixed(pos(0, 10)))), {"seed": draw(mixed(SEED))}
        if method == "bad_time":
            return "method:bad_time", (ch, draw(mixed(pos(1e-3, 100))), draw(mixed(count(0, 1000)))), \
                {"seed": draw(mixed(SEED))}
        return "method:loss_probability", (ch, draw(mixed(pos(0, 10)))), {}
    if target == "fading_gain":
        return "fading_gain", (draw(mixed(pos(1e-3, 1))), draw(mixed(count(0, 10_000)))), {
            "seed": draw(mixed(SEED)), **draw(options(fading_model=st.sampled_from(["jakes", "cisoids", "x"]),
                                                      oscillators=mixed(count(1, 64)),
                                                      samples_per_packet=mixed(count(1, 8))))}
    if target == "autocorrelation":
        return "fading_autocorrelation", (draw(mixed(pos(1e-3, 1))),
                                          draw(st.one_of(st.lists(st.floats(0, 100), max_size=20), HOSTILE))), {}
    if target == "bit_level":
        return "bit_level_error_rate", (draw(mixed(pos(1e-3, 1))),
                                        draw(st.one_of(st.lists(st.floats(-10, 60), min_size=1, max_size=3),
                                                       mixed(st.floats(-10, 60))))), {
            "packets": draw(mixed(count(2, 5000))), **draw(options(
                batches=mixed(count(2, 20)), packet_bits=mixed(count(1, 2048)), seed=mixed(SEED),
                confidence=mixed(prob()), modulation=st.sampled_from(["bpsk", "dpsk", "x"])))}
    if target == "fit":
        return "fit_markov", (draw(st.one_of(st.lists(st.integers(0, 1), max_size=200), HOSTILE,
                                             st.lists(NUMBER, max_size=5))),), {}
    if target == "marcum":
        return "marcum_q", (draw(mixed(pos(0, 50))), draw(mixed(pos(0, 50)))), {}
    if target == "markov_from_fading":
        return "markov_from_fading", (draw(mixed(pos(1e-35, 1e35))), draw(mixed(pos(1e-13, 3)))), {}
    return draw(st.sampled_from(["error_rate_from_fading_margin", "fading_margin_from_error_rate"])), \
        (draw(mixed(pos(1e-35, 1e35))),), {}


# -- the command line --------------------------------------------------------------------------------------------

def _option_values(name: str) -> st.SearchStrategy:
    plausible = {
        "--slots": ["1e4", "20000", "0", "-5", "1.5", "1e400", "4611686018427387904"],
        "--seed": ["1", "0", "-1", "18446744073709551616", "x"],
        "--variant": ["reno", "newreno", "tahoe", "oldtahoe", "cubic"],
    }.get(name, [])
    generic = ["0", "1", "0.1", "-1", "nan", "inf", "-inf", "1e308", "1e-308", "2", "10", "abc", "", "1e3",
               "4611686018427387904", "/nonexistent/dir/x.png", "/tmp", "reno", "time", "paper", "jakes"]
    return st.sampled_from(plausible + generic) if plausible else st.sampled_from(generic)


#: Commands that take minutes with valid input by design (a calibration), left out of both profiles: a valid
#: call of them is not a hang.
MINUTES_COMMANDS = {("wcdma", "calibrate"), ("emulate", "bulk")}   # the emulator runs in real time
#: Commands that run the program they are given, by design: never handed random words (tests/test_emulator.py
#: checks their input).
RUNS_PROGRAMS = {("emulate", "run")}
#: Commands that run long or touch the network by design, left out of the quick profile's generator.
SLOW_COMMANDS = {("reproduce",), ("channel", "fit-vs-analysis"), ("channel", "error-vs-snr"), ("channel", "table1"),
                 *MINUTES_COMMANDS}


@st.composite
def cli_case(draw, commands: list[tuple[tuple[str, ...], list[tuple[str, bool, bool]]]]):
    """argv for one command: some of its options with hostile or plausible values, sometimes junk."""
    path, params = draw(st.sampled_from(commands))
    argv = list(path)
    chosen = draw(st.lists(st.sampled_from(params), max_size=8, unique=True)) if params else []
    required = [p for p in params if p[2]]
    if draw(st.booleans()):
        chosen = list(dict.fromkeys(required + chosen))
    for name, is_flag, _required in chosen:
        if name.startswith("--"):
            argv.append(name)
            if not is_flag:
                argv.append(draw(_option_values(name)))
        else:
            argv.append(draw(_option_values(name)))
    if draw(st.integers(0, 9)) == 0:
        argv.append(draw(st.sampled_from(["--bogus", "extra", "-x", "--", "--help"])))
    return argv


def command_table() -> list[tuple[tuple[str, ...], list[tuple[str, bool, bool]]]]:
    """Every leaf command of the CLI with its parameters: (path, [(option or argument, is_flag, required)])."""
    import click

    from tcpfade.cli import cli

    out = []

    def walk(command, path):
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, path + (name,))
            return
        params = []
        for p in command.params:
            if isinstance(p, click.Option):
                params.append((p.opts[0], bool(p.is_flag), bool(p.required)))
            else:
                params.append((p.name.upper(), False, True))
        if path not in RUNS_PROGRAMS:
            out.append((path, params))

    walk(cli, ())
    return out
