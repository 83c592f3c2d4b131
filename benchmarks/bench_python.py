"""Benchmark of the channel layer and the slotted simulator through the Python API.

Prints figures and ratios: slots per second of trace generation (which writes one byte per slot, so
it measures the stepping path plus the copy to numpy), fading samples per second, and the time of
one fading-to-Markov mapping (zorzi-rao eqs. 2-5), and the renewal-reward analysis: milliseconds per
point (target BRIEF §6: 5 ms) and seconds per figure (target: 1 s), with the simulation time of the same
point for the ratio; and sweeps: points per second against the number of workers (local processes and a
Dask LocalCluster); and the link (abouzeid): analyze_link per point against simulate_link for the same point,
the paper's own default run length (the paper reports ~100x in the analysis' favour). Run:
python benchmarks/bench_python.py [--only analysis | sweep | link | transfer | wcdma | startup | emulator | scale]

``--only scale [--baseline REV]``: the analyses against their size, the same points timed on the code as it is and,
with ``--baseline``, on the package as it was at the git revision REV (built once into benchmarks/.baseline/REV
and run in a subprocess), side by side: milliseconds per point of ``analyze`` against Wmax (6 to 128) and of
``analyze_link`` against w_p (10 to 10^4; its refined and paper models). A point the code refuses prints
"refused", one that takes more than a minute is not run again at a larger size ("> 60 s").

The emulator's figures (root needed): for each configured rate, a kernel CUBIC bulk transfer with no loss and
a buffer of twice the pipe, the rate the receiving application saw against the link's payload rate (the
emulator keeps the rate when the ratio is 1), how late the link wrote its packets, and the link threads'
CPU time per packet.
"""

from __future__ import annotations

import platform
import sys
import time

import tcpfade
from tcpfade.analysis import ANALYZED_VARIANTS
from tcpfade.channels.jakes import fading_gain


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_analysis() -> None:
    """Analysis per point and per figure, and the ratio to simulating the same point."""
    for variant, wmax in [("tahoe", 6), ("tahoe", 24), ("oldtahoe", 24), ("reno", 6), ("newreno", 6), ("reno", 24),
                          ("newreno", 24)]:
        ch = tcpfade.GilbertElliott.from_fading(error_rate=0.03, fdt=0.016)
        tcpfade.analyze(variant, ch, wmax=wmax)  # warm the per-Wmax caches, as a sweep would
        calls = 300   # batches of a few tenths of a second: the best of three is steady to a few per cent
        t = best_of(lambda: [tcpfade.analyze(variant, ch, wmax=wmax) for _ in range(calls)]) / calls
        sim = best_of(lambda: tcpfade.simulate(variant, ch, wmax=wmax, slots=10**7, seed=1), repeat=1)
        print(f"analyze {variant:<8} Wmax={wmax:<3} P_E=0.03 fdT=0.016    {t * 1e3:8.2f} ms per point "
              f"(simulating 1e7 slots: {sim:.2f} s, {sim / t:,.0f}x)")
    # A figure like zorzi-rao Figs. 5-6 (Tahoe), 9 (Reno) or 11 (NewReno): 2 Wmax x 3 fD·T x 10 error rates,
    # channel mapping included.
    pes = [0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3]
    for variant in ANALYZED_VARIANTS:
        def figure() -> None:
            for wmax in (6, 24):
                for fdt in (0.001, 0.016, 0.256):
                    for pe in pes:
                        ch = tcpfade.GilbertElliott.from_fading(error_rate=pe, fdt=fdt)
                        tcpfade.analyze(variant, ch, wmax=wmax)

        t = best_of(figure)
        print(f"analyze figure ({variant}, 2 Wmax x 3 fdT x 10 P_E = 60 points)  {t:8.2f} s")

    # The validation grid of issue 4: 4 variants x 3 fD·T x 5 P_E x Wmax {6, 24} x K {1, 3} x T0 {50, 100}.
    def grid() -> int:
        points = 0
        for fdt in (0.001, 0.016, 0.256):
            for pe in (0.001, 0.01, 0.03, 0.1, 0.3):
                ch = tcpfade.GilbertElliott.from_fading(error_rate=pe, fdt=fdt)
                for variant in ANALYZED_VARIANTS:
                    for wmax in (6, 24):
                        for k in (1, 3):
                            for rto in (50, 100):
                                tcpfade.analyze(variant, ch, wmax=wmax, dupthresh=k, rto_slots=rto)
                                points += 1
        return points

    start = time.perf_counter()
    points = grid()
    t = time.perf_counter() - start
    print(f"analyze the validation grid ({points} points, all variants)           {t:8.2f} s "
          f"({t / points * 1e3:.2f} ms per point)")


