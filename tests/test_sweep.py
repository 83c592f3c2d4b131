"""Sweeps: experiment files, the content-addressed store, local and Dask runs giving identical stores, a
SIGKILLed sweep resuming without loss or duplicates, and malformed files rejected before anything runs."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from contextlib import closing

import pandas as pd
import pytest

import tcpfade
from tcpfade.tcp.link import LINK_COUNTS
from tcpfade.tcp.transfer import TRANSFER_COUNTS
from tcpfade.cli import main
from tcpfade.sweep import Experiment, ExperimentError, Store, load_experiment, point_seed, run_sweep, sweep_status
from tcpfade.sweep import models

SIMULATE = """
[sweep]
name = "{name}"
model = "simulate"
seed = 2026
replications = 2

[fixed]
fdt = 0.016
wmax = 24
slots = {slots}

[axes]
variant = ["tahoe", "reno", "newreno"]
error_rate = [0.01, 0.03, 0.1]

[output]
store = "{name}.sqlite"
"""


def write(tmp_path, text: str, name: str = "study.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def experiment(directory, name="study", slots=100_000):
    """The 18-run simulate sweep (3 variants × 3 error rates × 2 replications), its file in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    return load_experiment(write(directory, SIMULATE.format(name=name, slots=slots), f"{name}.toml"))


def comparable(store: Store) -> list[tuple]:
    """Every row without what legitimately differs between runs (when and how long)."""
    return [(r["key"], r["experiment"], r["identity"], r["params"], r["replication"], r["seed"], r["metrics"],
             r["intervals"]) for r in store.rows()]


# -- experiment files --------------------------------------------------------------------------------------

def test_grid_and_zip_points_and_seeds(tmp_path):
    e = experiment(tmp_path)
    points = e.points()
    assert len(points) == 3 * 3 * 2 and len({p.key for p in points}) == len(points)
    assert len({p.seed for p in points}) == len(points)
    # A point's seed depends on the master seed and its identity only: not on its place in the sweep.
    reordered = Experiment.from_dict({"sweep": {"model": "simulate", "seed": 2026, "replications": 2},
                                      "fixed": {"fdt": 0.016, "wmax": 24, "slots": 100_000},
                                      "axes": {"error_rate": [0.1, 0.01, 0.03], "variant": ["newreno", "tahoe", "reno"]}})
    by_params = {(tuple(sorted(p.params.items())), p.replication): p.seed for p in points}
    assert {(tuple(sorted(p.params.items())), p.replication): p.seed for p in reordered.points()} == by_params
    assert point_seed(2027, "simulate", points[0].params, 0) != points[0].seed
    zipped = Experiment.from_dict({"sweep": {"model": "analyze", "combine": "zip"}, "fixed": {"fdt": 0.016},
                                   "axes": {"variant": ["tahoe", "reno"], "error_rate": [0.01, 0.1]}})
    assert [(p.params["variant"], p.params["error_rate"]) for p in zipped.points()] == [("tahoe", 0.01), ("reno", 0.1)]


def test_a_row_is_the_direct_call_with_the_points_seed(tmp_path):
    e = experiment(tmp_path)
    run_sweep(e, workers=1, progress=False)
    row = Store(e.store).rows()[0]
    params = dict(row["params"])
    channel = tcpfade.GilbertElliott.from_fading(error_rate=params.pop("error_rate"), fdt=params.pop("fdt"))
    direct = tcpfade.simulate(params.pop("variant"), channel, seed=row["seed"], **params)
    assert row["metrics"]["throughput"] == direct.throughput
    assert row["intervals"]["throughput"] == list(direct.ci["throughput"])
    analysed = Experiment.from_dict({"sweep": {"model": "analyze"}, "fixed": {"fdt": 0.016, "variant": "reno"},
                                     "axes": {"error_rate": [0.03]}, "output": {"store": str(tmp_path / "a.sqlite")}})
    run_sweep(analysed, workers=1, progress=False)
    a = tcpfade.analyze("reno", tcpfade.GilbertElliott.from_fading(error_rate=0.03, fdt=0.016))
    row = Store(analysed.store).rows()[0]
    assert row["metrics"]["throughput"] == a.throughput.optimistic
    assert row["intervals"]["throughput"] == [a.throughput.low, a.throughput.high]


