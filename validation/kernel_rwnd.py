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
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parent / "kernel_rwnd.csv"
#: The receiver's port (tcpfade.emulate's server).
PORT = 5001
#: Times after the first data segment [s] at which the window is read.
TIMES = (0.0, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
PROGRAM = f"""
tracepoint:tcp:tcp_probe /args->sport == {PORT}/ {{
  $tp = (struct tcp_sock *)args->skaddr;
  $sk = (struct sock *)args->skaddr;
  printf("R %llu %u %u %u %u %d %d\\n", nsecs, $tp->rcv_nxt, $tp->rcv_wnd, $tp->rcv_ssthresh, $tp->window_clamp,
         $tp->rcvq_space.space, $sk->sk_rcvbuf);
}}
tracepoint:tcp:tcp_probe /args->dport == {PORT}/ {{
  printf("S %llu %u %u %u\\n", nsecs, args->snd_wnd, args->snd_cwnd, args->snd_una);
}}
"""
COLUMNS = {"R": ["t", "rcv_nxt", "rcv_wnd", "rcv_ssthresh", "window_clamp", "space", "rcvbuf"],
           "S": ["t", "snd_wnd", "cwnd", "snd_una"]}


def parse(lines: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The receiver's and the sender's rows, times in seconds from the receiver's first row."""
    rows: dict[str, list[list[int]]] = {"R": [], "S": []}
    for line in lines:
        parts = line.split()
        if parts and parts[0] in rows and len(parts) == len(COLUMNS[parts[0]]) + 1:
            rows[parts[0]].append([int(x) for x in parts[1:]])
    frames = [pd.DataFrame(rows[k], columns=COLUMNS[k], dtype="float64") for k in ("R", "S")]
    t0 = frames[0].t.min() if len(frames[0]) else 0.0
    for f in frames:
        f["t"] = (f.t - t0) / 1e9
    return frames[0], frames[1]


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
    """Linux's dynamic right-sizing checked on the run: at each measurement that raised the clamp, the clamp against
    ``tcp_rcvbuf_grow()``'s rcvwin = 2c · (1 + 2 (c − s) / s) from the new measure c and the one before it s (bytes
    read in a receiver round trip), which holds while nothing is held out of order (then the held extent is added).
    The number of such measurements (the first, from the initial 10 segments, included) and the largest relative
    error."""
    events = receiver[(receiver.space.diff() > 0) & (receiver.window_clamp.diff() > 0)]
    errors = []
    for i, row in events.iterrows():
        before = receiver.loc[:i - 1].space.iloc[-1] if i > receiver.index[0] else np.nan
        if not before > 0:
            continue
        c, s0 = row.space, before
        predicted = 2 * c * (1 + 2 * (c - s0) / s0)
        errors.append(abs(row.window_clamp - predicted) / predicted)
    return len(errors), (max(errors) if errors else float("nan"))


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
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
        receiver = receiver[receiver.t >= receiver.t[receiver.space.diff() < 0].max()] if (receiver.space.diff() < 0).any() \
            else receiver   # the data connection's rows: the emulator's check of the path comes first
        receiver = receiver.assign(t=receiver.t - receiver.t.iloc[0]).reset_index(drop=True)
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