def bench_link() -> None:
    """abouzeid: the analysis of a point against the simulation of the same point as §V runs it (five seeds
    of the default run length 1000·max(t_p, E[X] + E[Y]), the paper's Fig. 6 protocol)."""
    points = [("Table III fast, w_p 18", dict(rate=100, tau=0.01, beta=8, mean_good=0.08, mean_bad=0.02)),
              ("Table III moderate, w_p 18", dict(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2)),
              ("Table III slow E[X]=8, w_p 18", dict(rate=100, tau=0.01, beta=8, mean_good=8.0, mean_bad=2.0)),
              ("Fig. 5 f=10% E[Y]=0.1, w_p 55", dict(rate=100, tau=0.1, buffer=44, mean_good=0.9, mean_bad=0.1)),
              ("Fig. 8 link E[X]=0.08, w_p 60", dict(rate=250, tau=0.1, beta=1.3, mean_good=0.08, mean_bad=0.001)),
              ("mu=1000 tau=0.1 beta=1, w_p 202", dict(rate=1000, tau=0.1, beta=1.0, mean_good=1.0, mean_bad=0.01))]
    for label, kw in points:
        calls = 20
        t = best_of(lambda: [tcpfade.analyze_link(**kw) for _ in range(calls)]) / calls
        start = time.perf_counter()
        runs = [tcpfade.simulate_link("reno", seed=s, **kw) for s in range(1, 6)]
        sim = time.perf_counter() - start
        sent = sum(r.sent for r in runs)
        print(f"link {label:<32} analysis {t * 1e3:7.2f} ms, simulation 5 x {runs[0].duration:.0f} s: {sim:6.3f} s "
              f"({sent / sim / 1e6:4.1f} M packets/s): analysis {sim / t:,.1f}x faster")


def bench_emulator() -> None:
    """The emulator: the highest rate it keeps within 1%, and its CPU cost per packet."""
    for mbps in (1.5, 10, 100, 200, 400, 500, 600, 700, 1000):
        rate = mbps * 1e6 / (1500 * 8)
        r = tcpfade.emulate("cubic", rate=rate, tau=0.01, beta=2.0, channel=None, duration=6, warmup=2, seed=1)
        kept = r.goodput     # full segments per packet time: 1 when every packet time of the link carried one
        packets = len(r.log)
        print(f"emulator {mbps:7.1f} Mb/s: rate kept {kept:6.4f} ({'within' if kept > 0.99 else 'NOT within'} 1%), "
              f"write lateness mean {r.lateness_mean * 1e6:6.1f} us, max {r.lateness_max * 1e3:6.2f} ms, "
              f"link CPU {r.link_cpu_seconds / packets * 1e6:5.2f} us/packet ({packets} packets both ways)")


def bench_transfer() -> None:
    """tsaoussidis-badr Table 1's workload: 5,242,880-byte transfers per second, and the whole table (2 phase
    lengths × 7 drop rates × 4 variants and 4 Probing ablations × 100 replications) as `tcpfade reproduce` computes it."""
    from tcpfade.reproduce import FIGURES
    from tcpfade.reproduce.registry import Settings

    for label, channel, variant in [("no loss, reno", None, "reno"),
                                    ("10-s phases 33%, reno", tcpfade.ContinuousTwoState.on_off(10.0, 1 / 3), "reno"),
                                    ("10-s phases 33%, probing", tcpfade.ContinuousTwoState.on_off(10.0, 1 / 3),
                                     "probing")]:
        n = 50
        t = best_of(lambda: [tcpfade.simulate_transfer(variant, channel, seed=s) for s in range(n)])
        print(f"transfer {label:<30} {n / t:8.0f} transfers/s")
    compute = FIGURES["tsaoussidis-table1"].compute.__wrapped__ if hasattr(
        FIGURES["tsaoussidis-table1"].compute, "__wrapped__") else FIGURES["tsaoussidis-table1"].compute
    start = time.perf_counter()
    data = compute(Settings(quick=True, seed=1), lambda _m: None)
    t = time.perf_counter() - start
    transfers = int(data.replications.sum())
    print(f"tsaoussidis Table 1 ({transfers} transfers)           {t:8.2f} s ({transfers / t:,.0f} transfers/s)")