def test_a_name_spelled_two_ways_is_one_point(tmp_path):
    """The variant and the profile are matched loosely ("Linux" is "linux", "New-Reno" is "newreno"): a point takes its
    seed and store key from the canonical name, so one point spelled two ways is the same run, with the canonical name
    in its row (a review found "Linux" and "linux" run as two points with different results)."""
    e = Experiment.from_dict({"sweep": {"model": "simulate_link"},
                              "fixed": {"rate": 100.0, "tau": 0.01, "duration": 50.0, "mean_bad": 0.2, "mean_good": 0.8},
                              "axes": {"variant": ["cubic", "CUBIC"], "profile": ["linux", "Linux"]}})
    points = e.points()
    assert {(p.params["variant"], p.params["profile"]) for p in points} == {("cubic", "linux")}
    assert len({p.seed for p in points}) == len({p.key for p in points}) == 1
    # ... and run once (a review found it computed four times, stored once).
    e = Experiment.from_dict({"sweep": {"model": "simulate_link"},
                              "fixed": {"rate": 100.0, "tau": 0.01, "duration": 50.0, "mean_bad": 0.2, "mean_good": 0.8},
                              "axes": {"variant": ["cubic", "CUBIC"], "profile": ["linux", "Linux"]},
                              "output": {"store": str(tmp_path / "s.sqlite")}})
    report = run_sweep(e, workers=1, progress=False)
    assert (report.total, report.computed) == (1, 1) and len(Store(e.store).rows()) == 1
    fixed = {"rate": 100.0, "tau": 0.01, "mean_bad": 0.2, "mean_good": 0.8, "variant": "New-Reno"}
    assert Experiment.from_dict({"sweep": {"model": "simulate_link"}, "fixed": fixed}) \
        .parameter_sets()[0]["variant"] == "newreno"


def test_link_models_store_the_direct_calls(tmp_path):
    # abouzeid's link: a sweep row of simulate_link is the direct call with the point's seed, one of
    # analyze_link the direct analysis; both take the channel as mean_good and mean_bad.
    e = Experiment.from_dict({"sweep": {"model": "simulate_link", "replications": 2},
                              "fixed": {"rate": 100.0, "tau": 0.01, "beta": 8.0, "duration": 300.0, "mean_bad": 0.2},
                              "axes": {"mean_good": [0.08, 0.8]}, "output": {"store": str(tmp_path / "s.sqlite")}})
    run_sweep(e, workers=1, progress=False)
    rows = Store(e.store).rows()
    assert len(rows) == 4
    row = rows[0]
    r = tcpfade.simulate_link("reno", rate=100, tau=0.01, beta=8, duration=300, mean_good=row["params"]["mean_good"],
                              mean_bad=0.2, seed=row["seed"])
    assert row["metrics"]["goodput"] == r.goodput and row["metrics"]["p_timeout"] == r.p_timeout
    assert row["intervals"]["goodput"] == list(r.ci["goodput"])
    # Every count as well (reviews found the store without the ACK counts, then without the losses, the RTT samples
    # and F-RTO's undone timeouts: a sweep over frto could not measure its own effect).
    assert {k: row["metrics"][k] for k in LINK_COUNTS} == {k: getattr(r, k) for k in LINK_COUNTS}
    assert {"channel_losses", "buffer_losses", "rtt_samples", "spurious_timeouts"} <= set(LINK_COUNTS)
    a = Experiment.from_dict({"sweep": {"model": "analyze_link"},
                              "fixed": {"rate": 100.0, "tau": 0.01, "beta": 8.0, "mean_bad": 0.2},
                              "axes": {"mean_good": [0.8], "reading": ["refined", "paper"]},
                              "output": {"store": str(tmp_path / "a.sqlite")}})
    run_sweep(a, workers=1, progress=False)
    got = {r["params"]["reading"]: r["metrics"]["goodput"] for r in Store(a.store).rows()}
    for reading in ("refined", "paper"):
        assert got[reading] == tcpfade.analyze_link(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2,
                                                    reading=reading).goodput


