"""The kernel's advertised receive window over a run, and the receiver state that sets it (issue 35: Linux's
receive-window autotuning, the part the simulator's linux profile does not have yet; docs/validation/kernel.md, "The
kernel's receive window, measured").

Kernel runs of a grid cell, traced with bpftrace at every segment each socket takes (``tcp:tcp_probe``, the state
before the segment): at the receiver (the server's socket, source port 5001) the window it advertises (``rcv_wnd``),
the ceiling that window may grow to (``rcv_ssthresh``, raised per data segment by ``tcp_grow_window()``), the clamp
over both (``window_clamp``), the per-round-trip measure of what the application read (``rcvq_space.space``, set by
``tcp_rcv_space_adjust()``, Linux's dynamic right-sizing) and the buffer (``sk_rcvbuf``); at the sender, the window it
was given (``snd_wnd``) and its cwnd. Writes ``validation/kernel_rwnd.csv``: for each run the window at fixed times
(segments of the cell's payload), its largest value and when it came near it. Needs root, the emulator and bpftrace
(Debian: ``apt-get install bpftrace``); about 25 s a run.

    sudo python3 validation/kernel_rwnd.py
    sudo python3 validation/kernel_rwnd.py "10 Mb/s, 50 ms, fading 2.5 Hz, cubic, SACK" 1 2

``--simulate`` runs the simulator's linux profile (whose receiver is Linux's autotuned window, ``rwnd_rule``) on
every run kept, the same cell and channel seed, and writes the window the sender heard at the same times, beside the
kernel's, to ``validation/kernel_rwnd_sim.csv`` (no root, a few seconds):

    python3 validation/kernel_rwnd.py --simulate
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parent / "kernel_rwnd.csv"
SIMULATED = Path(__file__).resolve().parent / "kernel_rwnd_sim.csv"
#: The receiver's port (tcpfade.emulate's server).
PORT = 5001
#: Times after the first data segment [s] at which the window is read.
TIMES = (0.0, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
PROGRAM = f"""
tracepoint:tcp:tcp_probe /args->sport == {PORT}/ {{
  $tp = (struct tcp_sock *)args->skaddr;
  $sk = (struct sock *)args->skaddr;
  printf("R %llu %llu %u %u %u %u %d %d\\n", nsecs, (uint64)args->skaddr, $tp->rcv_nxt, $tp->rcv_wnd, $tp->rcv_ssthresh,
         $tp->window_clamp, $tp->rcvq_space.space, $sk->sk_rcvbuf);
}}
tracepoint:tcp:tcp_probe /args->dport == {PORT}/ {{
  printf("S %llu %u %u %u\\n", nsecs, args->snd_wnd, args->snd_cwnd, args->snd_una);
}}
"""
COLUMNS = {"R": ["t", "sock", "rcv_nxt", "rcv_wnd", "rcv_ssthresh", "window_clamp", "space", "rcvbuf"],
           "S": ["t", "snd_wnd", "cwnd", "snd_una"]}


def parse(lines: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The receiver's and the sender's rows in time order (several CPUs print out of order), the receiver's those of
    the data connection alone (the server socket with the most rows: the emulator checks the path with a connection
    of its own first), times in seconds from its first row."""
    rows: dict[str, list[list[int]]] = {"R": [], "S": []}
    for line in lines:
        parts = line.split()
        if parts and parts[0] in rows and len(parts) == len(COLUMNS[parts[0]]) + 1:
            rows[parts[0]].append([int(x) for x in parts[1:]])
    receiver, sender = (pd.DataFrame(rows[k], columns=COLUMNS[k], dtype="float64") for k in ("R", "S"))
    if len(receiver):
        receiver = receiver[receiver.sock == receiver.sock.value_counts().idxmax()]
    receiver = receiver.sort_values("t", kind="stable").reset_index(drop=True)
    sender = sender.sort_values("t", kind="stable").reset_index(drop=True)
    t0 = receiver.t.iloc[0] if len(receiver) else 0.0
    for f in (receiver, sender):
        f["t"] = (f.t - t0) / 1e9
    return receiver, sender


def summary(receiver: pd.DataFrame, payload: int) -> dict[str, float]:
    """The advertised window [segments of ``payload`` bytes] at :data:`TIMES`, its largest value and when it first
    came within 10% of it; how fast ``rcv_ssthresh`` grew in the first 100 ms (segments of ceiling per segment
    received in order: ``tcp_grow_window()`` adds two); the largest clamp [segments] and receive buffer [bytes]."""
    out: dict[str, float] = {}
    w = receiver.rcv_wnd.to_numpy() / payload
    t = receiver.t.to_numpy()
    for at in TIMES:
        i = np.searchsorted(t, at, side="right") - 1
        out[f"window_{at:g}s"] = float(w[max(i, 0)])
    out["window_max"] = float(w.max())
    out["near_max_s"] = float(t[np.argmax(w >= 0.9 * w.max())])
    early = receiver[receiver.t <= 0.1]
    received = (early.rcv_nxt.iloc[-1] - early.rcv_nxt.iloc[0]) / payload
    out["ssthresh_growth_per_segment"] = float((early.rcv_ssthresh.iloc[-1] - early.rcv_ssthresh.iloc[0]) / payload
                                               / received) if received > 0 else float("nan")
    out["clamp_max"] = float(receiver.window_clamp.max() / payload)
    out["rcvbuf_max_bytes"] = float(receiver.rcvbuf.max())
    return out


