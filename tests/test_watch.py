"""Following and stopping long simulations: ``progress=``, Ctrl-C, and runs stopped on other threads (sweeps in
this process, reproductions on threads)."""

from __future__ import annotations

import _thread
import threading
import time

import pytest

import tcpfade
from tcpfade._watch import stop_on
from tcpfade.errors import ParameterError, RunStopped
from tcpfade.reproduce.registry import Settings

# Runs far longer than any test may take (minutes to hours), so a test that returns in seconds shows the stop.
LONG_SLOTS = 10**11
LONG_LINK = {"rate": 100, "tau": 0.01, "beta": 8, "mean_good": 0.8, "mean_bad": 0.2, "duration": 1e9, "seed": 1}
# Analyses of the same kind (see long_analysis for analyze) and a link of w_p = 3000 windows with each variant's
# recovery rounds (about 1.3 s, its w_p × w_p tables; the refined model alone takes 0.1 s at w_p = 10⁴).
LONG_LINK_ANALYSIS = {"rate": 30_000, "tau": 0.05 - 1 / 30_000, "beta": 1, "mean_good": 1.0, "mean_bad": 0.01,
                      "recovery": "rounds"}
# A stop must come within the core's report interval (0.1 s) plus the time to unwind; generous for a loaded CI.
STOP_WITHIN = 5.0


def _interrupted(run, after: float) -> float:
    """Seconds ``run()`` lasts when KeyboardInterrupt (as Ctrl-C raises it) comes ``after`` seconds in; it must raise."""
    timer = threading.Timer(after, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run()
    timer.join()
    return time.monotonic() - started


def channel():
    return tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.01)


def long_slotted(**kwargs):
    return tcpfade.simulate("newreno", channel(), wmax=24, slots=LONG_SLOTS, seed=1, **kwargs)


def test_progress_sees_the_run_advance_and_changes_nothing():
    """A slotted and a link run with ``progress`` give the same results as without it, and the fractions they
    report rise within [0, 1]."""
    # Runs of about a second each here: the watch reports every 0.1 s, and two reports are what is asked.
    for run in (lambda **kw: tcpfade.simulate("reno", channel(), slots=10**8, seed=4, **kw),
                lambda **kw: tcpfade.simulate_link(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2,
                                                   duration=1.5 * 10**5, seed=4, **kw)):
        seen: list[float] = []
        watched, plain = run(progress=seen.append), run()
        assert watched.to_dict() == plain.to_dict()
        assert len(seen) >= 2, seen
        assert all(0.0 <= a <= b <= 1.0 for a, b in zip(seen, seen[1:])), seen


def test_an_exception_from_progress_stops_the_run_and_is_raised_as_it_was():
    class Enough(Exception):
        pass

    def stop_at_once(done: float) -> None:
        raise Enough(done)

    started = time.monotonic()
    with pytest.raises(Enough):
        long_slotted(progress=stop_at_once)
    with pytest.raises(Enough):
        tcpfade.simulate_link(**LONG_LINK, progress=stop_at_once)
    assert time.monotonic() - started < 2 * STOP_WITHIN


def test_progress_true_draws_a_bar_once_the_run_lasts_a_second(capsys):
    """``progress=True``: a tqdm bar on stderr for a run of a few seconds, nothing for a short one, and the same
    results either way."""
    ch = channel()
    quick = tcpfade.simulate("reno", ch, slots=10**5, seed=2, progress=True)
    assert capsys.readouterr().err == ""
    assert quick.to_dict() == tcpfade.simulate("reno", ch, slots=10**5, seed=2).to_dict()
    long = tcpfade.simulate("reno", ch, slots=10**9, seed=2, progress=True)   # about 4 s
    err = capsys.readouterr().err
    assert "slots:" in err and "%|" in err, err[-300:]
    assert long.slots == 10**9


def test_progress_must_be_callable():
    with pytest.raises(ParameterError, match="progress = 3 is not allowed"):
        tcpfade.simulate("reno", channel(), slots=1000, seed=1, progress=3)
    with pytest.raises(ParameterError, match="progress"):
        tcpfade.simulate_link(rate=100, tau=0.01, duration=100, seed=1, progress="bar")


@pytest.mark.parametrize("run", [long_slotted, lambda: tcpfade.simulate_link(**LONG_LINK)], ids=["slotted", "link"])
def test_ctrl_c_stops_a_long_run_at_once(run):
    """KeyboardInterrupt in the main thread (as Ctrl-C raises it) ends a run of hours within seconds; before, the
    core held on until the run was over."""
    assert _interrupted(run, after=0.5) < 0.5 + STOP_WITHIN


@pytest.mark.parametrize("run", [long_slotted, lambda: tcpfade.analyze_link(**LONG_LINK_ANALYSIS)],
                         ids=["simulation", "analysis"])