def test_transfers_sweep_over_on_off_phases(tmp_path):
    # tsaoussidis-badr's set-up as a sweep: a row is the direct simulate_transfer call with the point's seed.
    e = Experiment.from_dict({"sweep": {"model": "simulate_transfer", "replications": 2},
                              "fixed": {"mean_phase": 10.0, "size_bytes": 500_000},
                              "axes": {"drop_rate": [0.0, 0.33], "variant": ["reno", "probing"]},
                              "output": {"store": str(tmp_path / "t.sqlite")}})
    run_sweep(e, workers=1, progress=False)
    rows = Store(e.store).rows()
    assert len(rows) == 8
    for row in rows:
        p = row["params"]
        r = tcpfade.simulate_transfer(p["variant"], tcpfade.ContinuousTwoState.on_off(10.0, p["drop_rate"]),
                                      size_bytes=500_000, seed=row["seed"])
        assert row["metrics"]["connection_time"] == r.connection_time
        assert row["metrics"]["overhead_percent"] == r.overhead_percent
        # Every count too, and each kind's segments, bytes and drops (a review found most of them missing).
        assert {k: row["metrics"][k] for k in TRANSFER_COUNTS} == {k: getattr(r, k) for k in TRANSFER_COUNTS}
        assert all(row["metrics"][f"{kind}_{what}"] == count for kind, counts in r.by_kind.items()
                   for what, count in zip(("segments", "bytes", "dropped"), counts))


def test_wcdma_sweeps_store_the_chains_summary(tmp_path):
    # zorzi-rossi-mazzini's chain as a sweep: a row summarizes the users of the direct call with the point's seed.
    e = Experiment.from_dict({"sweep": {"model": "wcdma"},
                              "fixed": {"users": 12, "duration": 5.0},
                              "axes": {"doppler_hz": [2.0, 40.0]},
                              "output": {"store": str(tmp_path / "w.sqlite")}})
    run_sweep(e, workers=1, progress=False)
    rows = Store(e.store).rows()
    assert len(rows) == 2
    for row in rows:
        from tcpfade import wcdma

        f = wcdma.simulate(users=12, duration=5.0, doppler_hz=row["params"]["doppler_hz"],
                           seed=row["seed"]).to_frame()
        assert row["metrics"]["mean_throughput"] == pytest.approx(f.throughput.mean(), rel=1e-12)
    # A point the chain would refuse is refused when the experiment loads, naming the field.
    with pytest.raises(ExperimentError, match="fixed.tti_frames: tti_frames = 3 is not allowed"):
        Experiment.from_dict({"sweep": {"model": "wcdma"}, "fixed": {"users": 12, "tti_frames": 3},
                              "output": {"store": str(tmp_path / "b.sqlite")}})


@pytest.mark.parametrize("text, line, field", [
    ('[sweep]\nmodel = "simulate"\n[fixed]\nwmax = "24"\n', 4, "fixed.wmax"),            # wrong type
    ('[sweep]\nmodel = "simulate"\n[fixed]\nwmx = 24\n', 4, "fixed.wmx"),                # unknown key
    ('[sweep]\nmodel = "simulate"\ncolour = "red"\n', 3, "sweep.colour"),                # unknown key
    ('[sweep]\nmodel = "simulate"\n[plots]\nx = 1\n', 3, "plots"),                       # unknown table
    ('[sweep]\nmodel = "simulate"\n[fixed]\nfdt = 0.01\n[axes]\nerror_rate = []\n', 6, "axes.error_rate"),  # empty
    ('[sweep]\nmodel = "simulate"\n[fixed]\nfdt = 0.01\n[axes]\nerror_rate = [0.1, 1.5]\n', 6,
     "axes.error_rate"),                                                                 # impossible value
    ('[sweep]\nmodel = "analyze"\n[fixed]\nfdt = 0.01\nerror_rate = 0.1\nwmax = 24\nrto_slots = 20\n', 7, "fixed.rto_slots"),
    ('[sweep]\nmodel = "simulate"\ncombine = "zip"\n[fixed]\nfdt = 0.01\n[axes]\nerror_rate = [0.1, 0.2]\n'
     'wmax = [6]\n', 3, "sweep.combine"),                                                # zip of unequal axes
    ('[sweep]\nmodel = "simulate"\nreplications = 0\n', 3, "sweep.replications"),
    ('[sweep]\nmodel = "simulate"\n[fixed]\nfdt = 0.01\nerror_rate = 0.1\n[axes]\nerror_rate = [0.2]\n', 7,
     "axes.error_rate"),                                                                 # fixed and an axis
    ('[sweep]\nmodel = "simulate"\n[fixed]\nchannel = "markov"\np = 0.9\n', 3, "fixed.q"),  # q missing: its table
    ('[sweep]\nmodel = "simulat"\n', 2, "sweep.model"),
    ('[sweep]\nseed = 3\n', 1, "sweep.model"),                                          # missing: its table
    ('[sweep]\nmodel = "simulate"\n[fixed]\nwmax = 24\nwmax = 6\n', 5, "syntax"),         # TOML error
    ('[sweep]\nmodel = "analyze_link"\n[fixed]\nrate = 100\ntau = 0.01\nmean_good = 1\nmean_bad = 0.1\n'
     'max_backoff = 48\n', 8, "fixed.max_backoff"),                                      # a link model's rule
    ('[sweep]\nmodel = "simulate_link"\n[fixed]\nrate = 100\ntau = 0.01\nfdt = 0.01\n', 6, "fixed.fdt"),
    ('[sweep]\nmodel = "simulate"\n[fixed]\nchannel = "continuous"\n', 4, "fixed.channel"),  # not slotted
    # An integer beyond any float (tomllib keeps every digit; it was an OverflowError).
    ('[sweep]\nmodel = "simulate"\n[fixed]\nfdt = 0.01\nerror_rate = 1' + '0' * 400 + '\n', 5, "fixed.error_rate"),
    # A switch given as anything but true or false (a fresh-eyes review found a KeyError here, issue 34).
    ('[sweep]\nmodel = "simulate_link"\n[fixed]\nrate = 100\ntau = 0.01\nsack = "yes"\n', 6, "fixed.sack"),
    ('[sweep]\nmodel = "simulate_link"\n[fixed]\nrate = 100\ntau = 0.01\n[axes]\nhold_ssthresh_on_rto = [1]\n', 7,
     "axes.hold_ssthresh_on_rto[0]"),
])
def test_malformed_files_are_rejected_with_their_location_and_nothing_written(tmp_path, capsys, text, line, field):
    path = write(tmp_path, text)
    with pytest.raises(ExperimentError) as info:
        load_experiment(path)
    assert info.value.field == field and info.value.line == line, str(info.value)
    assert main(["sweep", "run", str(path)]) == 2
    err = capsys.readouterr().err
    where = f"line {line}, " if line else ""
    assert err.startswith(f"tcpfade: experiment file = {str(path)!r} is not allowed: {where}{field}: ")
    assert "Traceback" not in err and err.count("\n") == 1
    assert not list(tmp_path.glob("*.sqlite*"))


