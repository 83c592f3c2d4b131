"""How the kernel's receiver ACKs in one cell of the grid (docs/validation/kernel.md, "The grid"), from the emulator's
log, beside the simulation's own counts (``LinkResult.acks``, ``timer_acks``): ACKs per data packet delivered (about
1 in quick-ACK mode, about 1/2 when delaying) and how many ACKs left more than 20 ms after the data packet before
them (the delayed-ACK timer's waits).

    python3 validation/kernel_acks.py                                   # root: 3 kernel runs of the default cell
    python3 validation/kernel_acks.py "10 Mb/s, 10 ms, fading 2.5 Hz, cubic, SACK off" 3
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kernel_grid as kg  # noqa: E402

import tcpfade  # noqa: E402


def main() -> int:
    name = sys.argv[1] if len(sys.argv) > 1 else "10 Mb/s, 10 ms, fading 2.5 Hz, cubic, SACK off"
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    cell = next(c for c in kg.cells(name) if c["name"] == name)
    _, cc, sack, sysctls, variant, parts = cell["sender"]
    for seed in range(1, seeds + 1):
        r = tcpfade.emulate(cc, rate=cell["rate"], tau=cell["tau"], buffer=cell["buffer"], packet_bytes=kg.PACKET,
                            channel=cell["channel"], duration=cell["length"], warmup=kg.WARMUP, seed=seed, sack=sack,
                            sysctls=sysctls or None)
        m = r.log[r.log.time >= kg.WARMUP]
        data = m[(m.direction == "forward") & (m.fate == "delivered") & (m.bytes > 100)]
        acks = m[(m.direction == "reverse") & (m.fate == "delivered")]
        # Each ACK's wait: from the end of the last data packet delivered before it to the ACK entering the link.
        ends, sent = np.sort(data.departed.to_numpy()), np.sort(acks.time.to_numpy())
        before = np.searchsorted(ends, sent, side="right") - 1
        wait = sent[before >= 0] - ends[before[before >= 0]]
        print(f"kernel seed {seed}: goodput {r.goodput:.3f}, ACKs per data packet {len(acks) / max(len(data), 1):.3f}, "
              f"ACKs more than 20 ms after the data before them {int(np.sum(wait > 0.02))}", flush=True)
    runs = [tcpfade.simulate_link(variant, rate=cell["rate"], tau=cell["tau"], buffer=cell["buffer"],
                                  packet_bytes=kg.PACKET, channel=cell["channel"], duration=cell["length"],
                                  warmup=kg.WARMUP, seed=1000 + s, profile="linux", **kg.simulated_parts(parts))
            for s in range(kg.SIM_RUNS)]
    received = np.array([r.received_rate * r.rate * (r.duration - r.warmup) for r in runs])
    acks = np.array([r.acks for r in runs])
    print(f"simulation ({kg.SIM_RUNS} runs): ACKs per data packet {np.mean(acks / received):.3f}, ACKs sent by the "
          f"delayed-ACK timer {np.mean([r.timer_acks for r in runs]):.1f} a run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