def test_a_run_on_another_thread_stops_when_its_event_is_set(run):
    """Signals reach only the main thread: a simulation (or an analysis) on a worker thread stops through stop_on's
    event, and raises RunStopped there (a KeyboardInterrupt, so `except Exception` does not swallow it)."""
    stopping, outcome = threading.Event(), {}

    def work():
        with stop_on(stopping):
            try:
                run()
            except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
                outcome["raised"] = exc

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.3)
    stopping.set()
    worker.join(STOP_WITHIN)
    assert not worker.is_alive(), "the run went on after its event was set"
    assert isinstance(outcome.get("raised"), RunStopped) and isinstance(outcome["raised"], KeyboardInterrupt)


def test_an_unset_event_leaves_a_run_alone():
    with stop_on(threading.Event()):
        r = tcpfade.simulate("reno", channel(), slots=10**6, seed=4)
    assert r.to_dict() == tcpfade.simulate("reno", channel(), slots=10**6, seed=4).to_dict()


def test_ctrl_c_in_a_threaded_map_stops_the_running_simulations():
    """A reproduction's points on two threads: Ctrl-C reaches the main thread, and the simulations running on
    the threads stop too (before, they ran to their end and the process could not exit until then)."""
    before = set(threading.enumerate())
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        Settings(workers=2).map(lambda seed: tcpfade.simulate("reno", channel(), slots=LONG_SLOTS, seed=seed),
                                [1, 2, 3])
    timer.join()
    deadline = time.monotonic() + STOP_WITHIN
    while time.monotonic() < deadline and set(threading.enumerate()) - before:
        time.sleep(0.05)
    assert not set(threading.enumerate()) - before, "a worker thread is still simulating"


def test_the_bit_level_error_rate_reports_its_progress_and_stops_on_ctrl_c():
    """zorzi-rao Fig. 7's curves (half a minute for the slowest) take ``progress=`` and stop on Ctrl-C too."""
    seen: list[float] = []
    watched = tcpfade.bit_level_error_rate(0.01, [10, 20], packets=2_000_000, progress=seen.append)
    assert watched.equals(tcpfade.bit_level_error_rate(0.01, [10, 20], packets=2_000_000))
    assert len(seen) >= 2 and all(0.0 <= a <= b <= 1.0 for a, b in zip(seen, seen[1:])), seen
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        tcpfade.bit_level_error_rate(0.01, [10, 20], packets=10**10)
    timer.join()
    assert time.monotonic() - started < 0.5 + STOP_WITHIN


def test_ctrl_c_stops_a_long_fading_trace():
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        tcpfade.ThresholdFading(fdt=0.01, error_rate=0.1).trace(10**9, seed=1)   # about 20 s (1 GB reserved)
    timer.join()
    assert time.monotonic() - started < 0.5 + STOP_WITHIN




def long_analysis(**kwargs):
    # The longest analyses are Tahoe's at large windows (Wmax³ phase-1 slots: about 0.5 s here); Reno's and
    # NewReno's take at most 0.25 s up to their limit of Wmax = 128.
    return tcpfade.analyze("tahoe", channel(), wmax=512, rto_slots=1024, **kwargs)


def test_the_analyses_report_progress_and_it_changes_nothing():
    link = {"rate": 8333.3, "tau": 0.1, "beta": 1, "mean_good": 1.0, "mean_bad": 0.01}   # w_p = 1668
    for run in (long_analysis, lambda **kw: tcpfade.analyze_link(**link, **kw)):
        seen: list[float] = []
        watched, plain = run(progress=seen.append), run()
        assert watched.to_dict() == plain.to_dict()
        assert len(seen) >= 2, seen
        assert all(0.0 <= a <= b <= 1.0 for a, b in zip(seen, seen[1:])), seen
    with pytest.raises(ParameterError, match="progress = 3 is not allowed"):
        tcpfade.analyze("reno", channel(), progress=3)
    with pytest.raises(ParameterError, match="progress"):
        tcpfade.analyze_link(**link, progress="bar")


@pytest.mark.parametrize("run", [long_analysis, lambda: tcpfade.analyze_link(**LONG_LINK_ANALYSIS)],
                         ids=["tahoe", "link"])
def test_ctrl_c_stops_an_analysis_well_before_its_end(run):
    """KeyboardInterrupt (as Ctrl-C raises it) 0.1 s into an analysis ends it well before the point is done: Tahoe's
    in the core within a report interval, the link's between numpy's calls while its chain is built and solved."""
    started = time.monotonic()
    run()
    whole = time.monotonic() - started
    assert _interrupted(run, after=0.1) < 0.6 * whole, whole
