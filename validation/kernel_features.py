"""Where the kernel and the simulator part: the kernel's loss-recovery features turned off one by one (per
namespace, through emulate's ``sysctls``) on the rows of validation/emulator_vs_simulator.py where Linux Reno
does better than the simulated NewReno with Linux's timers (docs/validation/kernel.md, "The simulator against the
kernel").

    python3 validation/kernel_features.py       # about 23 minutes of real time (root needed)

Prints, per row and setting, the kernel's goodput (mean and 95% Student-t interval over the seeds), RTO expirations
and retransmissions per second, beside the simulation's; writes validation/kernel_features.csv.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

import tcpfade

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from emulator_vs_simulator import LINUX  # noqa: E402

ROWS = [
    ("1.5 Mb/s, i.i.d. 3%", dict(rate=125.0, tau=0.04, buffer=6, packet_bytes=1500), tcpfade.Bernoulli(0.03)),
    ("Table III fast (0.08 s / 0.02 s)", dict(rate=100.0, tau=0.01, buffer=16, packet_bytes=1000),
     tcpfade.ContinuousTwoState(0.08, 0.02)),
    ("10 Mb/s, bursts of 5, 1%", dict(rate=833.0, tau=0.02, buffer=18, packet_bytes=1500),
     tcpfade.GilbertElliott.from_burst(0.01, 5.0)),
]
#: F-RTO (RFC 5682: a timeout found spurious is undone), the tail loss probe (tcp_early_retrans 3: TLP), RACK.
SETTINGS = [
    ("Linux defaults", {}),
    ("F-RTO off", {"net.ipv4.tcp_frto": 0}),
    ("TLP off", {"net.ipv4.tcp_early_retrans": 0}),
    ("F-RTO, TLP and RACK off", {"net.ipv4.tcp_frto": 0, "net.ipv4.tcp_early_retrans": 0,
                                 "net.ipv4.tcp_recovery": 0}),
    # Without timestamps the kernel cannot time a retransmitted segment (Karn's rule), as the simulator does not.
    ("timestamps off", {"net.ipv4.tcp_timestamps": 0}),
]
SEEDS, LENGTH = 2, 40.0


def main() -> int:
    out = []
    for name, link, channel in ROWS:
        sim = tcpfade.simulate_link("newreno", channel=channel, duration=6000.0, seed=1, **link, **LINUX)
        print(f"{name}: simulated NewReno (Linux timers) goodput {sim.goodput:.3f}, {sim.timeouts_per_s:.2f} "
              f"timeouts/s, {sim.fast_retransmits_per_s:.2f} fast retransmits/s", flush=True)
        for label, sysctls in SETTINGS:
            runs = [tcpfade.emulate("reno", channel=channel, duration=LENGTH, warmup=5.0, seed=s, sysctls=sysctls,
                                    **link) for s in range(1, SEEDS + 1)]
            g = np.array([r.goodput for r in runs])
            half = stats.t.ppf(0.975, g.size - 1) * g.std(ddof=1) / math.sqrt(g.size)
            measured = LENGTH - 5.0
            row = {"row": name, "setting": label, "goodput": g.mean(), "goodput_low": g.mean() - half,
                   "goodput_high": g.mean() + half,
                   "timeouts_per_s": float(np.mean([(r.timeouts or 0) / measured for r in runs])),
                   "retransmissions_per_s": float(np.mean([r.retransmissions / measured for r in runs])),
                   "simulated_goodput": sim.goodput, "simulated_timeouts_per_s": sim.timeouts_per_s}
            out.append(row)
            print(f"  {label:<26} goodput {row['goodput']:.3f} [{row['goodput_low']:.3f}, {row['goodput_high']:.3f}],"
                  f" {row['timeouts_per_s']:.2f} timeouts/s, {row['retransmissions_per_s']:.2f} retransmissions/s",
                  flush=True)
    pd.DataFrame(out).to_csv(HERE / "kernel_features.csv", index=False)
    burst_cost()
    return 0


def burst_cost() -> None:
    """What one burst of 16 consecutive losses costs at 10 Mb/s, in seconds of the link: the kernel (goodput of a
    12-s run with the burst 6 s in, against one without; two seeds) and the simulator (the same trace)."""
    link = dict(rate=833.0, tau=0.02, buffer=18, packet_bytes=1500)
    delivered = {}
    for n in (0, 16):
        trace = np.zeros(200_000, np.uint8)
        trace[5000:5000 + n] = 1
        channel = tcpfade.TraceChannel(trace, wrap=True)
        kernel = np.mean([tcpfade.emulate("reno", channel=channel, duration=12, warmup=1, seed=s, **link).goodput
                          for s in (1, 2)]) * link["rate"] * 11
        sim = tcpfade.simulate_link("newreno", channel=channel, duration=20, warmup=0, seed=1, **link, **LINUX)
        delivered[n] = (kernel, sim.delivered)
    kernel_cost = (delivered[0][0] - delivered[16][0]) / link["rate"]
    sim_cost = (delivered[0][1] - delivered[16][1]) / link["rate"]
    print(f"one burst of 16 at 10 Mb/s costs the kernel {kernel_cost:.3f} s and the simulated NewReno {sim_cost:.3f} s "
          "of the link", flush=True)


if __name__ == "__main__":
    sys.exit(main())