def drs_error(receiver: pd.DataFrame) -> tuple[int, float]:
    """Linux's dynamic right-sizing checked on the run, at every measurement (a rise of ``rcvq_space.space``, the
    bytes read in a receiver round trip): ``tcp_rcvbuf_grow()`` computes rcvwin = 2c · (1 + 2 (c − s) / s) from the
    new measure c and the one before it s (plus the extent held out of order, when something is), and raises the clamp
    to it if that is more. So where the clamp rose with the measure it must equal rcvwin, and where it did not, rcvwin
    must not exceed it. The number of measurements and the largest relative error (an excess where the clamp stayed)."""
    space, clamp = receiver.space.to_numpy(), receiver.window_clamp.to_numpy()
    errors = []
    for i in range(1, len(receiver)):
        c, s0 = space[i], space[i - 1]
        if not (c > s0 > 0):
            continue
        predicted = 2 * c * (1 + 2 * (c - s0) / s0)
        if clamp[i] > clamp[i - 1]:
            errors.append(abs(clamp[i] - predicted) / predicted)
        else:
            errors.append(max(predicted - clamp[i], 0.0) / predicted)
    return len(errors), (max(errors) if errors else float("nan"))


def simulated_windows() -> pd.DataFrame:
    """For each kernel run kept: the simulator's window (the trace's ``rwnd``: what the last ACK the sender took
    advertised, in whole segments) at :data:`TIMES`, from the linux profile on the same cell and channel seed, beside
    the kernel's (the receiver's own, in segments of the payload, counted from its first data segment)."""
    import kernel_grid as kg

    import tcpfade

    kept = pd.read_csv(OUT)
    cells = {c["name"]: c for c in kg.cells(None)}
    rows = []
    for _, run in kept.iterrows():
        cell = cells[run["cell"]]
        _, _, _, _, variant, parts = cell["sender"]
        r = tcpfade.simulate_link(variant, rate=cell["rate"], tau=cell["tau"], buffer=cell["buffer"],
                                  packet_bytes=kg.PACKET, channel=cell["channel"], duration=cell["length"],
                                  warmup=kg.WARMUP, seed=int(run["seed"]), profile="linux", trace_seconds=max(TIMES),
                                  **kg.simulated_parts(parts))
        t = r.trace
        for at in TIMES:
            rows.append({"cell": run["cell"], "seed": int(run["seed"]), "time": at,
                         "kernel": float(run[f"window_{at:g}s"]),
                         "simulated": float(t[t.time <= at].rwnd.iloc[-1])})
    return pd.DataFrame(rows)


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if sys.argv[1:] == ["--simulate"]:
        frame = simulated_windows()
        frame.to_csv(SIMULATED, index=False)
        print(frame.pivot_table(index=["cell", "seed"], columns="time", values=["kernel", "simulated"]).round(0)
              .to_string())
        return 0
    from kernel_trace import cell_and_seeds, traced_emulation

    kg, cell, seeds = cell_and_seeds(sys.argv, "10 Mb/s, 10 ms, fading 2.5 Hz, cubic, SACK off", [1, 2, 3])
    payload = kg.PACKET - 52   # the segment's payload: the packet less IP, TCP and timestamp headers
    rows = []
    for seed in seeds:
        lines, result = traced_emulation(kg, cell, seed, PROGRAM)
        receiver, _sender = parse(lines)
        if receiver.empty:
            print(f"{cell['name']} seed {seed}: no receiver rows (is bpftrace attached?)", file=sys.stderr)
            return 1
        measured, error = drs_error(receiver)
        row = {"cell": cell["name"], "seed": seed, "goodput": result.goodput, **summary(receiver, payload),
               "drs_measurements": measured, "drs_formula_max_error": error}
        print(", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()), flush=True)
        rows.append(row)
    frame = pd.DataFrame(rows)
    if OUT.exists():
        old = pd.read_csv(OUT)
        frame = pd.concat([old[~old.set_index(["cell", "seed"]).index.isin(frame.set_index(["cell", "seed"]).index)],
                           frame], ignore_index=True)
    frame.to_csv(OUT, index=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
