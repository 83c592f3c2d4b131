"""The simulator's standard TCP against the kernel's, on one grid (issue 35; docs/validation/kernel.md, "The grid"):
Linux's reno and cubic with SACK off, SACK on (RACK on, Linux's default ``tcp_recovery = 1``) and, for cubic, SACK
on with RACK off, over i.i.d. losses, Gilbert-Elliott bursts and time-clocked fading, at 1.5, 10 and 100 Mb/s and
two one-way delays; against ``simulate_link(variant, profile="linux")`` with the same parts on and off.

    python3 validation/kernel_grid.py                    # the kernel's runs (root; about 100 minutes on a calm host)
    python3 validation/kernel_grid.py --simulate-only    # the simulations again, beside the kernel's kept runs
    python3 validation/kernel_grid.py --only "10 Mb/s" --seeds 4
    python3 validation/kernel_grid.py --simulate-only --ablate   # one-change ablations where the two differ

Each kernel cell is ``--seeds`` runs, each with its own channel seed; each simulated cell SIM_RUNS runs of the
same length and warm-up (like with like: a run of a few seconds at 1% loss is heavy-tailed); both as a mean with a
Student-t 95% interval over the runs. Kernel runs are written to validation/kernel_grid_runs.csv as each ends and
are not run again (an interrupted grid resumes where it stopped); the table, with the simulation beside, goes to
validation/kernel_grid.csv and is printed in Markdown.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

import tcpfade

HERE = Path(__file__).resolve().parent
RUNS = HERE / "kernel_grid_runs.csv"
TABLE = HERE / "kernel_grid.csv"

PACKET = 1500
#: (name, packets/s, run length [s]): a run long enough for a few thousand packets at the slowest rate.
RATES = [("1.5 Mb/s", 125.0, 24.0), ("10 Mb/s", 833.0, 14.0), ("100 Mb/s", 8333.0, 8.0)]
#: One-way delays [s]; τ (the round trip less the link's transmission) is twice this.
DELAYS = [0.01, 0.05]
WARMUP = 3.0
LOSS = 0.01
#: Doppler of the time-clocked fading [Hz] (a pedestrian at 2 GHz: about 1 m/s).
DOPPLER = 2.5
SIM_RUNS = 30


def channels(rate: float) -> list[tuple[str, object]]:
    """The grid's channels at a link of ``rate`` packets/s, all at a 1% packet loss rate."""
    return [
        ("i.i.d.", tcpfade.Bernoulli(LOSS)),
        ("bursts of 5", tcpfade.GilbertElliott.from_burst(LOSS, 5.0)),
        # The threshold model's fD·T at this link's packet time, so that fD is the same at every rate.
        (f"fading {DOPPLER:g} Hz", tcpfade.ThresholdFading(DOPPLER / rate, error_rate=LOSS)),
    ]


#: (name, kernel congestion control, sack, sysctls, simulated variant, simulated parts). The kernel's "reno" is
#: NewReno (RFC 6582) with SACK, RACK and PRR when SACK is on (docs/glossary.md).
SENDERS = [
    ("reno, SACK off", "reno", False, {}, "newreno", {"sack": False}),
    ("reno, SACK", "reno", True, {}, "newreno", {"sack": True}),
    ("cubic, SACK off", "cubic", False, {}, "cubic", {"sack": False}),
    ("cubic, SACK", "cubic", True, {}, "cubic", {"sack": True}),
    ("cubic, SACK, RACK off", "cubic", True, {"net.ipv4.tcp_recovery": 0}, "cubic", {"sack": True, "rack": False}),
]


def cells(only: str | None) -> list[dict]:
    out = []
    for rate_name, rate, length in RATES:
        for delay in DELAYS:
            tau = 2 * delay
            # A buffer of one bandwidth-delay product μT, at least 4 packets.
            buffer = max(4, round(rate * (tau + 1 / rate)))
            for channel_name, channel in channels(rate):
                for sender in SENDERS:
                    name = f"{rate_name}, {1000 * delay:g} ms, {channel_name}, {sender[0]}"
                    if only and only not in name:
                        continue
                    out.append(dict(name=name, rate=rate, tau=tau, buffer=buffer, length=length, channel=channel,
                                    channel_name=channel_name, sender=sender))
    return out


def interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and Student-t 95% interval over runs (the interval is NaN for a single run)."""
    m = float(values.mean())
    if values.size < 2:
        return m, math.nan, math.nan
    half = float(stats.t.ppf(0.975, values.size - 1) * values.std(ddof=1) / math.sqrt(values.size))
    return m, m - half, m + half


def simulated_parts(parts: dict) -> dict:
    """The parts this build's simulator can set (RACK is taken only once the sender has it)."""
    takes = tcpfade.simulate_link.model.names if hasattr(tcpfade.simulate_link, "model") else ()
    return {k: v for k, v in parts.items() if k in takes}