@pytest.mark.parametrize("column", ["seed", "point", "replication", "experiment", "version"])
def test_an_axis_may_not_shadow_a_column_the_sweep_writes(tmp_path, column):
    path = write(tmp_path, f'[sweep]\nmodel = "simulate"\n[fixed]\nfdt = 0.01\nerror_rate = 0.1\n'
                           f'[axes]\n{column} = [1, 2]\n')
    with pytest.raises(ExperimentError, match=rf"axes.{column}: '{column}' is a column every row has \(experiment, "
                                              r"point, .*\), set by the sweep itself") as info:
        load_experiment(path)
    assert info.value.line == 7
    assert ("the master seed is [sweep] seed" in str(info.value)) == (column == "seed")


def test_the_analysis_reading_is_an_axis_beside_the_sweeps_model_column(tmp_path):
    # analyze_link's reading (refined or paper) was called ``model``, which clashed with the sweep's own column; now
    # the two are apart, and the former name is a column the sweep writes.
    e = Experiment.from_dict({"sweep": {"model": "analyze_link"},
                              "fixed": {"rate": 100.0, "tau": 0.01, "beta": 8.0, "mean_bad": 0.2, "mean_good": 0.8},
                              "axes": {"reading": ["refined", "paper"]}, "output": {"store": str(tmp_path / "a.sqlite")}})
    run_sweep(e, workers=1, progress=False)
    frame = Store(e.store).dataframe()
    assert list(frame.model) == ["analyze_link", "analyze_link"]
    assert list(frame.reading) == ["refined", "paper"]


def test_an_invalid_point_names_the_axis_value(tmp_path):
    path = write(tmp_path, '[sweep]\nmodel = "analyze"\n[fixed]\nfdt = 0.016\nerror_rate = 0.1\nrto_slots = 400\n'
                           '[axes]\nwmax = [6, 24, 200]\nvariant = ["tahoe", "reno"]\n')
    with pytest.raises(ExperimentError, match=r":8: axes.wmax: wmax = 200 is not allowed: must be <= 128 for the reno"
                                              r".*at wmax = 200"):
        load_experiment(path)


# -- runs and the store ------------------------------------------------------------------------------------

