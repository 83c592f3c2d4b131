"""The kernel's congestion window, traced, against the two readings the simulator offers for it (issue 35;
docs/validation/kernel.md, "The kernel's window, traced"): kernel runs of one grid cell with the kernel's own
tracepoints on (``tcp:tcp_probe`` at every ACK the sender takes: snd_cwnd, ssthresh, srtt; ``tcp:tcp_cong_state_set``
at every change of its congestion state), and from them

- each reduction's ssthresh beside the cwnd before it: RFC 9438's β_cubic · cwnd against Linux's integer
  ``max(cwnd · 717 >> 10, 2)`` (the simulator's ``integer_window``);
- the growth per round trip in congestion avoidance, below and at or above cwnd_prior (the cwnd before the last
  reduction): RFC 9438 §4.3 switches α_cubic = 0.53 to 1 there, ``tcp_cubic.c`` does not (``cubic_alpha``).

Writes ``validation/kernel_cwnd_trace.csv`` (one row per reduction: run, cwnd before, the kernel's ssthresh) and
``validation/kernel_cwnd_growth.csv`` (one row per run: the growth below and at or above cwnd_prior, and the round
trips each was measured over); ``crates/tcpfade-core/src/tcp/cubic.rs`` and ``tests/kernel_growth.rs`` read them. Needs root (the emulator, tracefs); a few minutes for the default three runs.

    sudo python3 validation/kernel_cwnd_trace.py
    sudo python3 validation/kernel_cwnd_trace.py "10 Mb/s, 10 ms, i.i.d., cubic, SACK" 3
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kernel_grid as kg  # noqa: E402

import tcpfade  # noqa: E402

TRACING = Path("/sys/kernel/tracing")
EVENTS = ("tcp/tcp_probe", "tcp/tcp_cong_state_set")
OUT = Path(__file__).resolve().parent / "kernel_cwnd_trace.csv"
GROWTH = Path(__file__).resolve().parent / "kernel_cwnd_growth.csv"
#: TCP_CA_Recovery in the kernel's congestion states (include/net/tcp.h: Open 0, Disorder 1, CWR 2, Recovery 3, Loss 4).
RECOVERY = 3
PROBE = re.compile(r" (\d+\.\d+): tcp_probe: .*?dest=(\S+) .*?snd_cwnd=(\d+) ssthresh=(\d+) .*?srtt=(\d+)")
STATE = re.compile(r" (\d+\.\d+): tcp_cong_state_set: .*?daddrv6=(\S+) cong_state=(\d)")


def traced(run: callable) -> str:
    """The trace buffer's text for what `run` does, with the two events on (and off again, whatever happens)."""
    (TRACING / "trace").write_text("")
    (TRACING / "buffer_size_kb").write_text("16384")
    try:
        for event in EVENTS:
            (TRACING / "events" / event / "enable").write_text("1")
        run()
    finally:
        for event in EVENTS:
            (TRACING / "events" / event / "enable").write_text("0")
    return (TRACING / "trace").read_text()


def parse(text: str, server_port: str = ":5001") -> tuple[list[tuple[float, int, int, float]], list[tuple[float, int]]]:
    """The sender's probes (time, cwnd, ssthresh, srtt [s]) and its congestion states (time, state), from the trace.
    The sender's probes are those of ACKs arriving from the server (the receiver) port; its state changes those
    toward the receiver's address (the last octet of the emulated link's receiver, .2)."""
    probes, states = [], []
    for line in text.splitlines():
        if m := PROBE.search(line):
            if m.group(2).endswith(server_port):
                probes.append((float(m.group(1)), int(m.group(3)), int(m.group(4)), int(m.group(5)) / 1e6))
        elif (m := STATE.search(line)) and m.group(2).endswith(".2"):
            states.append((float(m.group(1)), int(m.group(3))))
    return probes, states


