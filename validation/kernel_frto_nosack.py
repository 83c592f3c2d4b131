"""F-RTO without SACK, the kernel against the simulator (docs/validation/kernel.md, "F-RTO without SACK"): Linux runs
F-RTO whatever SACK says (``tcp_enter_loss()`` sets ``tp->frto`` from ``net.ipv4.tcp_frto`` alone), so the ``linux``
profile keeps it with ``sack=False``. Here the kernel's SACK-off cells of the grid where the simulation moves most with
it are run with ``tcp_frto`` = 2 (Linux's default) and 0 on the same channel seeds, beside the simulator with ``frto``
on and off: does the kernel's goodput move the way the simulator's does?

    python3 validation/kernel_frto_nosack.py            # root; about 15 minutes
    python3 validation/kernel_frto_nosack.py --report   # the table again, from the kept runs

Each kernel cell is SEEDS runs per setting, paired by seed (the same channel seed for both settings); the simulator's
is kernel_grid.py's SIM_RUNS runs per setting, paired by seed likewise. Writes validation/kernel_frto_nosack.csv (one
row per run) and prints each cell's mean difference (on − off) with its Student-t 95% interval.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

import tcpfade

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import kernel_grid as kg  # noqa: E402

OUT = HERE / "kernel_frto_nosack.csv"
#: The SACK-off cells where F-RTO moves the simulation most (validation/kernel_grid_ablations.csv, "no F-RTO").
CELLS = ["10 Mb/s, 10 ms, i.i.d., reno, SACK off", "10 Mb/s, 10 ms, i.i.d., cubic, SACK off"]
SEEDS = 8


def main() -> int:
    # Runs kept from an earlier, interrupted or shorter, invocation are not run again.
    rows = pd.read_csv(OUT).to_dict("records") if OUT.exists() else []
    have = {(r["cell"], r["side"], r["seed"], bool(r["frto"])) for r in rows}
    for cell in (c for c in kg.cells(None) if c["name"] in CELLS):
        _, cc, _, _, variant, parts = cell["sender"]
        link = dict(rate=cell["rate"], tau=cell["tau"], buffer=cell["buffer"], packet_bytes=kg.PACKET,
                    channel=cell["channel"], duration=cell["length"], warmup=kg.WARMUP)
        for seed in range(1, SEEDS + 1):
            for frto in (2, 0):
                if (cell["name"], "kernel", seed, frto > 0) in have:
                    continue
                r = tcpfade.emulate(cc, seed=seed, sack=False, sysctls={"net.ipv4.tcp_frto": frto}, **link)
                rows.append({"cell": cell["name"], "side": "kernel", "seed": seed, "frto": frto > 0,
                             "goodput": r.goodput, "timeouts": r.timeouts, "retransmissions": r.retransmissions})
                print(f"{cell['name']} seed {seed} tcp_frto={frto}: {r.goodput:.3f} ({r.timeouts} timeouts)",
                      flush=True)
                pd.DataFrame(rows).to_csv(OUT, index=False)
        for seed in range(kg.SIM_RUNS):
            for frto in (True, False):
                if (cell["name"], "simulator", 1000 + seed, frto) in have:
                    continue
                r = tcpfade.simulate_link(variant, seed=1000 + seed, profile="linux", frto=frto,
                                          **{**link, **kg.simulated_parts(parts)})
                rows.append({"cell": cell["name"], "side": "simulator", "seed": 1000 + seed, "frto": frto,
                             "goodput": getattr(r, kg.MEASURE), "timeouts": r.timeouts_per_s * (cell["length"] -
                                                                                              kg.WARMUP),
                             "retransmissions": None})
        pd.DataFrame(rows).to_csv(OUT, index=False)
    report(pd.DataFrame(rows))
    return 0


def report(frame: pd.DataFrame) -> None:
    """Each cell's and side's mean goodput with F-RTO on and off, and the paired difference (on − off)."""
    print("| cell | side | F-RTO on | F-RTO off | difference (on − off) |")
    print("| --- | --- | --- | --- | --- |")
    for (cell, side), g in frame.groupby(["cell", "side"], sort=False):
        on = g[g["frto"]].set_index("seed")["goodput"]
        off = g[~g["frto"]].set_index("seed")["goodput"]
        d = (on - off).dropna().to_numpy()
        m, lo, hi = kg.interval(d)
        print(f"| {cell} | {side} | {on.mean():.3f} | {off.mean():.3f} | {m:+.3f} [{lo:+.3f}, {hi:+.3f}] |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--report":
        report(pd.read_csv(OUT))
    else:
        sys.exit(main())