def test_rerun_skips_force_recomputes_and_other_code_is_kept_apart(tmp_path, monkeypatch):
    e = experiment(tmp_path)
    first = run_sweep(e, workers=2, progress=False)
    assert (first.total, first.skipped, first.computed, first.failed) == (18, 0, 18, [])
    before = comparable(Store(e.store))
    again = run_sweep(e, workers=2, progress=False)
    assert (again.skipped, again.computed) == (18, 0)
    forced = run_sweep(e, workers=2, progress=False, force=True)
    assert forced.computed == 18 and comparable(Store(e.store)) == before
    # Changed code (another fingerprint) computes its own rows and never takes the old ones for its own.
    models.code_fingerprint.cache_clear()
    monkeypatch.setattr(models, "code_fingerprint", lambda: "changed-code")
    assert sweep_status(e).missing == 18
    run_sweep(e, workers=1, progress=False)
    assert len(Store(e.store).rows()) == 36 and sweep_status(e).other_code == 18


def test_local_pool_and_a_dask_cluster_give_identical_stores(tmp_path):
    distributed = pytest.importorskip("distributed")
    serial, local, dask = (experiment(tmp_path / d) for d in ("serial", "local", "dask"))
    run_sweep(serial, workers=1, progress=False)
    run_sweep(local, workers=2, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        report = run_sweep(dask, dask=cluster.scheduler_address, progress=False)
    assert report.computed == 18
    reference = comparable(Store(serial.store))
    assert len(reference) == 18
    assert comparable(Store(local.store)) == reference
    assert comparable(Store(dask.store)) == reference


def test_a_sweep_killed_with_sigkill_resumes_with_every_point_once(tmp_path):
    """Kill the whole process group (runner and workers) part way; the rerun computes only what is missing
    and the store then equals an uninterrupted run's."""
    e = experiment(tmp_path / "killed", name="slow", slots=20_000_000)
    reference = experiment(tmp_path / "whole", name="slow", slots=20_000_000)
    command = [sys.executable, "-c", "from tcpfade.cli import run; run()", "sweep", "run", e.source, "--workers", "2"]
    proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline, rows = time.monotonic() + 120, 0
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if e.store.exists():
                with closing(sqlite3.connect(e.store, timeout=30)) as con:
                    try:
                        rows = con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
                    except sqlite3.OperationalError:  # the runner is still creating the table
                        rows = 0
                if rows >= 3:
                    break
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the sweep finished before it could be killed"
    store = Store(e.store)
    survived = len(store.keys())
    assert 3 <= survived < 18
    with closing(sqlite3.connect(e.store)) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    resumed = run_sweep(e, workers=2, progress=False)
    assert (resumed.skipped, resumed.computed) == (survived, 18 - survived)
    run_sweep(reference, workers=2, progress=False)
    assert comparable(store) == comparable(Store(reference.store))
    assert len(store.rows()) == 18


MIXED = """
[sweep]
name = "mixed"
model = "simulate"
seed = 2026
replications = 2

[fixed]
fdt = 0.016
wmax = 24
error_rate = 0.1

[axes]
slots = [100_000, 10_000_000_000]
variant = ["tahoe", "reno", "newreno"]

[output]
store = "mixed.sqlite"
"""
# Six quick points first, then six of 10^10 slots: about a minute each, so a run that waited for its running
# points after Ctrl-C would take that long to stop.
QUICK, SLOW_SECONDS = 6, 30


def rows_in(store_path) -> int:
    if not store_path.exists():
        return 0
    with closing(sqlite3.connect(store_path, timeout=30)) as con:
        try:
            return con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        except sqlite3.OperationalError:  # the runner is still creating the table
            return 0


def wait_for_rows(store_path, count: int, alive=lambda: True, limit: float = 120) -> int:
    deadline, rows = time.monotonic() + limit, 0
    while time.monotonic() < deadline and alive():
        rows = rows_in(store_path)
        if rows >= count:
            break
        time.sleep(0.05)
    return rows


def group_gone(group: int, within: float) -> bool:
    """Whether no process of the group is left (terminated workers may take a moment to be reaped)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_ctrl_c_stops_a_sweep_at_once_and_keeps_every_finished_point(tmp_path):
    """SIGINT to the process group, as a terminal's Ctrl-C sends it, once the quick points are stored and two slow
    ones run: the CLI stops well before a slow point could finish, exits 130 naming what it kept, leaves no
    worker behind, and the store holds exactly the quick points, so a rerun would compute only the slow ones."""
    e = load_experiment(write(tmp_path, MIXED, "mixed.toml"))
    command = [sys.executable, "-c", "from tcpfade.cli import run; run()", "sweep", "run", e.source, "--workers", "2"]
    proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for_rows(e.store, QUICK, lambda: proc.poll() is None) == QUICK
        time.sleep(1.0)   # the two workers are inside slow points now
        os.killpg(proc.pid, signal.SIGINT)
        started = time.monotonic()
        _, err = proc.communicate(timeout=SLOW_SECONDS)
        stopped_after = time.monotonic() - started
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert stopped_after < SLOW_SECONDS / 3, stopped_after
    assert "interrupted: 6 points computed and kept" in err and "6 not computed" in err
    assert "Traceback" not in err
    assert group_gone(proc.pid, within=5.0), "a worker of the group survived the runner"
    status = tcpfade.sweep.sweep_status(e)
    assert (status.done, status.missing) == (QUICK, 6)
    assert {r["params"]["slots"] for r in Store(e.store).rows()} == {100_000}


def test_an_interrupted_run_sweep_raises_with_its_report(tmp_path):
    """The Python API: KeyboardInterrupt in the caller's thread becomes SweepInterrupted, with the counts."""
    import _thread
    import threading

    e = load_experiment(write(tmp_path, MIXED, "mixed.toml"))

    def interrupt_when_quick_points_are_stored():
        wait_for_rows(e.store, QUICK)
        time.sleep(1.0)
        _thread.interrupt_main()

    threading.Thread(target=interrupt_when_quick_points_are_stored, daemon=True).start()
    started = time.monotonic()
    with pytest.raises(tcpfade.sweep.SweepInterrupted) as stop:
        run_sweep(e, workers=2, progress=False)
    assert time.monotonic() - started < SLOW_SECONDS
    report = stop.value.report
    assert (report.total, report.skipped, report.computed, report.failed) == (12, 0, QUICK, [])
    assert isinstance(stop.value, KeyboardInterrupt)
    assert len(Store(e.store).keys()) == QUICK


def test_an_interrupted_sweep_in_this_process_stops_its_running_simulation(tmp_path):
    """workers=1 runs the points on a thread of this process: Ctrl-C stops the simulation running there within
    seconds (before, it ran its 10^10 slots to the end in the background), and the quick points are kept."""
    import _thread
    import threading

    e = load_experiment(write(tmp_path, MIXED, "mixed.toml"))

    def interrupt_when_quick_points_are_stored():
        wait_for_rows(e.store, QUICK)
        time.sleep(1.0)   # the first slow point is running
        _thread.interrupt_main()

    interrupter = threading.Thread(target=interrupt_when_quick_points_are_stored, daemon=True)
    interrupter.start()
    before = set(threading.enumerate())
    with pytest.raises(tcpfade.sweep.SweepInterrupted) as stop:
        run_sweep(e, workers=1, progress=False)
    assert stop.value.report.computed == QUICK
    stopped = time.monotonic()
    # The sweep's threads, but tqdm's monitor (started with the first bar, it lives as long as the process).
    started_by_the_sweep = {t for t in set(threading.enumerate()) - before if t.name != "tqdm_monitor"}
    for thread in started_by_the_sweep:
        thread.join(SLOW_SECONDS)
    assert not any(t.is_alive() for t in started_by_the_sweep), "the point in progress ran on after Ctrl-C"
    assert time.monotonic() - stopped < 5.0
    assert len(Store(e.store).keys()) == QUICK


def test_export_status_and_plot_commands(tmp_path, capsys):
    e = experiment(tmp_path)
    assert main(["sweep", "status", e.source]) == 1   # points missing: status 1, for scripts
    assert "0 of 18 points done, 18 missing" in capsys.readouterr().out
    assert main(["sweep", "run", e.source, "--workers", "2"]) == 0
    assert "18 computed" in capsys.readouterr().out
    assert main(["sweep", "status", e.source]) == 0
    assert "18 of 18 points done, 0 missing" in capsys.readouterr().out
    assert main(["sweep", "export", e.source, "--out", str(tmp_path / "r.csv")]) == 0
    assert main(["sweep", "export", str(e.store), "--out", str(tmp_path / "r.parquet")]) == 0
    csv, parquet, frame = (pd.read_csv(tmp_path / "r.csv"), pd.read_parquet(tmp_path / "r.parquet"),
                           Store(e.store).dataframe())
    assert len(csv) == len(parquet) == len(frame) == 18
    assert {"variant", "error_rate", "throughput", "throughput_low", "throughput_high", "seed"} <= set(frame.columns)
    pd.testing.assert_series_equal(csv.throughput, frame.throughput, check_names=False)
    assert main(["plot", e.source, "--x", "error_rate", "--group", "variant", "--logx",
                 "--out", str(tmp_path / "p.png")]) == 0
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The exported table plots too, CSV or Parquet.
    for table in ("r.csv", "r.parquet"):
        assert main(["plot", str(tmp_path / table), "--x", "error_rate", "--group", "variant",
                     "--out", str(tmp_path / f"{table}.png")]) == 0
    capsys.readouterr()
    assert main(["plot", e.source, "--x", "colour", "--out", str(tmp_path / "q.png")]) == 2
    assert "--x = 'colour' is not allowed" in capsys.readouterr().err
    assert main(["sweep", "export", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "x.csv")]) == 2
    assert "must be an existing file" in capsys.readouterr().err


