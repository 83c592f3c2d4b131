"""The event-driven simulator against ns-3 on the same bulk transfer, timed in alternation on one host (BRIEF §6: at
least 100 times ns-3's delivered packets per second). The host this was written on runs in a fast and a slow phase
(docs/performance.md), each for seconds at a time and the slow one 1.7 times slower for every program; a single
figure per program says more about the phase than the program, so each round runs ns-3 and then tcpfade back to back
and the ratio is taken per round.

ns-3's side is ``benchmarks/ns3/bulk.cc`` (a 1.5 Mb/s link of 1024-byte packets, 1 ms one way, a DropTail buffer of
20, i.i.d. losses, ns-3's default socket buffers), built as a scratch program of an optimized ns-3 (Debian's packaged
ns-3 is built with its logging compiled in, and is no fair measure). With the release's source in ``ns-3.46/`` (the
modules this needs: core, network, internet, point-to-point, applications, traffic-control, stats, bridge):

    cp benchmarks/ns3/bulk.cc ns-3.46/scratch/
    cd ns-3.46 && ./ns3 configure -d optimized --enable-modules="point-to-point;internet;applications;traffic-control" \
        --disable-examples --disable-tests --disable-python && ./ns3 build scratch/bulk

(ns-3.46's ``src/core/model/test.cc`` needs ``#include <algorithm>`` added to build with Debian 12's GCC 12.) tcpfade's is the link benchmark's run
(``benches/link.rs``; ``examples/link_instructions.rs``): the same link with τ = 2 ms and the near-i.i.d. channel, whose
losses are 1.3% of packets; ns-3's error model is set to that rate.

    python3 benchmarks/ns3_ratio.py /path/to/ns3/build/scratch/ns3.46-bulk-optimized [ROUNDS]

Prints each round's packets per CPU second of both and their ratio, then the medians, for two pairs: NewReno without
SACK on both sides, and CUBIC with SACK (ns-3: PRR, its default recovery; tcpfade: PRR and RACK-TLP too, the issue's
case).
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TCPFADE = ROOT / "target" / "release" / "examples" / "link_instructions"
#: Simulated seconds per run: tcpfade's about 0.2-0.4 s of CPU, ns-3's about as long.
TCPFADE_SECONDS, NS3_SECONDS = 20_000, 300
LOSS = 0.013
PAIRS = [("newreno", ["--variant=newreno", "--sack=0"]), ("cubic+sack+prr+rack", ["--variant=cubic", "--sack=1"])]


def cpu_of(command: list[str]) -> tuple[float, str]:
    """The CPU seconds a child process took, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def delivered(out: str) -> int:
    """The packets delivered, from either program's line ("... delivered N ...")."""
    words = out.split()
    return int(words[words.index("delivered") + 1])


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip().split("\n\n")[-2], file=sys.stderr)
        return 2
    ns3 = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "tcpfade-core", "--features", "tools", "--example",
                    "link_instructions"], cwd=ROOT, check=True)
    for case, ns3_args in PAIRS:
        ratios, ours, theirs = [], [], []
        for i in range(rounds):
            t_ns3, out_ns3 = cpu_of([ns3, *ns3_args, f"--seconds={NS3_SECONDS}", f"--loss={LOSS}", f"--seed={i + 1}"])
            t_us, out_us = cpu_of([str(TCPFADE), case, str(TCPFADE_SECONDS)])
            r_ns3, r_us = delivered(out_ns3) / t_ns3, delivered(out_us) / t_us
            ratios.append(r_us / r_ns3)
            ours.append(r_us)
            theirs.append(r_ns3)
            print(f"{case} round {i + 1}: ns-3 {r_ns3 / 1e3:.1f} k packets/s, tcpfade {r_us / 1e6:.2f} M packets/s, "
                  f"ratio {r_us / r_ns3:.0f}", flush=True)
        print(f"{case}: median ns-3 {statistics.median(theirs) / 1e3:.1f} k/s, tcpfade "
              f"{statistics.median(ours) / 1e6:.2f} M/s; ratio median {statistics.median(ratios):.0f} "
              f"(range {min(ratios):.0f}-{max(ratios):.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