def bench_startup() -> None:
    """Start-up: `import tcpfade` and `tcpfade --help` in a fresh interpreter, and a small command end to end
    (median of 5; the work in each command takes milliseconds, the rest is importing). With
    TCPFADE_BENCH_OTHER=path (a directory holding another version's ``tcpfade`` package) the same commands run
    against it too, for a before/after table in one run."""
    import os
    import statistics
    import subprocess
    import sys

    def median_run(args, env=None) -> float:
        times = []
        for _ in range(5):
            start = time.perf_counter()
            subprocess.run(args, check=True, capture_output=True, env=env)
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    cli = [sys.executable, "-c", "import sys; from tcpfade.cli import run; sys.argv[0] = 'tcpfade'; run()"]
    other = os.environ.get("TCPFADE_BENCH_OTHER")

    def timed(args) -> str:
        here = f"{median_run(args):6.2f} s"
        if not other:
            return here
        return f"{here}  (other: {median_run(args, {**os.environ, 'PYTHONPATH': other}):6.2f} s)"

    for label, args in [("python -c 'import tcpfade'", [sys.executable, "-c", "import tcpfade"]),
                        ("tcpfade --help", [*cli, "--help"]),
                        ("tcpfade simulate (10^5 slots)", [*cli, "simulate", "--variant", "newreno", "--error-rate",
                                                           "0.01", "--fdt", "0.01", "--slots", "100000", "--seed",
                                                           "1"]),
                        ("tcpfade analyze (one point)", [*cli, "analyze", "--variant", "newreno", "--error-rate",
                                                         "0.01", "--fdt", "0.01"]),
                        ("tcpfade transfer (one transfer)", [*cli, "transfer", "--variant", "reno", "--seed", "1"])]:
        print(f"start-up {label:<36} {timed(args)}")


def bench_wcdma() -> None:
    """zorzi-rossi-mazzini: the uplink alone and the whole chain (uplink, block-error mapping, TCP per user) as
    simulated seconds per wall-clock second for 90 users over 60 s, one core; and whole figures as
    `tcpfade reproduce` computes them (one worker)."""
    from tcpfade import wcdma
    from tcpfade.reproduce import FIGURES
    from tcpfade.reproduce.registry import Settings

    seconds = 60.0
    t = best_of(lambda: wcdma.simulate_system(users=90, duration=seconds, seed=1))
    print(f"wcdma uplink, 90 users, 25 cells            {seconds / t:8.0f}x real time ({t:.2f} s for {seconds:g} s)")
    t = best_of(lambda: wcdma.simulate(users=90, duration=seconds, seed=1))
    print(f"wcdma whole chain, 90 users                 {seconds / t:8.0f}x real time ({t:.2f} s for {seconds:g} s)")
    for figure in ("zorzi-rossi-mazzini-fig1", "zorzi-rossi-mazzini-fig7"):
        start = time.perf_counter()
        data = FIGURES[figure].compute(Settings(quick=True, seed=1, workers=1), lambda _m: None)
        t = time.perf_counter() - start
        print(f"{figure} ({len(data)} user points) {t:8.2f} s")