def test_export_says_everything_a_point_ran_with_in_grid_order(tmp_path):
    """Every row carries the master seed, the point's place in the grid and its seed, every parameter (set or left
    at its default), counts as integers; rows come in the grid's order (variant slowest, then error rate, then
    replication), the same on every export."""
    e = experiment(tmp_path)
    run_sweep(e, workers=2, progress=False)
    frame = Store(e.store).dataframe()
    assert list(frame.columns[:5]) == ["experiment", "point", "replication", "master_seed", "seed"]
    assert (frame.master_seed == 2026).all() and frame.point.dtype.kind == "i"
    assert list(zip(frame.point, frame.replication)) == [(i, r) for i in range(9) for r in range(2)]
    assert list(frame.variant[::6]) == ["tahoe", "reno", "newreno"]
    assert list(frame.error_rate[:6:2]) == [0.01, 0.03, 0.1]
    # Defaults of tcpfade.simulate the file did not set, as the call took them.
    assert (frame.dupthresh == 3).all() and (frame.rto_slots == 100).all() and (frame.channel == "fading").all()
    assert frame.timeouts.dtype.kind == "i" and frame.fast_retransmits.dtype.kind == "i"
    points = e.points()
    assert list(frame.seed) == [p.seed for p in points]
    pd.testing.assert_frame_equal(frame, Store(e.store).dataframe())