def kernel_runs(grid: list[dict], seeds: int) -> pd.DataFrame:
    done = pd.read_csv(RUNS) if RUNS.exists() else pd.DataFrame(columns=["cell", "seed"])
    have = set(zip(done["cell"], done["seed"]))
    for cell in grid:
        _, cc, sack, sysctls, _, _ = cell["sender"]
        for seed in range(1, seeds + 1):
            if (cell["name"], seed) in have:
                continue
            r = tcpfade.emulate(cc, rate=cell["rate"], tau=cell["tau"], buffer=cell["buffer"], packet_bytes=PACKET,
                                channel=cell["channel"], duration=cell["length"], warmup=WARMUP, seed=seed,
                                sack=sack, sysctls=sysctls or None)
            row = pd.DataFrame([{"cell": cell["name"], "seed": seed, "goodput": r.goodput,
                                 "retransmissions": r.retransmissions, "timeouts": r.timeouts,
                                 "loss_rate": r.channel_loss_rate}])
            # Each run is kept as soon as it ends: an interrupted grid loses at most the run under way.
            row.to_csv(RUNS, mode="a", header=not RUNS.exists(), index=False)
            print(f"{cell['name']} seed {seed}: kernel {r.goodput:.3f} ({r.timeouts} timeouts)", flush=True)
    return pd.read_csv(RUNS)


#: What the simulation is compared on: the emulator's goodput counts new payload as the link delivers it, in order or
#: not, which is the simulator's new_received_rate (its goodput waits for holes to be filled; docs/glossary.md).
MEASURE = "new_received_rate"


def simulate(cell: dict) -> tuple[np.ndarray, np.ndarray]:
    """The cell's SIM_RUNS simulations: their new_received_rate (the kernel's measure) and their goodput."""
    _, _, _, _, variant, parts = cell["sender"]
    runs = [tcpfade.simulate_link(variant, rate=cell["rate"], tau=cell["tau"], buffer=cell["buffer"],
                                  packet_bytes=PACKET, channel=cell["channel"], duration=cell["length"],
                                  warmup=WARMUP, seed=1000 + s, profile="linux", **simulated_parts(parts))
            for s in range(SIM_RUNS)]
    return np.array([getattr(r, MEASURE) for r in runs]), np.array([r.goodput for r in runs])


#: One-change ablations of the simulated sender, each a difference between the linux profile and the kernel that
#: the model leaves out or reads differently (docs/validation/kernel.md, "The grid").
ABLATIONS = [
    ("the kernel's measured loss rate (i.i.d. cells)", "kernel_loss_rate"),
    ("RFC 6298's RTO rule (RTO >= 200 ms) for Linux's (>= SRTT + 200 ms)", {"rto_rule": "rfc6298"}),
    ("ssthresh recomputed at every timeout (not held on a repeated one)", {"hold_ssthresh_on_rto": False}),
    ("the papers' receiver window: Wmax in every ACK (no autotuning)", {"rwnd_rule": "wmax"}),
    ("cwnd grown on every ACK, filled or not (no tcp_is_cwnd_limited())", {"cwnd_limited": False}),
    ("no delayed ACKs", {"delayed_ack": None}),
    ("growth per ACK (no byte counting)", {"byte_counting": False}),
    ("IW 1 instead of 10", {"initial_window": 1}),
    ("no PRR (RFC 5681's inflation / RFC 6675's cwnd = ssthresh)", {"prr": False}),
    ("RFC 5681's ssthresh (FlightSize/2)", {"ssthresh_rule": "half_flight"}),
    ("HyStart++ on", {"hystart": True}),
    ("RFC 9438's α_cubic = 1 once W_est reaches cwnd_prior (Linux keeps α)", {"cubic_alpha": "rfc9438"}),
    ("a real-valued window (ssthresh not rounded down from ⌊cwnd⌋)", {"integer_window": False}),
    ("both window rules back (the profile before they were traced)", {"cubic_alpha": "rfc9438", "integer_window": False}),
    ("no send buffer (Linux's tcp_wmem maximum, 4 MiB, lifted)", {"send_buffer": None}),
    ("PRR-SSRB on every ACK (RFC 6937) for RFC 9937's SafeACK", {"prr_bound": "ssrb"}),
    ("a partial ACK's retransmission forced, outside PRR's sndcnt (RFC 6582 read alone)", {"prr_partial_ack": "forced"}),
    ("ssthresh set again at a timeout inside a fast recovery", {"ssthresh_once_per_window": False}),
    ("no F-RTO (a spurious timeout is not undone)", {"frto": False}),
    ("a segment that fills part of a gap ACKed late (ns-2's delayed-ACK rule)", {"delayed_ack_rule": "ns2"}),
    ("no timestamps (Karn's rule: a retransmission's ACK gives no RTT sample)", {"timestamps": False}),
]

