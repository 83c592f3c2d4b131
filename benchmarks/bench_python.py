"""Benchmark of the channel layer and the slotted simulator through the Python API.

Prints figures and ratios: slots per second of trace generation (which writes one byte per slot, so
it measures the stepping path plus the copy to numpy), fading samples per second, and the time of
one fading-to-Markov mapping (zorzi-rao eqs. 2-5). Run: python benchmarks/bench_python.py
"""

from __future__ import annotations

import platform
import time

import tcpfade
from tcpfade.channels.jakes import fading_gain


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}, "
          f"tcpfade {tcpfade.__version__}")
    n = 20_000_000
    for name, ch in [("bernoulli 0.01", tcpfade.Bernoulli(0.01)),
                     ("gilbert-elliott P_E=0.1 fdT=0.01", tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.01)),
                     ("gilbert-elliott P_E=0.1 fdT=0.64", tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.64))]:
        t = best_of(lambda: ch.trace(n, seed=1))
        print(f"trace  {name:<34} {n / t / 1e6:8.1f} M slots/s")
    m = 2_000_000
    for model, osc in [("jakes", 8), ("cisoids", 64)]:
        t = best_of(lambda: fading_gain(0.01, m, seed=1, fading_model=model, oscillators=osc))
        print(f"fading {model + ' ' + str(osc):<34} {m / t / 1e6:8.1f} M samples/s")
    for name, ch in [("threshold jakes", tcpfade.ThresholdFading(0.01, error_rate=0.01)),
                     ("bit-level jakes fdT=0.256 (52 samples/pkt)", tcpfade.BitLevelFading(0.256, 20.0))]:
        k = 1_000_000
        t = best_of(lambda: ch.trace(k, seed=1))
        print(f"trace  {name:<34} {k / t / 1e6:8.2f} M slots/s")
    for name, ch in [("slotted newreno, P_E=0.001 fdT=0.01", tcpfade.GilbertElliott.from_fading(error_rate=0.001, fdt=0.01)),
                     ("slotted newreno, P_E=0.1 fdT=0.64", tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.64))]:
        slots = 10**9 if "0.001" in name else 10**8
        t = best_of(lambda: tcpfade.simulate("newreno", ch, slots=slots, seed=1), repeat=2)
        print(f"{name:<41} {slots / t / 1e6:8.1f} M slots/s ({slots:.0e} slots in {t:.2f} s)")
    calls = 200
    t = best_of(lambda: [tcpfade.GilbertElliott.from_fading(error_rate=0.01, fdt=0.016) for _ in range(calls)])
    print(f"from_fading (eqs. 2-5)                    {t / calls * 1e3:8.3f} ms per call")


if __name__ == "__main__":
    main()