def test_simulated_fading_channels_can_be_swept(tmp_path):
    """zorzi-rao §5's channels in a sweep (snr_db, fading_model axes): each row is the direct call."""
    path = write(tmp_path, """
        [sweep]
        model = "simulate"
        [fixed]
        channel = "bit_level"
        fdt = 0.016
        packet_bits = 1024
        slots = 20_000
        [axes]
        snr_db = [15.0, 25.0]
        fading_model = ["jakes", "cisoids"]
    """)
    e = load_experiment(path)
    run_sweep(e, workers=1, progress=False)
    frame = Store(e.store).dataframe()
    for _, row in frame.iterrows():
        ch = tcpfade.BitLevelFading(0.016, row.snr_db, packet_bits=1024, fading_model=row.fading_model)
        direct = tcpfade.simulate("newreno", ch, slots=20_000, seed=int(row.seed))
        assert row.throughput == direct.throughput
    threshold = write(tmp_path, """
        [sweep]
        model = "simulate"
        [fixed]
        channel = "threshold"
        fdt = 0.016
        slots = 20_000
        [axes]
        error_rate = [0.01, 0.1]
    """, "threshold.toml")
    run_sweep(load_experiment(threshold), workers=1, progress=False)
    with pytest.raises(ExperimentError, match="must be one of fading, markov, burst, bernoulli"):
        load_experiment(write(tmp_path, """
            [sweep]
            model = "analyze"
            [fixed]
            channel = "bit_level"
            fdt = 0.016
            snr_db = 20.0
        """, "analysis.toml"))