def bench_sweep() -> None:
    """Points per second of a sweep against the number of workers, each run on a fresh store."""
    import os
    import tempfile
    from pathlib import Path

    from tcpfade.sweep import Experiment, run_sweep

    cases = {
        "simulate (10^7 slots a point)": ("simulate", {"fdt": 0.016, "wmax": 24, "slots": 10_000_000},
                                          {"variant": ["tahoe", "reno", "newreno"],
                                           "error_rate": [0.003, 0.01, 0.03, 0.1]}, 2),
        "analyze (Wmax 24)": ("analyze", {"fdt": 0.016, "wmax": 24},
                              {"variant": ["tahoe", "reno", "newreno"],
                               "error_rate": [round(0.001 * 1.15**k, 6) for k in range(40)]}, 1),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for label, (model, fixed, axes, replications) in cases.items():
            base = None
            backends = [(f"{w} worker{'s' * (w > 1)}", {"workers": w}) for w in range(1, (os.cpu_count() or 1) + 1)]
            backends.append(("dask LocalCluster, 2 processes", {"dask": True}))
            for name, how in backends:
                store = Path(tmp) / f"{model}-{name.replace(' ', '_').replace(',', '')}.sqlite"
                e = Experiment.from_dict({"sweep": {"model": model, "replications": replications}, "fixed": fixed,
                                          "axes": axes, "output": {"store": str(store)}})
                if how.get("dask"):
                    from distributed import LocalCluster

                    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster:
                        start = time.perf_counter()
                        run_sweep(e, dask=cluster.scheduler_address, progress=False)
                        t = time.perf_counter() - start
                else:
                    start = time.perf_counter()
                    run_sweep(e, workers=how["workers"], progress=False)
                    t = time.perf_counter() - start
                rate = len(e.points()) / t
                base = base or rate
                print(f"sweep {label:<30} {name:<32} {len(e.points()):4d} points {rate:8.1f} points/s "
                      f"({rate / base:.2f}x one worker)")


#: The points of ``--only scale``.
SCALE_WMAX = (6, 12, 24, 32, 48, 64, 96, 128)
SCALE_WP = (10, 30, 100, 300, 1000, 3000, 10_000)
SCALE_LIMIT_S = 60.0


def scale_points() -> dict[str, float | str]:
    """Milliseconds per point of the analyses at each size (the best of a few calls for short points; one call for
    points over a second), "refused" for a ParameterError, "> 60 s" once a size took longer than SCALE_LIMIT_S."""
    out: dict[str, float | str] = {}
    ch = tcpfade.GilbertElliott.from_fading(error_rate=0.03, fdt=0.016)

    def timed(key: str, call, slow: set) -> None:
        family = key.rsplit(" ", 1)[0]
        if family in slow:
            out[key] = f"> {SCALE_LIMIT_S:.0f} s"
            return
        try:
            start = time.perf_counter()
            call()
            first = time.perf_counter() - start
        except tcpfade.ParameterError:
            out[key] = "refused"
            return
        if first < 0.2:    # short: the best of three batches of about half a second
            calls = max(3, min(200, int(0.5 / max(first, 1e-6))))
            out[key] = best_of(lambda: [call() for _ in range(calls)]) / calls * 1e3
        else:
            out[key] = first * 1e3
        if first > SCALE_LIMIT_S:
            slow.add(family)

    slow: set = set()
    for variant in ("oldtahoe", "tahoe", "reno", "newreno"):
        for wmax in SCALE_WMAX:
            timed(f"analyze {variant} {wmax}", lambda: tcpfade.analyze(variant, ch, wmax=wmax, rto_slots=max(100, 2 * wmax)),
                  slow)
    # A link of w_p = B + μT windows: τ = 50 ms, β = 1 (μT = w_p / 2), good states of 1 s and bad ones of 10 ms.
    for model in ("refined", "paper"):
        for wp in SCALE_WP:
            rate = wp / 2 / 0.05
            timed(f"analyze_link {model} {wp}", lambda: tcpfade.analyze_link(rate=rate, tau=0.05 - 1 / rate, beta=1,
                                                                            mean_good=1.0, mean_bad=0.01, model=model),
                  slow)
    return out


def _baseline(rev: str) -> dict[str, float | str]:
    """scale_points() on the package as it was at ``rev``: built once into benchmarks/.baseline/<rev>, run in a
    subprocess whose path puts that build first."""
    import json
    import os
    import subprocess
    import tempfile
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    target = repo / "benchmarks" / ".baseline" / rev
    if not (target / "tcpfade").exists():
        with tempfile.TemporaryDirectory() as src:
            archive = subprocess.run(["git", "-C", str(repo), "archive", rev], check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), src],
                           check=True)
    env = dict(os.environ, PYTHONPATH=str(target))
    code = ("import json, sys; sys.path.insert(0, %r); import bench_python as b; "
            "print(json.dumps(b.scale_points()))" % str(repo / "benchmarks"))
    done = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True, cwd=target)
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_scale(baseline: str | None) -> None:
    """The analyses against their size, now and (with a baseline revision) before, on this machine in this run."""
    after = scale_points()
    before = _baseline(baseline) if baseline else {}

    def cell(value) -> str:
        if value is None:
            return "-"
        return value if isinstance(value, str) else (f"{value:.3g} ms" if value < 1000 else f"{value / 1e3:.3g} s")

    print(f"analysis time per point{f' (before: {baseline})' if baseline else ''}")
    for key, value in after.items():
        ratio = ""
        old = before.get(key)
        if isinstance(old, (int, float)) and isinstance(value, (int, float)):
            ratio = f"  {old / value:,.1f}x"
        print(f"  {key:<28} before {cell(old):>12}   after {cell(value):>12}{ratio}")


def main() -> None:
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}, "
          f"tcpfade {tcpfade.__version__}")
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    if only in (None, "analysis"):
        bench_analysis()
    if only in (None, "sweep"):
        bench_sweep()
    if only in (None, "link"):
        bench_link()
    if only in (None, "transfer"):
        bench_transfer()
    if only in (None, "wcdma"):
        bench_wcdma()
    if only in (None, "startup"):
        bench_startup()
    if only == "emulator":       # real time and root: only when asked for
        bench_emulator()
    if only == "scale":          # minutes with a baseline: only when asked for
        bench_scale(sys.argv[sys.argv.index("--baseline") + 1] if "--baseline" in sys.argv else None)
    if only is not None:
        return
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