#: Cells ablated whether or not they overlap: those the traced window rules closed (docs/validation/kernel.md, "The
#: kernel's window, traced"), so that what each rule moves stays measured.
ALSO_ABLATE = {"10 Mb/s, 10 ms, i.i.d., cubic, SACK", "10 Mb/s, 10 ms, i.i.d., cubic, SACK, RACK off",
               "100 Mb/s, 50 ms, fading 2.5 Hz, cubic, SACK off",
               # the two cells F-RTO moves most
               "100 Mb/s, 10 ms, fading 2.5 Hz, cubic, SACK, RACK off", "100 Mb/s, 10 ms, fading 2.5 Hz, reno, SACK",
               # the cells the delayed-ACK rule and CUBIC's whole target closed
               "10 Mb/s, 10 ms, fading 2.5 Hz, cubic, SACK off", "1.5 Mb/s, 10 ms, i.i.d., cubic, SACK"}


def ablate(cell: dict, kernel_loss_rate: float) -> list[dict]:
    """The cell's simulation with each one-change ablation (SIM_RUNS runs each), for the cells that differ."""
    _, _, _, _, variant, parts = cell["sender"]
    out = []
    for label, change in ABLATIONS:
        channel = cell["channel"]
        if change == "kernel_loss_rate":
            if cell["channel_name"] != "i.i.d.":
                continue
            # The kernel's runs draw their own per-packet loss sequences (one per seed): their rate, not the nominal 1%.
            channel, change = tcpfade.Bernoulli(float(kernel_loss_rate)), {}
        takes = simulated_parts(change)
        if len(takes) < len(change) or ("cubic_alpha" in change and variant != "cubic"):
            continue
        runs = [tcpfade.simulate_link(variant, rate=cell["rate"], tau=cell["tau"], buffer=cell["buffer"],
                                      packet_bytes=PACKET, channel=channel, duration=cell["length"], warmup=WARMUP,
                                      seed=1000 + s, profile="linux", **{**simulated_parts(parts), **takes})
                for s in range(SIM_RUNS)]
        g = np.array([getattr(r, MEASURE) for r in runs])
        m, lo, hi = interval(g)
        out.append({"cell": cell["name"], "ablation": label, "simulated": m, "simulated_low": lo, "simulated_high": hi})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="run only the cells whose name contains this text")
    parser.add_argument("--seeds", type=int, default=4, help="kernel runs per cell (default 4)")
    parser.add_argument("--simulate-only", action="store_true", help="keep the kernel's runs, simulate again")
    parser.add_argument("--ablate", action="store_true",
                        help="for the cells whose intervals do not overlap, simulate each one-change ablation "
                             "(writes validation/kernel_grid_ablations.csv)")
    args = parser.parse_args()
    grid = cells(args.only)
    runs = pd.read_csv(RUNS) if args.simulate_only else kernel_runs(grid, args.seeds)
    rows = []
    for cell in grid:
        k = runs[runs["cell"] == cell["name"]]
        if k.empty:
            continue
        km, klo, khi = interval(k["goodput"].to_numpy())
        measured, in_order = simulate(cell)
        sm, slo, shi = interval(measured)
        rows.append({"cell": cell["name"], "kernel": km, "kernel_low": klo, "kernel_high": khi, "kernel_runs": len(k),
                     "kernel_timeouts_per_s": k["timeouts"].mean() / (cell["length"] - WARMUP),
                     "kernel_loss_rate": k["loss_rate"].mean(), "simulated": sm, "simulated_low": slo,
                     "simulated_high": shi, "simulated_goodput": float(in_order.mean()),
                     "overlap": bool(klo <= shi and slo <= khi) if klo == klo else None})
    table = pd.DataFrame(rows)
    table.to_csv(TABLE, index=False)
    print("| cell | kernel | simulated (linux profile) | intervals overlap |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['cell']} | {r['kernel']:.3f} [{r['kernel_low']:.3f}, {r['kernel_high']:.3f}] | "
              f"{r['simulated']:.3f} [{r['simulated_low']:.3f}, {r['simulated_high']:.3f}] | "
              f"{'yes' if r['overlap'] else 'no'} |")
    if rows:
        print(f"{sum(bool(r['overlap']) for r in rows)} of {len(rows)} cells overlap", file=sys.stderr)
    if args.ablate:
        differing = {r["cell"] for r in rows if r["overlap"] is False} | ALSO_ABLATE
        found = [a for cell in grid if cell["name"] in differing
                 for a in ablate(cell, runs[runs["cell"] == cell["name"]]["loss_rate"].mean())]
        pd.DataFrame(found).to_csv(HERE / "kernel_grid_ablations.csv", index=False)
        kernel = {r["cell"]: r for r in rows}
        print("\n| cell | ablation | simulated | kernel |")
        print("| --- | --- | --- | --- |")
        for a in found:
            k = kernel[a["cell"]]
            print(f"| {a['cell']} | {a['ablation']} | {a['simulated']:.3f} [{a['simulated_low']:.3f}, "
                  f"{a['simulated_high']:.3f}] | {k['kernel']:.3f} [{k['kernel_low']:.3f}, {k['kernel_high']:.3f}] |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