def test_a_store_from_before_the_new_columns_gets_them(tmp_path):
    """Stores written before ``master_seed`` and ``point`` existed keep working: the columns are added on the next
    write, and the older rows export with them empty, after the new ones."""
    e = experiment(tmp_path)
    old_schema = """CREATE TABLE results (key TEXT PRIMARY KEY, experiment TEXT NOT NULL, model TEXT NOT NULL,
        identity TEXT NOT NULL, version TEXT NOT NULL, params TEXT NOT NULL, replication INTEGER NOT NULL,
        seed INTEGER NOT NULL, metrics TEXT NOT NULL, intervals TEXT NOT NULL, seconds REAL NOT NULL,
        created TEXT NOT NULL)"""
    with closing(sqlite3.connect(e.store)) as con:
        con.execute(old_schema)
        con.execute("INSERT INTO results VALUES ('old', 'study', 'simulate', 'x', '0.0', ?, 0, 5, ?, '{}', 1.0, "
                    "'2020-01-01')", ('{"variant": "reno"}', '{"throughput": 0.5}'))
        con.commit()
    run_sweep(e, workers=1, progress=False)
    frame = Store(e.store).dataframe()
    assert len(frame) == 19 and frame.key.iloc[-1] == "old" and pd.isna(frame.point.iloc[-1])
    assert list(frame.point[:18]) == [i for i in range(9) for _ in range(2)]


def test_none_is_a_value_of_an_optional_parameter_in_a_sweep_file(tmp_path):
    # TOML has no null: "none" gives an optional parameter its None, which sets the profile's value aside (a review
    # found the linux profile's send buffer could not be lifted in a sweep). Elsewhere "none" is refused as before.
    e = Experiment.from_dict({"sweep": {"model": "simulate_link"},
                              "fixed": {"variant": "cubic", "profile": "linux", "rate": 125.0, "tau": 0.04, "buffer": 6,
                                        "duration": 100.0, "channel": "bernoulli", "error_rate": 0.03},
                              "axes": {"send_buffer": ["none", 3000], "delayed_ack": ["None", 0.04]},
                              "output": {"store": str(tmp_path / "s.sqlite")}})
    run_sweep(e, workers=1, progress=False)
    rows = Store(e.store).rows()
    assert len(rows) == 4
    for row in rows:
        p = row["params"]
        r = tcpfade.simulate_link("cubic", profile="linux", rate=125, tau=0.04, buffer=6, duration=100,
                                  channel=tcpfade.Bernoulli(0.03), send_buffer=p["send_buffer"],
                                  delayed_ack=p["delayed_ack"], seed=row["seed"])
        assert row["metrics"]["goodput"] == r.goodput
    assert {(r["params"]["send_buffer"], r["params"]["delayed_ack"]) for r in rows} == {
        (None, None), (None, 0.04), (3000, None), (3000, 0.04)}
    with pytest.raises(ExperimentError, match="fixed.rate: 'none' is not allowed: must be a number"):
        Experiment.from_dict({"sweep": {"model": "simulate_link"}, "fixed": {"rate": "none", "tau": 0.01},
                              "output": {"store": str(tmp_path / "t.sqlite")}})


def test_a_store_given_for_an_experiment_file_is_named_as_such(tmp_path):
    """Found by a hostile review: ``tcpfade sweep status store.sqlite`` said the file was not UTF-8 text."""
    store = tmp_path / "s.sqlite"
    store.write_bytes(b"SQLite format 3\x00" + bytes(range(256)))
    with pytest.raises(tcpfade.TcpfadeError, match=r"store \(SQLite\), not an experiment file"):
        load_experiment(store)


def test_an_experiment_takes_a_whole_count_written_as_a_float(tmp_path):
    """Found by a hostile review: ``initial_window = 1.0`` was refused in a file while the API and the command line
    take a whole count written as a float (1e6)."""
    def experiment(window):
        return Experiment.from_dict({"sweep": {"model": "simulate_link"},
                                     "fixed": {"rate": 125.0, "tau": 0.04, "buffer": 6.0, "duration": 20.0,
                                               "initial_window": window, "channel": "none"},
                                     "axes": {"variant": ["reno"]}, "output": {"store": str(tmp_path / "s.sqlite")}})
    experiment(2.0)
    experiment(1e1)
    # ... and so does the [sweep] table (replications = 2.0 had passed the check and crashed the run as a float).
    e = Experiment.from_dict({"sweep": {"model": "simulate_link", "replications": 2.0, "seed": 7.0},
                              "fixed": {"rate": 125.0, "tau": 0.04, "buffer": 6, "duration": 20.0, "channel": "none"},
                              "output": {"store": str(tmp_path / "r.sqlite")}})
    assert (e.replications, e.seed) == (2, 7) and isinstance(e.replications, int)
    with pytest.raises(ExperimentError, match="initial_window.*must be an integer"):
        experiment(2.5)