def reductions(probes, states) -> list[tuple[int, int]]:
    """(cwnd before, ssthresh set) for each entry into recovery: the last cwnd seen outside recovery, and the
    ssthresh of the first probe inside it."""
    events = sorted([(t, "p", p) for t, *p in probes] + [(t, "s", s) for t, s in states], key=lambda e: e[0])
    state, last_cwnd, pending, out = 0, None, None, []
    for _, kind, value in events:
        if kind == "p":
            cwnd, ssthresh, _ = value
            if pending is not None:
                out.append((pending, ssthresh))
                pending = None
            if state in (0, 1):
                last_cwnd = cwnd
        else:
            if value == RECOVERY and state != RECOVERY and last_cwnd is not None:
                pending = last_cwnd
            state = value
    return out


def growth(probes, states, since: float) -> dict[str, float]:
    """Congestion avoidance's growth in whole segments per smoothed round trip, with cwnd below cwnd_prior and at
    or above it, counted between consecutive probes in the open state after `since` (the warm-up)."""
    events = sorted([(t, "p", p) for t, *p in probes] + [(t, "s", s) for t, s in states], key=lambda e: e[0])
    state, prior, last_cwnd, previous = 0, None, None, None
    sums = {"below": [0.0, 0.0], "above": [0.0, 0.0]}
    for t, kind, value in events:
        if kind == "s":
            if value == RECOVERY and state != RECOVERY and last_cwnd is not None:
                prior = last_cwnd
            state, previous = value, None
            continue
        cwnd, _, srtt = value
        if state in (0, 1):
            last_cwnd = cwnd
        if state != 0 or prior is None or t < since or srtt <= 0:
            continue
        if previous is not None:
            side = sums["below" if previous[1] < prior else "above"]
            side[0] += cwnd - previous[1]
            side[1] += (t - previous[0]) / srtt
        previous = (t, cwnd)
    return {f"growth_{k}": v[0] / v[1] if v[1] else float("nan") for k, v in sums.items()} | {
        f"rounds_{k}": v[1] for k, v in sums.items()}


def main() -> int:
    name = sys.argv[1] if len(sys.argv) > 1 else "10 Mb/s, 10 ms, i.i.d., cubic, SACK"
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    if not (TRACING / "events" / "tcp").is_dir():
        print(f"{TRACING} holds no tcp events: mount tracefs first (mount -t tracefs nodev {TRACING}), as root",
              file=sys.stderr)
        return 2
    cell = next(c for c in kg.cells(name) if c["name"] == name)
    _, cc, sack, sysctls, _, _ = cell["sender"]
    rows, growths = [], []
    for seed in range(1, seeds + 1):
        box = {}

        def run(seed=seed, box=box):
            box["r"] = tcpfade.emulate(cc, rate=cell["rate"], tau=cell["tau"], buffer=cell["buffer"],
                                       packet_bytes=kg.PACKET, channel=cell["channel"], duration=cell["length"],
                                       warmup=kg.WARMUP, seed=seed, sack=sack, sysctls=sysctls or None)

        probes, states = parse(traced(run))
        if not probes:
            print(f"seed {seed}: no probe of the sender in the trace", file=sys.stderr)
            return 1
        start = probes[0][0]
        g = growth(probes, states, start + kg.WARMUP)
        found = reductions(probes, states)
        rows += [{"cell": name, "seed": seed, "cwnd": c, "ssthresh": s} for c, s in found]
        growths.append({"cell": name, "seed": seed, **g})
        linux = sum(s == max(c * 717 >> 10, 2) for c, s in found)
        rfc = sum(abs(s - 0.7 * c) < 0.5 for c, s in found)
        print(f"seed {seed}: goodput {box['r'].goodput:.3f}; {len(found)} reductions, ssthresh = max(cwnd·717 >> 10, 2) "
              f"in {linux}, = 0.7 cwnd rounded in {rfc}; growth per round trip {g['growth_below']:.3f} below "
              f"cwnd_prior ({g['rounds_below']:.0f} rounds), {g['growth_above']:.3f} at or above "
              f"({g['rounds_above']:.0f} rounds)", flush=True)
    pd.DataFrame(rows).to_csv(OUT, index=False)
    pd.DataFrame(growths).to_csv(GROWTH, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
