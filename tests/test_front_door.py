"""The front door (issue 34's reproducers): writes that fail say so in one line, a device is never replaced by a
file, a group without its command names its commands, ``python -m tcpfade`` runs, subpackages load as attributes,
``import tcpfade`` imports nothing heavy, and ``--json`` is JSON."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tcpfade
from tcpfade.cli import main

FULL = Path("/dev/full")


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("tcpfade: "), err
    return err


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")
def test_a_write_to_a_full_device_is_an_error_and_the_device_stays(capsys):
    # Before: "wrote /dev/full", status 0, and /dev/full renamed over by a regular file holding the CSV. Then: refused
    # once the write failed; now before any work (a device other than /dev/null and the standard streams).
    assert main(["channel", "table1", "--csv", str(FULL)]) == 2
    assert "--csv = '/dev/full' is not allowed: is a device, not a file to write into" in _one_line(capsys)
    assert stat.S_ISCHR(FULL.stat().st_mode)
    with pytest.raises(tcpfade.ParameterError, match="path = '/dev/full' is not allowed: is a device"):
        tcpfade.save_trace(FULL, [0, 1, 0])
    assert stat.S_ISCHR(FULL.stat().st_mode)


def test_a_missing_directory_and_a_name_too_long_are_one_line_errors(tmp_path, capsys):
    assert main(["channel", "table1", "--csv", str(tmp_path / "missing" / "t.csv")]) == 2
    assert "does not exist" in _one_line(capsys)
    assert main(["channel", "table1", "--csv", str(tmp_path / ("a" * 300 + ".csv"))]) == 2
    assert "File name too long" in _one_line(capsys)
    assert not list(tmp_path.iterdir())      # no temporary file left behind


def test_a_device_that_takes_writes_gets_the_table(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tcpfade", "channel", "table1", "--csv", "/dev/stdout"],
                         capture_output=True, text=True, timeout=120)
    # Printed first (the result is not lost if a file cannot be written), then the CSV.
    assert out.returncode == 0 and out.stdout.startswith(" fdt  error_rate")
    assert "\nfdt,error_rate,fading_margin_db,p,q,mean_burst\n" in out.stdout


def test_standard_output_redirected_to_a_file_gets_the_table_and_stays_a_link(tmp_path):
    """/dev/stdout is the system's link to /proc/self/fd/1; redirected to a file, the link resolves to a regular file,
    and the atomic rename once replaced the machine's /dev/stdout with a plain file holding the CSV (found by a
    review as root). Under /dev and /proc a path is written in place."""
    stdout = Path("/dev/stdout")
    was_link = stdout.is_symlink()
    out = tmp_path / "out.txt"
    try:
        with out.open("w") as sink:
            done = subprocess.run([sys.executable, "-m", "tcpfade", "channel", "table1", "--csv", "/dev/stdout"],
                                  stdout=sink, stderr=subprocess.PIPE, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert stdout.is_symlink() == was_link
        assert "fdt,error_rate,fading_margin_db,p,q,mean_burst\n" in out.read_text()   # after the printed table
    finally:
        if was_link and not stdout.is_symlink() and os.geteuid() == 0:    # a regression must not break the machine
            stdout.unlink()
            stdout.symlink_to("/proc/self/fd/1")


def test_a_symbolic_link_stays_a_link_and_its_file_gets_the_table(tmp_path, capsys):
    target, link = tmp_path / "target.csv", tmp_path / "link.csv"
    target.write_text("old\n")
    link.symlink_to(target)
    assert main(["channel", "table1", "--csv", str(link)]) == 0
    assert link.is_symlink() and target.read_text().startswith("fdt,error_rate")
    # A link to a file not yet there makes the file; no temporary file is left beside either.
    dangling = tmp_path / "dangling.csv"
    dangling.symlink_to(tmp_path / "made.csv")
    assert main(["channel", "table1", "--csv", str(dangling)]) == 0
    assert dangling.is_symlink() and (tmp_path / "made.csv").read_text().startswith("fdt,error_rate")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.csv", "link.csv", "made.csv", "target.csv"]


def test_a_file_that_is_also_the_redirected_output_keeps_both(tmp_path):
    """`--csv o.txt > o.txt` (or `>> o.txt`): the table written by name, then renamed over the file the shell holds,
    had left the shell writing into a deleted file, and what was printed, and what the file held before, were lost
    (a review). The file is the process's standard output: written through it, after what was printed."""
    out = tmp_path / "o.txt"
    out.write_text("PRE\n")
    with out.open("a") as sink:
        done = subprocess.run([sys.executable, "-m", "tcpfade", "channel", "table1", "--csv", str(out)],
                              stdout=sink, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith("PRE\n") and "fdt,error_rate,fading_margin_db" in text and " fdt  error_rate" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.txt"]


def test_a_loop_of_links_and_a_new_name_under_dev_are_refused_before_the_run(tmp_path, capsys):
    (tmp_path / "a.csv").symlink_to(tmp_path / "b.csv")
    (tmp_path / "b.csv").symlink_to(tmp_path / "a.csv")
    assert main(["channel", "table1", "--csv", str(tmp_path / "a.csv")]) == 2
    assert "Too many levels of symbolic links" in _one_line(capsys)
    assert (tmp_path / "a.csv").is_symlink()
    # A link whose file would go in a missing directory: refused before the run, not after it.
    (tmp_path / "far.csv").symlink_to(tmp_path / "missing" / "x.csv")
    assert main(["channel", "table1", "--csv", str(tmp_path / "far.csv")]) == 2
    assert "missing' does not exist" in _one_line(capsys)
    new = Path("/dev/tcpfade-test-never-made.csv")
    assert main(["channel", "table1", "--csv", str(new)]) == 2
    assert "no file is made under /dev or /proc" in _one_line(capsys) and not new.exists()


def test_an_interrupted_write_leaves_no_temporary_file_and_takes_no_users_file(tmp_path):
    """The temporary file has a name of its own (a user's `k.csv.part` is neither overwritten nor renamed away, and a
    name of 255 bytes is not pushed past the limit by a suffix), is removed whatever stops the write (Ctrl-C too),
    and the result gets the mode a new file gets, or the one the file had."""
    from tcpfade._io import write_file, write_text

    mine = tmp_path / "k.csv.part"
    mine.write_text("mine\n")

    def interrupted(p):
        Path(p).write_text("half")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_file(tmp_path / "k.csv", interrupted, parameter="out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.csv.part"]
    write_text("x\n", tmp_path / "k.csv", "out")
    longest = tmp_path / ("a" * 251 + ".csv")
    write_text("y\n", longest, "out")
    assert mine.read_text() == "mine\n" and longest.read_text() == "y\n"
    mask = os.umask(0o022)
    os.umask(mask)
    assert stat.S_IMODE((tmp_path / "k.csv").stat().st_mode) == 0o666 & ~mask
    (tmp_path / "k.csv").chmod(0o600)
    write_text("z\n", tmp_path / "k.csv", "out")
    assert stat.S_IMODE((tmp_path / "k.csv").stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["k.csv.part", "k.csv", longest.name])


def test_a_link_into_dev_makes_no_file_there_and_a_refused_directory_is_not_left(tmp_path, capsys):
    """A third review: `ln -s /dev d; --csv d/x.csv` made /dev/x.csv (the rule looked at the name, not where it leads),
    and `reproduce --out /dev/shm/new` left the directory it made before refusing it."""
    (tmp_path / "d").symlink_to("/dev")
    assert main(["channel", "table1", "--csv", str(tmp_path / "d" / "tcpfade-test-x.csv")]) == 2
    assert "no file is made under /dev or /proc" in _one_line(capsys)
    assert not Path("/dev/tcpfade-test-x.csv").exists()
    shm = Path("/dev/shm")
    if shm.is_dir():
        made = shm / "tcpfade-test-reproduce"
        assert main(["reproduce", "chockalingam-table1", "--quick", "--out", str(made)]) == 2
        assert "no file is made under /dev or /proc" in _one_line(capsys) and not made.exists()


def test_a_table_to_standard_output_is_csv_whatever_its_name(tmp_path):
    link = tmp_path / "out.parquet"
    link.symlink_to("/dev/stdout")
    out = subprocess.run([sys.executable, "-m", "tcpfade", "channel", "table1", "--csv", str(link)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "\nfdt,error_rate,fading_margin_db,p,q,mean_burst\n" in out.stdout
    assert "PAR1" not in out.stdout and link.is_symlink()


def test_a_dash_is_standard_output(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tcpfade", "channel", "table1", "--csv", "-"], capture_output=True,
                         text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0 and "\nfdt,error_rate,fading_margin_db,p,q,mean_burst\n" in out.stdout
    assert not list(tmp_path.iterdir())   # no file named "-"


def test_a_path_too_long_for_the_temporary_file_is_refused_before_the_run(tmp_path):
    """A legal name whose temporary file beside it would pass PATH_MAX (4096 with its NUL) is refused before the run (a
    review found it failing after); 10 bytes shorter, the table is written."""
    from tcpfade._io import write_text

    def directory(length):
        deep = tmp_path
        while len(os.fsencode(str(deep))) < length:
            deep = deep / ("d" * min(200, length - len(os.fsencode(str(deep))) - 1))
        deep.mkdir(parents=True, exist_ok=True)
        return deep

    long = directory(4075)
    assert len(os.fsencode(str(long / "a.csv"))) < 4095
    why = tcpfade._validate.unwritable(long / "a.csv")
    assert why is not None and "too long for the temporary file" in why
    fits = directory(4058)
    assert tcpfade._validate.unwritable(fits / "a.csv") is None
    write_text("x\n", fits / "a.csv", "out")
    assert (fits / "a.csv").read_text() == "x\n"


def test_sigterm_stops_a_command_as_ctrl_c_does():
    """`kill` (SIGTERM) and a closed terminal (SIGHUP) stop the command as Ctrl-C does, so a file being written is
    removed, not left as a temporary file (a review found `timeout 1.5 tcpfade ... --trace-csv big.csv` left one)."""
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "tcpfade", "simulate-link", "--rate", "1000", "--tau", "0.01",
                             "--beta", "8", "--mean-good", "0.8", "--mean-bad", "0.2", "--seed", "1", "--duration",
                             "1e6"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err.strip().endswith("tcpfade: aborted"), err


def test_root_rewriting_a_users_file_leaves_it_the_users(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root")
    from tcpfade._io import write_text

    f = tmp_path / "theirs.csv"
    f.write_text("old\n")
    os.chown(f, 65534, 65534)
    write_text("new\n", f, "out")
    assert (f.stat().st_uid, f.stat().st_gid, f.read_text()) == (65534, 65534, "new\n")


def test_the_standard_streams_are_writable_by_any_user():
    """Checked as the pre-run rule sees them: /dev/stdout is the process's own output, not a new file in /dev, so a user
    who may not create files in /dev may still write the table there (a review found it refused to non-root)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to become another user")
    code = ("import os, sys; from pathlib import Path; from tcpfade import _validate as v; os.setgid(65534); "
            "os.setuid(65534); print([v.unwritable(Path(p)) for p in ('/dev/stdout', '/dev/stderr', '/dev/null')]); "
            "print(v.unwritable(Path('/etc/x.csv')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "[None, None, None]" and "'/etc' is not writable" in lines[1]


def test_a_group_without_its_command_names_them_in_one_line(capsys):
    assert main([]) == 2
    err = _one_line(capsys)
    assert "command = (none) is not allowed: name one of analyze, analyze-link, channel" in err
    assert main(["channel"]) == 2
    assert "name one of describe, error-vs-snr, fit" in _one_line(capsys)


def test_python_dash_m_tcpfade_is_the_command():
    out = subprocess.run([sys.executable, "-m", "tcpfade", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and tcpfade.__version__ in out.stdout


def test_subpackages_load_as_attributes_and_import_is_light():
    code = ("import sys, tcpfade; heavy = [m for m in ('scipy', 'pandas', 'matplotlib', 'sqlite3') if m in "
            "sys.modules]; print(heavy); print(tcpfade.wcdma.__name__, tcpfade.plots.__name__, tcpfade.sweep.__name__, "
            "tcpfade.reproduce.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONWARNINGS": "error"})
    assert out.returncode == 0, out.stderr
    heavy, names = out.stdout.splitlines()
    assert heavy == "[]"
    assert names == "tcpfade.wcdma tcpfade.plots tcpfade.sweep tcpfade.reproduce"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        tcpfade.nope  # noqa: B018


def _strict_json(text: str):
    def no_constants(name):
        raise AssertionError(f"{name} is not JSON")
    return json.loads(text, parse_constant=no_constants)


def test_json_output_is_json_when_a_figure_is_undefined(capsys):
    # Before: NaN for the shares of bad-state outcomes of a run that saw no bad visit ending.
    assert main(["simulate-link", "--variant", "reno", "--rate", "100", "--tau", "0.01", "--p", "0.99", "--q", "0.9",
                 "--duration", "10", "--seed", "1", "--json"]) == 0
    data = _strict_json(capsys.readouterr().out)
    assert data["p_timeout"] is None and isinstance(data["goodput"], float)


def test_entries_outside_the_fuzzers_reach_refuse_wrong_kinds_with_the_parameter_named(tmp_path):
    import pandas as pd

    import tcpfade.plots as plots
    from tcpfade.analysis import compare
    from tcpfade.plots._figure import pyplot
    from tcpfade.plots.sweep import plot_results

    channel = tcpfade.GilbertElliott.from_burst(0.01, 2)
    analysis = tcpfade.analyze("tahoe", channel)
    sim = tcpfade.simulate("tahoe", channel, slots=10_000, seed=1, trace_slots=50)
    with pytest.raises(tcpfade.ParameterError, match="simulation = AnalysisResult"):
        compare(analysis, analysis)          # before: AttributeError 'AnalysisResult' object has no attribute 'ci'
    with pytest.raises(tcpfade.ParameterError, match="analysis = 1 is not allowed"):
        compare(1, sim)
    assert set(compare(analysis, sim).columns) >= {"analysis_low", "simulated", "agrees"}
    with pytest.raises(tcpfade.ParameterError, match="variants = None is not allowed"):
        tcpfade.simulate_transfers(None, size_bytes=1000)   # before: TypeError
    with pytest.raises(tcpfade.ParameterError, match="needs the columns fdt, snr_db, error_rate"):
        plots.plot_error_vs_snr(pd.DataFrame())             # before: KeyError 'error_rate'
    fig, one = pyplot().subplots()
    with pytest.raises(tcpfade.ParameterError, match="ax = .* must be 2 matplotlib Axes"):
        plots.plot_slot_trace(sim.trace, ax=one)            # before: TypeError (unpacking one Axes)
    with pytest.raises(tcpfade.ParameterError, match="its directory .* does not exist"):
        plots.plot_slot_trace(sim.trace, path=tmp_path / "missing" / "t.png")   # before: FileNotFoundError
    assert plots.plot_slot_trace(sim.trace, path=tmp_path / "t.png") is not None and (tmp_path / "t.png").exists()
    frame = pd.DataFrame({"p": [0.1, 0.2], "goodput_bps": [1.0, 2.0]})
    with pytest.raises(tcpfade.ParameterError, match="must be different columns"):
        plot_results(frame, x="goodput_bps", y="goodput_bps")   # before: ValueError from pandas
    pyplot().close("all")


def test_a_forgotten_fdt_and_a_link_without_a_channel_are_said(capsys):
    # Before: --error-rate without --fdt quietly ran i.i.d. losses (0.224 instead of 0.697), and a link run with no
    # channel quietly ran loss-free; neither result said which channel it ran on.
    assert main(["simulate", "--variant", "newreno", "--error-rate", "0.1", "--seed", "1", "--slots", "1e5"]) == 0
    out = capsys.readouterr()
    assert "independent (i.i.d.) losses; add --fdt" in out.err
    assert "channel                        bernoulli(error_rate=0.1, mean_burst=1.111)" in out.out
    # now a run never picks a channel: none given is an error of one line, a loss-free link is asked for by name
    assert main(["simulate-link", "--rate", "100", "--tau", "0.01", "--duration", "5", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tcpfade: channel options = '(none)' is not allowed") and "--lossless" in err and err.count("\n") == 1
    assert main(["simulate-link", "--rate", "100", "--tau", "0.01", "--duration", "5", "--seed", "1", "--lossless"]) == 0
    assert "none (no channel losses)" in capsys.readouterr().out
    with pytest.raises(tcpfade.ParameterError, match="channel = a missing value is not allowed: give a channel"):
        tcpfade.simulate_link("reno", rate=100, tau=0.01, duration=5, seed=1)
    with pytest.raises(tcpfade.ParameterError, match="channel = a missing value is not allowed: give a channel"):
        tcpfade.simulate_transfer("reno", size_bytes=10_000)
    for argv in (["transfer", "--size-bytes", "10000"], ["emulate", "bulk", "--rate", "125", "--tau", "0.04", "--seed", "1"],
                 ["emulate", "--rate", "125", "--tau", "0.04", "--seed", "1", "--", "true"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("tcpfade: channel options = '(none)' is not allowed") and "--lossless" in err, err
    assert main(["simulate-link", "--rate", "100", "--tau", "0.01", "--duration", "5", "--seed", "1",
                 "--mean-good", "0.8", "--mean-bad", "0.2"]) == 0
    assert "continuous-two-state(mean_good=0.8, mean_bad=0.2, loss_rule='any-instant'" in capsys.readouterr().out


def test_plot_refuses_to_pool_a_parameter_it_was_not_told_about(tmp_path, capsys):
    import pandas as pd

    rows = [{"variant": var, "wmax": w, "seed": s, "throughput": 0.5 + 0.1 * s + (0.2 if var == "reno" else 0)}
            for var in ("tahoe", "reno") for w in (6, 24) for s in (1, 2)]
    table = tmp_path / "runs.csv"
    pd.DataFrame(rows).to_csv(table, index=False)
    out = tmp_path / "p.png"
    # Before: both variants averaged as if they were replications, under a "95%" band.
    assert main(["plot", str(table), "--x", "wmax", "--y", "throughput", "--out", str(out)]) == 2
    assert "variant vary within a point: add them to --group, or to --pool" in _one_line(capsys)
    assert main(["plot", str(table), "--x", "wmax", "--y", "throughput", "--group", "variant", "--out", str(out)]) == 0
    assert main(["plot", str(table), "--x", "wmax", "--y", "throughput", "--pool", "variant", "--out", str(out)]) == 0


def test_a_grid_too_large_or_a_bad_fdt_is_refused_before_anything_runs(tmp_path, capsys):
    out = str(tmp_path / "f.png")
    # Before: MemoryError for 6.9 EiB, "internal error (please report)".
    assert main(["channel", "error-vs-snr", "--fdt", "0.01", "--snr-db", "0:1e9:1e-9", "--out", out]) == 2
    assert "gives 1e+18 SNR points; at most 10,000" in _one_line(capsys)
    assert main(["channel", "error-vs-snr", "--fdt", "0.01,nan", "--snr-db", "0:2:1", "--out", out]) == 2
    assert "--fdt = nan is not allowed" in _one_line(capsys)


def test_the_work_estimate_counts_the_fading_simulators_cost(monkeypatch):
    # Issue 34's reproducer: with a 10-s limit, 10⁹ slots of 64 cisoids were accepted and took about 300 s.

    monkeypatch.setenv("TCPFADE_WORK_LIMIT", str(10.0))
    cisoids = tcpfade.ThresholdFading(0.5, fading_margin_db=3, fading_model="cisoids")
    with pytest.raises(tcpfade.ParameterError, match="slots = 1000000000 is not allowed: a run of 1000000000 slots "
                                                      "on this channel .each costs 19.2 plain slots"):
        tcpfade.simulate("oldtahoe", cisoids, wmax=1, rto_slots=30, slots=10**9, seed=2)
    # What the limit allows still runs (the estimate's calibration against the clock, 2.5 ns an oscillator, is in
    # the comment of ThresholdFading._slot_cost: timings belong to benchmarks, not tests).
    assert tcpfade.simulate("oldtahoe", cisoids, wmax=1, rto_slots=30, slots=10**6, seed=2).slots == 10**6
    with pytest.raises(tcpfade.ParameterError, match="duration = 1000000.0 is not allowed: a link run"):
        tcpfade.simulate_link("reno", rate=1000, tau=0.01, channel=cisoids, duration=1e6, seed=1)


def test_a_chain_that_falls_apart_is_refused_by_the_core_state_reduction():
    # Before: 139 s (56 s on an idle machine) of numpy state reduction, then this refusal; the core's reduction
    # skips the zeros it keeps and reaches the same verdict in about 3 s (docs/performance.md).
    with pytest.raises(tcpfade.ParameterError, match="falls apart in double precision"):
        tcpfade.analyze_link("reno", rate=1e4, tau=0.079, buffer=5, channel=tcpfade.ContinuousTwoState(1e-6, 1e6))


def _tiny_sweep(directory: Path) -> Path:
    study = directory / "s.toml"
    study.write_text('[sweep]\nmodel = "simulate"\nseed = 1\nreplications = 1\n[fixed]\nslots = 10000\n'
                     'channel = "bernoulli"\n[axes]\nvariant = ["tahoe"]\nerror_rate = [0.01, 0.1]\n')
    assert main(["sweep", "run", str(study)]) == 0
    return study


def test_a_foreign_store_is_named_and_a_read_only_store_is_still_read(tmp_path, capsys):
    import sqlite3

    foreign = tmp_path / "old.sqlite"
    with sqlite3.connect(foreign) as con:
        con.execute("CREATE TABLE results (a, b)")
    # Before: "internal error (please report): OperationalError: no such column: experiment".
    assert main(["sweep", "export", str(foreign), "--out", str(tmp_path / "o.csv")]) == 2
    assert "is not a tcpfade results store of a version this one reads: its results table lacks key" in \
        _one_line(capsys)
    study = _tiny_sweep(tmp_path)
    capsys.readouterr()
    mount = tmp_path / "ro"
    mount.mkdir()
    bound = subprocess.run(["mount", "--bind", str(tmp_path), str(mount)], capture_output=True).returncode == 0
    if not bound or subprocess.run(["mount", "-o", "remount,ro,bind", str(mount)], capture_output=True).returncode:
        if bound:
            subprocess.run(["umount", str(mount)], capture_output=True)
        pytest.skip("no read-only bind mount here (needs root)")
    try:
        # Before: "not a tcpfade results store" (the read had tried to switch the journal mode, a write).
        assert main(["sweep", "export", str(mount / "s.sqlite"), "--out", str(tmp_path / "e.csv")]) == 0
        assert main(["sweep", "status", str(mount / study.name)]) == 0
        assert "2 of 2 points done" in capsys.readouterr().out
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def test_reproduce_out_is_refused_like_every_other_output_when_its_parent_is_missing(tmp_path, capsys):
    # Before: the missing folders were created, where every other command refuses a missing directory.
    deep = tmp_path / "missing" / "results"
    assert main(["reproduce", "chockalingam-table1", "--quick", "--out", str(deep)]) == 2
    assert "its parent directory" in _one_line(capsys) and not (tmp_path / "missing").exists()
    from tcpfade.reproduce import reproduce

    with pytest.raises(tcpfade.ParameterError, match="out_dir = .* its parent directory"):
        reproduce("chockalingam-table1", deep, quick=True)
    assert main(["reproduce", "chockalingam-table1", "--quick", "--out", str(tmp_path / "results")]) == 0


def test_wcdma_entries_answer_the_reproducers(tmp_path):
    import numpy as np

    from tcpfade import wcdma
    from tcpfade.wcdma.mapping import calibrate

    bits = np.random.default_rng(1).integers(0, 2, 100)
    signs = 1 - 2 * wcdma.conv_encode(bits).astype(float)
    # Before: 42 of 100 bits wrong at 1e37 (float32 path sums overflowed); the decision cannot depend on the scale.
    for scale in (1e-300, 1.0, 1e30, 1e37, 3e38):
        assert (wcdma.viterbi_decode(scale * signs, 100) == bits).all(), scale
    with pytest.raises(tcpfade.ParameterError, match="s0 = -1 is not allowed"):
        wcdma.universal_curve(0.0, 6.0, s0=-1)                  # before: returned -1.0
    with pytest.raises(tcpfade.ParameterError, match="pe = '0.1' is not allowed"):
        wcdma.universal_curve("0.1", 6.0)                        # before: accepted
    with pytest.raises(tcpfade.ParameterError, match="A = nan is not allowed"):
        wcdma.universal_curve(0.1, 6.0, A=float("nan"))          # before: 0.46
    with pytest.raises(tcpfade.ParameterError, match="block_error_probability = .* at least 1 element"):
        wcdma.tcp_over_blocks(np.zeros(1500, int), tti_frames=2, block_error_probability=np.array([]))   # NaN
    for text, needle in (('{"tti": 5}', "it has no 'tti' object"), (b"\xff\xfe", "cannot be read as a calibration"),
                         ('{"tti": {"8": {"beta": "x", "awgn": [1], "delta": 0.1}}}', "malformed entry for TTI 8")):
        table = tmp_path / "m.json"
        table.write_bytes(text if isinstance(text, bytes) else text.encode())
        with pytest.raises(tcpfade.ParameterError, match=needle):   # before: TypeError, UnicodeDecodeError, ...
            wcdma.mapping_for(8, path=table)
    with pytest.raises(tcpfade.ParameterError, match="string_blocks = 0 is not allowed"):
        calibrate(blocks=10, strings=1, string_blocks=0, path=tmp_path / "c.json")   # before: blamed blocks
    assert not (tmp_path / "c.json").exists()


def test_what_the_long_fuzz_profile_found_is_refused_in_one_line():
    # 2026-11-26's long profile: a calibration table read from a device that never ends (MemoryError), and a Dask
    # address distributed cannot parse (its ValueError).
    with pytest.raises(tcpfade.ParameterError, match="path = '/dev/full' is not allowed: is not a regular file"):
        tcpfade.wcdma.mapping_for(2, path="/dev/full")
    with pytest.raises(tcpfade.ParameterError, match="dask = ';x' is not allowed: is not a scheduler's address"):
        tcpfade.runs(tcpfade.simulate, master_seed=1, dask=";x")


def test_the_long_profiles_plot_and_curve_defects_are_refused_before_any_work():
    import numpy as np
    import pandas as pd

    table = pd.DataFrame({"fdt": [0.01, 0.01], "snr_db": [np.inf, 0.0], "error_rate": [0.1, 0.2],
                          "error_rate_low": [0.0, 0.1], "error_rate_high": [0.2, 0.3]})
    with pytest.raises(tcpfade.ParameterError, match="column 'snr_db' holds NaN or infinite values"):
        tcpfade.plots.plot_error_vs_snr(table)            # before: matplotlib's "Axis limits cannot be NaN or Inf"
    with pytest.raises(tcpfade.ParameterError, match="sir_db = an array of 1000000 SIRs is not allowed: 1000000 "
                                                      "points of 1000 blocks"):
        tcpfade.wcdma.awgn_curve(np.zeros(10**6), seed=1)  # before: accepted, then ran for hours


def test_the_third_sessions_review_findings_are_refused_in_one_line():
    """Found by a fresh-eyes review of issue 34 (2026-11-26): foreign TypeErrors from paths, text and True/False
    taken as numbers, a Doppler list that numpy could not broadcast, a fit of points that determine nothing."""
    import numpy as np

    from tcpfade import reproduce, sweep, wcdma

    for call, name in ((lambda: reproduce.reproduce("chockalingam-table1", None, quick=True), "out_dir"),
                       (lambda: sweep.load_experiment(None), "path"), (lambda: sweep.load_experiment(1), "path"),
                       (lambda: wcdma.mapping_for(path=False), "path"), (lambda: tcpfade.marcum_q("0.5", 2), "a"),
                       (lambda: tcpfade.marcum_q(True, 2), "a"), (lambda: wcdma.block_error_rate(True, blocks=20, seed=1),
                                                                  "sir_db"),
                       (lambda: tcpfade.fading_autocorrelation(0.01, True), "lag"),
                       (lambda: wcdma.conv_encode(True), "bits")):
        with pytest.raises(tcpfade.ParameterError, match=f"^{name} = .* is not allowed"):
            call()
    assert wcdma.conv_encode(np.array([1, 0, 1], dtype=bool)).shape == (22,)   # bits may be True/False
    pe = np.array([0.01, 0.02, 0.05, 0.1, 0.2])
    with pytest.raises(tcpfade.ParameterError, match="doppler_hz = an array of 0 values is not allowed"):
        wcdma.fit_universal_curve(pe, wcdma.universal_curve(pe, 6.0), [])
    with pytest.raises(tcpfade.ParameterError, match="throughput = '5 points all at 0.8' is not allowed: must vary"):
        wcdma.fit_universal_curve(pe, np.full(5, 0.8), 6.0)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")        # no numpy overflow warning: 1/(1 + e^inf) = 0 is the limit
        assert wcdma.universal_curve([0.01, 0.1], 6.0, alpha=2 ** 62)[1] == 0.0


def test_the_reviews_wrong_names_and_unchecked_sweep_arguments():
    from tcpfade import sweep

    with pytest.raises(tcpfade.ParameterError, match="^model = 'bogus' is not allowed: must be one of simulate"):
        sweep.model_identity("bogus")
    with pytest.raises(tcpfade.ParameterError, match="^model = 'bogus' is not allowed"):
        sweep.point_seed(1, "bogus", {}, 0)
    with pytest.raises(tcpfade.ParameterError, match="^mean_burst = .* is too long"):
        tcpfade.GilbertElliott.from_burst(error_rate=0.05, mean_burst=2 ** 62)
    with pytest.raises(tcpfade.ParameterError, match="^master_seed = -1 is not allowed"):
        tcpfade.runs(tcpfade.simulate_link, variant="reno", rate=100, tau=0.01, channel=None, duration=10,
                     master_seed=-1)


def test_a_forwarded_keyword_is_blamed_on_the_function_called_and_runs_checks_the_grid_against_the_function():
    """The review's last findings: a misspelt keyword of wcdma.simulate named simulate_system and listed only its
    keywords; runs() handed an unknown keyword, or a function returning nothing, to a raw TypeError."""
    from tcpfade import wcdma

    with pytest.raises(tcpfade.errors.ParameterTypeError, match=r"^sackk = True is not allowed: simulate has no parameter "
                                                         r"'sackk' \(it takes users, .*\bsack\b.*; and, for "
                                                         r"simulate_system, .*\bcell_side\b"):
        wcdma.simulate(sackk=True, seed=1)
    with pytest.raises(tcpfade.errors.ParameterTypeError, match=r"^x = \[1, 2\] is not allowed: print has no parameter 'x'"):
        tcpfade.runs(print, x=[1, 2], seeds=None)
    with pytest.raises(tcpfade.ParameterError, match="^function = 'print' is not allowed: must return a result "
                                                     "record or a dict; it returned NoneType"):
        tcpfade.runs(print, end=["a"], seeds=None)
    with pytest.raises(tcpfade.errors.ParameterTypeError, match="^p = 0.1 is not allowed: analyze has no parameter 'p'"):
        tcpfade.runs(tcpfade.analyze, variant=["reno"], p=0.1, seeds=None)


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")
def test_standard_output_on_a_full_device_is_named_as_the_output():
    with open(FULL, "w") as full:
        done = subprocess.run([sys.executable, "-m", "tcpfade", "channel", "table1", "--json"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == ("tcpfade: output = 'standard output' is not allowed: the operating system refused it "
                           "(No space left on device)\n")


def test_a_curve_fit_of_points_where_the_curve_is_flat_is_refused_not_answered_with_its_start():
    """eq. (3) is S(0) wherever x̃ ≤ x_s: at the paper's parameters and 6 Hz, x_s = 1/(1.39·6 + 2.78) − 0.03
    = 0.0599, so P_e ≤ 10^(3(0.0599 − 1)) = 0.0015. Points below it moved no parameter, and the fit handed back
    the paper's values as if it had found them."""
    import numpy as np

    from tcpfade import wcdma

    flat = np.logspace(-8, -3, 10)
    noisy = 0.92 + 0.002 * np.sin(np.arange(10))
    with pytest.raises(tcpfade.ParameterError, match=r"^pe = '10 points at P_e ≤ 0.001' is not allowed: must reach "
                                                     r"where the curve falls \(P_e above 0.0015 at"):
        wcdma.fit_universal_curve(flat, noisy, 6.0)
    with pytest.raises(tcpfade.ParameterError, match=r"^pe = '2 points above 0' is not allowed: must hold at least 5"):
        wcdma.fit_universal_curve([0, 0, 0, 0, 0.1, 0.2], np.linspace(0.2, 0.9, 6), 6.0)
    pe = np.logspace(-3, -0.3, 20)                        # reaching into the slope, the paper's curve comes back
    assert wcdma.fit_universal_curve(pe, wcdma.universal_curve(pe, 6.0), 6.0).k == pytest.approx(0.03, abs=1e-9)


def test_a_transfer_over_a_random_channel_needs_its_seed_and_a_lossless_one_takes_none():
    """No silent default seed: two transfers that differ by a forgotten seed would look like replications."""
    with pytest.raises(tcpfade.ParameterError, match=r"^seed = a missing value is not allowed: a transfer over a "
                                                     r"random channel \(Bernoulli\) needs a seed"):
        tcpfade.simulate_transfer("reno", tcpfade.Bernoulli(0.01), size_bytes=10_000)
    lossless = tcpfade.simulate_transfer("reno", None, size_bytes=10_000)
    assert lossless.to_dict() == tcpfade.simulate_transfer("reno", None, size_bytes=10_000, seed=7).to_dict() | {
        "seed": 0}
    trace = tcpfade.TraceChannel([0, 1, 0, 0], wrap=True)
    assert tcpfade.simulate_transfer("reno", trace, size_bytes=10_000).completed
    assert main(["transfer", "--variant", "reno", "--phase", "1", "--drop-rate", "0.1"]) == 2
    assert main(["transfer", "--variant", "reno", "--lossless", "--size-bytes", "10000"]) == 0


def test_delayed_ack_means_the_same_in_every_command(capsys):
    """One word, one meaning: ``--delayed-ack none`` is an ACK per segment in ``transfer`` as in ``simulate-link``, and 0
    is refused by both as the API refuses it (``transfer`` once read 0 as "an ACK per segment")."""
    for command in (["transfer", "--variant", "reno", "--lossless", "--size-bytes", "10000"],
                    ["simulate-link", "--variant", "reno", "--lossless", "--rate", "100", "--tau", "0.01",
                     "--buffer", "10", "--duration", "50", "--seed", "1"]):
        capsys.readouterr()
        assert main([*command, "--delayed-ack", "0"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--delayed-ack = 0.0 is not allowed" in err, err
        # A value that is not a finite number hears the range it missed too, not only that it is not a number.
        for bad in ("nan", "1e400"):
            assert main([*command, "--delayed-ack", bad]) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "must be a finite number in (0, 1000]" in err, err
        assert main([*command, "--delayed-ack", "none", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        row = out[0] if isinstance(out, list) else out
        assert row["parameters"]["delayed_ack"] is None if "parameters" in row else row["delayed_ack"] is None, row
    with pytest.raises(tcpfade.ParameterError, match="delayed_ack"):
        tcpfade.simulate_transfer("reno", None, size_bytes=10_000, delayed_ack=0)


def test_a_packet_spanning_more_channel_visits_than_memory_holds_is_refused_not_aborted():
    """Found by the long fuzz (seed 29): ContinuousTwoState(1e-6, 1e-6).packet_losses([0], 200) kept the 2·10⁸
    visits a 200-s packet spans and the allocation aborted the process. The link, transfer and emulator runs keep
    one packet's visits the same way, and are checked the same way."""
    import numpy as np

    ch = tcpfade.ContinuousTwoState(1e-6, 1e-6)
    with pytest.raises(tcpfade.ParameterError, match=r"^duration = 1000000.0 is not allowed: the channel's good and bad "
                                                     r"visits within one packet's 1e\+06 s \(1e\+12 of them\) would need"):
        ch.packet_losses(np.array([0.0]), 1e6, seed=1)
    with pytest.raises(tcpfade.ParameterError, match=r"^rate = 1e-06 is not allowed: the channel's good and bad visits"):
        tcpfade.simulate_link("reno", rate=1e-6, tau=0.01, channel=ch, duration=1e9, batches=2, seed=1)
    assert ch.packet_losses(np.array([0.0, 1.0]), 1e-3, seed=1).shape == (2,)   # an ordinary window passes


def test_a_first_query_far_ahead_on_a_continuous_channel_keeps_no_path_behind_it():
    """The long fuzz's seed 29 abort: packet_losses at t = 2³² s on a channel of 60-s good periods generated the
    1.4·10⁸ sojourns before it into memory (4 GiB asked, the process aborted). Run in a process held to 3 GiB of
    address space, which the old path exceeded."""
    code = ("import resource, numpy as np, tcpfade\n"
            "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
            "ch = tcpfade.ContinuousTwoState(60.282776140927886, 0.001, loss_good=1e-300, loss_rule='vdeldrop')\n"
            "print(ch.packet_losses(np.array([4294967296.0]), 2.0364123315619125, seed=912).tolist())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() in ("[0]", "[1]")


@pytest.mark.parametrize("variable, text", [("TCPFADE_WORK_LIMIT", ""), ("TCPFADE_WORK_LIMIT", "abc"),
                                            ("TCPFADE_WORK_LIMIT", "-5"), ("TCPFADE_MEMORY_LIMIT", "nan")])
def test_a_bad_limit_in_the_environment_is_one_line_and_a_good_one_takes_effect_after_import(variable, text,
                                                                                             monkeypatch):
    """The second review: TCPFADE_WORK_LIMIT= gave a traceback on `import tcpfade` and on every command; 1e9 was not
    a number of bytes; -5 was taken and refused everything; the limits were read once, at import."""
    env = {**os.environ, variable: text}
    done = subprocess.run([sys.executable, "-m", "tcpfade", "simulate", "--variant", "reno", "--p", "0.9", "--q",
                           "0.5", "--slots", "1000", "--seed", "1"], capture_output=True, text=True, env=env,
                          timeout=120)
    if text.strip():
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith(f"tcpfade: {variable} = {text.strip()!r} is not allowed: must be a positive")
    else:
        assert done.returncode == 0, done.stderr        # empty: unset, the default
    monkeypatch.setenv("TCPFADE_MEMORY_LIMIT", "1e6")
    with pytest.raises(tcpfade.ParameterError, match=r"^trace_slots = 1000000 is not allowed: .* this machine allows 977 KiB per request"):
        tcpfade.simulate("reno", tcpfade.Bernoulli(0.1), slots=10**6, seed=1, trace_slots=10**6)


def test_the_second_reviews_foreign_exceptions_are_project_errors(tmp_path):
    """A 300-character file name, an unknown keyword of reproduce, seed given to simulate_transfers, a decision
    rule that cannot take its keywords (refused where it enters, not at the first cycle's end), numpy booleans."""
    import numpy as np

    from tcpfade.errors import ParameterTypeError

    long = str(tmp_path / ("a" * 300 + ".npy"))
    with pytest.raises(tcpfade.ParameterError, match=r"^path = .* is not allowed: cannot be used: File name too long"):
        tcpfade.save_trace(long, np.array([0, 1], dtype=np.uint8))
    with pytest.raises(tcpfade.ParameterError, match=r"^out_dir = .* is not allowed: cannot be created \(File name"):
        tcpfade.reproduce.reproduce("chockalingam-table1", str(tmp_path / ("c" * 300)), quick=True)
    with pytest.raises(ParameterTypeError, match="^bogus = 1 is not allowed: reproduce has no parameter 'bogus'"):
        tcpfade.reproduce.reproduce("chockalingam-table1", str(tmp_path), quick=True, bogus=1)
    with pytest.raises(ParameterTypeError, match="^seed = 3 is not allowed: is not a parameter of simulate_transfers"):
        tcpfade.simulate_transfers(["reno"], tcpfade.ContinuousTwoState.on_off(10, 1 / 3), seeds=2,
                                   size_bytes=100_000, seed=3)
    with pytest.raises(ParameterTypeError, match=r"^decision = .* is not allowed: must accept the keyword arguments "
                                                 r"trigger, rtt1"):
        tcpfade.simulate_transfer("probing", tcpfade.Bernoulli(0.1), size_bytes=200_000, seed=1, decision=lambda: 1)
    # numpy booleans are booleans: as keywords, and as a decision rule's answer (a comparison of numpy values).
    assert tcpfade.simulate_link("newreno", rate=100, tau=0.01, channel=None, duration=20, seed=1,
                                 sack=np.bool_(True)).parameters["sack"] is True
    ruled = tcpfade.simulate_transfer("probing", tcpfade.Bernoulli(0.1), size_bytes=200_000, seed=1,
                                      decision=lambda **m: np.float64(m["rtt1"]) < np.float64(1.0))
    assert ruled.completed


def test_a_links_row_names_the_parts_it_ran_with_not_only_the_profile():
    """The second review: profile="linux", sack=False ran without RACK (its `requires`) and the row said only
    profile='linux'. Every part and timer is now in to_dict, as the run had them."""
    r = tcpfade.simulate_link("newreno", rate=100, tau=0.01, mean_good=0.8, mean_bad=0.2, seed=1, duration=20,
                              profile="linux", sack=False).to_dict()
    assert (r["profile"], r["sack"], r["prr"], r["rack"], r["min_rto"], r["initial_window"]) == \
        ("linux", False, True, False, 0.2, 10)


def test_a_wcdma_duration_the_declaration_allows_runs_and_one_it_does_not_is_refused_at_entry():
    """The second review: duration = 1 was declared allowed, computed for 1.5 s, then refused naming block_errors."""
    from tcpfade import wcdma

    with pytest.raises(tcpfade.ParameterError, match=r"^duration = 1 is not allowed: must be a finite number in "
                                                     r"\[2, 1e\+06\]"):
        wcdma.simulate(users=2, duration=1, seed=1)
    for tti in (1, 8):   # the shortest allowed run holds the interval's batches at every TTI
        assert len(wcdma.simulate(users=2, duration=2, seed=1, tti_frames=tti).to_frame()) == 2


def test_the_second_reviews_command_line_traps():
    """Standard output closed (>&-) lost the result without a word; --phase alone ran a lossless channel; a seed of
    2**64 - 1 was read through a float (and reported + 1); --replications took no 1e0; runs took seed beside seeds
    and ignored it, and refused any function that is not a model."""
    closed = subprocess.run(f"{sys.executable} -m tcpfade simulate --variant reno --p 0.9 --q 0.5 --seed 1 "
                            "--slots 1e4 >&-", shell=True, capture_output=True, text=True, timeout=120)
    assert closed.returncode == 2
    assert closed.stderr == ("tcpfade: output = 'standard output' is not allowed: it is closed (nothing could be "
                             "shown)\n")
    assert main(["transfer", "--variant", "reno", "--phase", "10", "--seed", "1"]) == 2
    top = str(2**64 - 1)
    assert main(["transfer", "--variant", "reno", "--phase", "10", "--drop-rate", "0.3", "--seed", top,
                 "--replications", "2"]) == 2
    assert main(["transfer", "--variant", "reno", "--phase", "10", "--drop-rate", "0.3", "--seed", top,
                 "--size-bytes", "10000", "--replications", "1e0", "--json"]) == 0
    with pytest.raises(tcpfade.errors.ParameterTypeError, match=r"^seed = \[3\] is not allowed: is drawn by runs"):
        tcpfade.runs(tcpfade.simulate, variant=["tahoe"], channel=tcpfade.Bernoulli(0.1), slots=1000, seeds=[7],
                     seed=[3])
    rows = tcpfade.runs(lambda x, seed: {"y": x + seed % 2}, x=[1, 2], seeds=2)
    assert len(rows) == 4 and list(rows.columns) == ["x", "seed", "y"]


def test_masked_values_and_2d_arrays_are_refused_in_one_line(tmp_path):
    """The second review: numpy.ma.masked became 0.0; a 2-d array's repr made a message of several lines, and a
    .npy trace file's error was told as '(array)'."""
    import numpy as np

    for call in (lambda: tcpfade.Bernoulli(np.ma.masked),
                 lambda: tcpfade.simulate("reno", tcpfade.Bernoulli(0.1), slots=1000, seed=1, wmax=np.ma.masked)):
        # the rule's own words (a probability in [0, 1], an integer in a range), then why this value has none
        with pytest.raises(tcpfade.errors.ParameterTypeError, match=r"= 'numpy.ma.masked' is not allowed: must be an? "
                                                                    r"[a-z]+ .*\(a masked value has none\)$"):
            call()
    with pytest.raises(tcpfade.errors.TraceFormatError) as e:
        tcpfade.TraceChannel(np.zeros((3, 3)))
    assert "\n" not in str(e.value)
    path = tmp_path / "2d.npy"
    np.save(path, np.zeros((3, 3), dtype=np.uint8))
    done = subprocess.run([sys.executable, "-m", "tcpfade", "channel", "fit", str(path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == (f"tcpfade: trace file = {str(path)!r} is not allowed: must be a one-dimensional array of 0 "
                           "(received) and 1 (lost), one per slot; this has shape (3, 3)\n")


def test_the_second_reviews_sweep_reproduce_and_trace_traps(tmp_path, capsys):
    """An experiment of 2·10⁶ runs walked them for minutes before anything; an unknown experiment exported an empty
    file; a figure named beside --all ran every figure; a trace too short for the run advised a `wrap` the command
    line does not have."""
    from tcpfade.sweep import Store

    big = tmp_path / "big.toml"
    big.write_text('[sweep]\nmodel = "simulate"\nreplications = 2000000\n[fixed]\nvariant = "reno"\nfdt = 0.01\n'
                   'error_rate = 0.1\nslots = 1000\n')
    assert main(["sweep", "status", str(big)]) == 2
    assert "2,000,000 runs is more than one experiment holds (1,000,000)" in capsys.readouterr().err
    small = tmp_path / "small.toml"
    small.write_text(f'[sweep]\nmodel = "simulate"\nname = "x"\n[fixed]\nvariant = "reno"\nfdt = 0.01\n'
                     f'error_rate = 0.1\nslots = 1000\n[output]\nstore = "{tmp_path / "s.sqlite"}"\n')
    assert main(["sweep", "run", str(small)]) == 0
    with pytest.raises(tcpfade.ParameterError, match=r"^experiment = 'nosuch' is not allowed: must be one of the "
                                                     r"store's experiments \(x\)"):
        Store(tmp_path / "s.sqlite").dataframe(experiment="nosuch")
    assert main(["reproduce", "chockalingam-table1", "--all", "--quick", "--out", str(tmp_path / "r")]) == 2
    assert "--all = True is not allowed: runs every figure" in capsys.readouterr().err
    tcpfade.save_trace(tmp_path / "t.bin", [0] * 999 + [1])
    assert main(["simulate-link", "--rate", "100", "--tau", "0.01", "--beta", "8", "--seed", "1", "--duration", "20",
                 "--trace-file", str(tmp_path / "t.bin")]) == 2
    assert capsys.readouterr().err == ("tcpfade: --trace-file = (1000 slots) is not allowed: the run needs more slots "
                                       "than the trace holds (give a longer trace, or a shorter --duration or "
                                       "--slots)\n")


def test_rays_take_the_list_the_help_promises_in_python_and_on_the_command_line(capsys):
    import numpy as np

    from tcpfade import wcdma

    for rays in ("0,-3", "0 -3", [0, -3], np.array([0.0, -3.0])):
        assert wcdma.simulate(users=2, duration=2, seed=1, rays=rays).parameters["rays"] == [0.0, -3.0]
    assert main(["wcdma", "simulate", "--users", "2", "--duration", "2", "--seed", "1", "--rays", "0,-3"]) == 0
    with pytest.raises(tcpfade.ParameterError, match=r"^rays = \[\] is not allowed: must be one of vehicular-a-5"):
        wcdma.simulate(users=2, duration=2, seed=1, rays=[])


def test_the_second_reviews_last_traps(capsys):
    """--compare-slots 0 was blamed on --slots; a progress callable's last report was 0.75 at the end; the
    documented producer and plotter of Fig. 7 did not fit together."""
    assert main(["analyze", "--variant", "tahoe", "--error-rate", "0.1", "--fdt", "0.016", "--compare-slots", "0"]) == 2
    assert capsys.readouterr().err.startswith("tcpfade: --compare-slots = 0 is not allowed")
    seen: list[float] = []
    tcpfade.simulate("reno", tcpfade.Bernoulli(0.1), slots=10**6, seed=1, progress=seen.append)
    assert seen and seen[-1] == 1.0
    import matplotlib
    matplotlib.use("Agg")
    table = tcpfade.bit_level_error_rate(0.016, [10, 20], packets=1000, seed=1)
    assert list(table.columns)[:2] == ["fdt", "snr_db"] and (table.fdt == 0.016).all()
    assert tcpfade.plots.plot_error_vs_snr(table) is not None


def test_probings_own_parameters_are_refused_for_other_variants_not_ignored():
    """The second review: best_rtt, probe_low/high and decision were silently ignored by reno."""
    channel = tcpfade.Bernoulli(0.1)
    for given in (dict(best_rtt="data"), dict(probe_low=0.5), dict(decision=lambda **m: True)):
        name = next(iter(given))
        with pytest.raises(tcpfade.ParameterError, match=rf"^{name} = .* is not allowed: is TCP-Probing's "
                                                         r"\(variant='probing'\); reno has no probe cycle"):
            tcpfade.simulate_transfer("reno", channel, seed=1, size_bytes=10_000, **given)
    assert tcpfade.simulate_transfer("probing", channel, seed=1, size_bytes=10_000, best_rtt="data").completed


def test_compare_refuses_an_analysis_and_a_run_of_different_set_ups():
    """The second review: a tahoe analysis at Wmax 6 beside a reno run at 12 over another channel was compared,
    every row disagreeing."""
    from tcpfade.analysis import compare

    channel = tcpfade.GilbertElliott.from_burst(0.01, 2)
    analysis = tcpfade.analyze("tahoe", channel, wmax=6)
    for other in (tcpfade.simulate("reno", channel, wmax=6, slots=10_000, seed=1),
                  tcpfade.simulate("tahoe", channel, wmax=12, slots=10_000, seed=1),
                  tcpfade.simulate("tahoe", tcpfade.Bernoulli(0.5), wmax=6, slots=10_000, seed=1)):
        with pytest.raises(tcpfade.ParameterError, match=r"^simulation = a run with (variant|wmax|channel) = .* is "
                                                         r"not allowed: must be of the analysis' own set-up"):
            compare(analysis, other)
    assert len(compare(analysis, tcpfade.simulate("tahoe", channel, wmax=6, slots=10_000, seed=1))) > 5


def test_plot_checks_the_columns_it_is_given(tmp_path, capsys):
    """The second review: --pool nosuch and a repeated --group were taken; --x nosuch was reported as another
    column varying within a point."""
    study = tmp_path / "p.toml"
    study.write_text(f'[sweep]\nmodel = "simulate"\nname = "p"\n[fixed]\nfdt = 0.01\nerror_rate = 0.1\n'
                     f'slots = 1000\n[axes]\nvariant = ["reno", "tahoe"]\n[output]\nstore = "{tmp_path / "p.sqlite"}"\n')
    assert main(["sweep", "run", str(study)]) == 0
    capsys.readouterr()
    for args, start in ((["--x", "nosuch", "--y", "throughput", "--group", "variant"], "--x = 'nosuch' is not allowed"),
                        (["--x", "variant", "--y", "throughput", "--pool", "nosuch"], "--pool = 'nosuch' is not"),
                        (["--x", "slots", "--y", "throughput", "--group", "variant,variant"],
                         "--group = 'variant,variant' is not allowed: names a column twice")):
        assert main(["plot", str(study), *args, "--out", str(tmp_path / "p.png")]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"tcpfade: {start}") and err.count("\n") == 1


def test_an_infinite_estimate_has_a_degenerate_interval_and_an_undefined_one_says_why(capsys):
    """The second review: at loss 1, transmissions per delivered packet was inf with a (nan, nan) interval; at loss
    0, the window at loss instants printed nan on the command line."""
    lost = tcpfade.simulate("reno", tcpfade.Bernoulli(1.0), slots=1000, seed=1)
    assert lost.transmissions_per_delivered == float("inf")
    assert tuple(lost.ci["transmissions_per_delivered"]) == (float("inf"), float("inf"))
    assert lost.ci["transmissions_per_delivered"].note == "infinite: nothing was delivered in this run"
    clean = tcpfade.simulate("reno", tcpfade.Bernoulli(0.0), slots=1000, seed=1)
    assert clean.ci["mean_cwnd_at_loss"].note == "undefined: nothing it is conditioned on happened in this run"
    assert main(["simulate", "--variant", "reno", "--p", "1", "--q", "0.5", "--slots", "1000", "--seed", "1"]) == 0
    line = next(l for l in capsys.readouterr().out.splitlines() if l.startswith("mean_cwnd_at_loss"))
    # The record's own reason (SimulationResult._undefined), more specific than the interval's general note.
    assert line.split(None, 1)[1] == "no packet was lost in this run (it is the mean window at loss instants)"


def test_a_too_long_name_on_the_command_line_names_the_option(tmp_path, capsys):
    """The second review: with a 300-character name the errors said file = or path = instead of the option."""
    long = str(tmp_path / ("a" * 300 + ".csv"))
    for args, option in ((["channel", "table1", "--csv", long], "--csv"),
                         (["channel", "trace", "--p", "0.9", "--q", "0.5", "--slots", "100", "--seed", "1", "--out",
                           long[:-4] + ".txt"], "--out")):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"tcpfade: {option} = ") and err.rstrip().endswith("cannot be used: File name too long")


def test_runs_says_an_array_is_one_value_when_the_function_refuses_it():
    """Issue 34, review item 13b: ``runs(..., slots=np.array([...]))`` is one value, not an axis; the function's
    refusal alone would not say why, so runs adds how to give an axis."""
    with pytest.raises(tcpfade.ParameterError, match=r"slots = array.*for an axis give a list: slots=array.tolist\(\)"):
        tcpfade.runs(tcpfade.simulate, variant="reno", channel=tcpfade.Bernoulli(0.1), slots=np.array([1000, 2000]),
                     seeds=1)
    # An array the function takes as one value (a loss trace) is still passed as it is.
    t = tcpfade.runs(tcpfade.fit_markov, trace=np.array([0, 1, 1, 0, 0]), seeds=None)
    assert len(t) == 1 and t.loc[0, "losses"] == 2


@pytest.mark.parametrize("args, metric, words", [
    (["analyze", "--variant", "reno", "--p", "1", "--q", "0.5"], "mean_cwnd_at_loss", "never loses a packet"),
    (["analyze", "--variant", "reno", "--p", "0.5", "--q", "1"], "transmissions_per_delivered", "delivers nothing"),
    (["simulate", "--variant", "reno", "--p", "0.5", "--q", "1", "--slots", "1000", "--seed", "1"],
     "transmissions_per_delivered", "nothing was delivered"),
    (["transfer", "--size-bytes", "10000", "--error-rate", "0.999", "--time-limit", "20", "--seed", "1"],
     "joules_per_bit", "bought no bit"),
])
def test_human_tables_print_the_reason_for_an_infinite_or_undefined_metric(capsys, args, metric, words):
    """The third review (fifth session): tables printed nan and inf where the row's notes say why."""
    assert main(args) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith(metric))
    assert words in line and not re.search(r"\b(nan|inf)\b", line), line
    if args[0] == "transfer":   # 8·size over the time is no goodput when the size was not delivered
        line = next(x for x in out.splitlines() if x.startswith("goodput_bps, 8·size"))
        assert "undefined: 1 transfer(s) did not complete" in line


def test_the_comparison_table_says_why_a_side_is_not_finite(capsys):
    assert main(["analyze", "--variant", "reno", "--p", "0.5", "--q", "1", "--compare-slots", "1000", "--seed",
                 "1"]) == 0
    out = capsys.readouterr().out
    assert "note: transmissions_per_delivered: analysis: infinite: the chain delivers nothing" in out
    table = tcpfade.analysis.compare(tcpfade.analyze("reno", tcpfade.GilbertElliott(1.0, 0.5), wmax=6),
                                     tcpfade.simulate("reno", tcpfade.GilbertElliott(1.0, 0.5), wmax=6, slots=1000, seed=1))
    assert "no packet was lost" in table.loc["mean_cwnd_at_loss", "note"] and table.loc["throughput", "note"] == ""


def test_a_sweep_keeps_each_rows_notes_and_plot_says_what_it_leaves_out(tmp_path, capsys):
    (tmp_path / "s.toml").write_text('[sweep]\nmodel = "simulate"\n[fixed]\nvariant = "reno"\nchannel = "bernoulli"\n'
                                     'slots = 2000\n[axes]\nerror_rate = [0.0, 1.0]\n[output]\nstore = "s.sqlite"\n')
    study = str(tmp_path / "s.toml")
    assert main(["sweep", "run", study]) == 0
    assert main(["sweep", "export", study, "--out", str(tmp_path / "s.csv")]) == 0
    import pandas as pd

    rows = pd.read_csv(tmp_path / "s.csv").set_index("error_rate")
    assert "no packet was lost" in rows.loc[0.0, "notes"] and "nothing was delivered" in rows.loc[1.0, "notes"]
    capsys.readouterr()
    assert main(["plot", study, "--x", "error_rate", "--y", "transmissions_per_delivered", "--out",
                 str(tmp_path / "p.png")]) == 0
    assert "1 of 2 rows have no finite transmissions_per_delivered" in capsys.readouterr().err
    (tmp_path / "z.toml").write_text((tmp_path / "s.toml").read_text().replace("[0.0, 1.0]", "[0.0]")
                                     .replace("s.sqlite", "z.sqlite"))
    assert main(["sweep", "run", str(tmp_path / "z.toml")]) == 0
    capsys.readouterr()
    assert main(["plot", str(tmp_path / "z.toml"), "--x", "error_rate", "--y", "mean_cwnd_at_loss", "--out",
                 str(tmp_path / "q.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tcpfade: --y = 'mean_cwnd_at_loss' is not allowed: has no finite value") and \
        "no packet was lost" in err and not (tmp_path / "q.png").exists()


def test_the_third_reviews_inputs_are_refused_where_they_enter():
    from tcpfade import wcdma

    with pytest.raises(tcpfade.ParameterError, match=r"pe = '6 points all at 0.1' is not allowed: must vary"):
        wcdma.fit_universal_curve(np.full(6, 0.1), np.array([.9, .85, .7, .55, .35, .2]), 6.0)
    r = wcdma.tcp_over_blocks(np.zeros(300, int))
    for metric, value, kind in (("ace", "x", tcpfade.errors.ParameterTypeError), (None, 1.0, tcpfade.errors.ParameterTypeError),
                                (5, float("inf"), tcpfade.errors.ParameterTypeError),
                                ("throughput", 0.5, tcpfade.ParameterError), ("nosuch", float("nan"),
                                                                              tcpfade.ParameterError)):
        with pytest.raises(kind):
            r.why(metric, value)
    assert r.why("ace", float("nan")) == "no power trace was given (power_dbw)"
    for variant in ("tahoe", "reno"):
        with pytest.raises(tcpfade.ParameterError, match=f"recover_guard = True is not allowed: .*{variant} has none"):
            tcpfade.simulate(variant, tcpfade.Bernoulli(0.05), slots=2000, seed=1, recover_guard=True)
    row = tcpfade.simulate("newreno", tcpfade.Bernoulli(0.05), slots=2000, seed=1, recover_guard=True).to_dict()
    assert (row["recover_guard"], row["sack"], row["limited_transmit"], row["initial_window"]) == (True, False,
                                                                                                    False, 1)


def test_an_error_from_the_core_names_the_option_on_the_command_line(capsys):
    assert main(["simulate", "--variant", "reno", "--error-rate", "0.05", "--slots", "1000", "--seed", "1",
                 "--recover-guard"]) == 2
    assert capsys.readouterr().err.startswith("tcpfade: --recover-guard = True is not allowed: it is RFC 6582's guard")
    assert main(["simulate", "--variant", "oldtahoe", "--error-rate", "0.05", "--slots", "1000", "--seed", "1",
                 "--limited-transmit"]) == 2
    assert capsys.readouterr().err.startswith("tcpfade: --limited-transmit = True is not allowed: needs a variant")


def test_fit_vs_analysis_blames_the_slots_when_a_trace_has_no_loss(capsys):
    """The third review: it named a `trace` parameter the command does not have."""
    assert main(["channel", "fit-vs-analysis", "--slots", "1000", "--fdt", "0.001", "--error-rate", "0.001"]) == 2
    assert capsys.readouterr().err.startswith("tcpfade: --slots = 1000 is not allowed: too few for error_rate 0.001")


def test_a_good_state_far_longer_than_a_cycle_gives_the_ideal_goodput_not_nan():
    """The long fuzz, seed 32: 1 − e^{−λ0·cycle} rounded to 0 and analyze_link returned goodput NaN. As E[X] grows
    against the cycle (and E[Y] stays fixed) the goodput tends to the loss-free cycle's (abouzeid §IV), which the
    result also reports as ideal_goodput."""
    r = tcpfade.analyze_link("reno", rate=81325910384, tau=2.009594044176492e-165, mean_good=81325910384,
                             mean_bad=7.045602278030724, recovery="paper", packet_bytes=10000, max_backoff=64,
                             max_rto=100, clock_granularity=5.552309654024191e-201, beta=5)
    assert r.goodput == pytest.approx(r.ideal_goodput, rel=1e-9) and r.to_dict()["notes"] == ""


def test_a_value_after_a_switch_and_a_bare_variant_name_the_option_meant(capsys):
    # Found by a review: `--hold-ssthresh-on-rto yes` and `simulate-link cubic` got click's "unexpected extra
    # arguments", which named neither the switch nor --variant.
    link = ["simulate-link", "--rate", "100", "--tau", "0.01", "--seed", "1", "--duration", "5"]
    assert main([*link, "--variant", "cubic", "--hold-ssthresh-on-rto", "yes"]) == 2
    line = _one_line(capsys).removeprefix("tcpfade: ")
    assert line.startswith("--hold-ssthresh-on-rto = 'yes' is not allowed: --hold-ssthresh-on-rto is a switch")
    assert "--no-hold-ssthresh-on-rto" in line
    assert main([link[0], "cubic", *link[1:]]) == 2
    assert "write --variant cubic" in _one_line(capsys)
    assert main([*link, "surplus"]) == 2
    assert _one_line(capsys) == "tcpfade: arguments = 'surplus' is not allowed: unexpected extra arguments"


def test_a_profiled_options_help_gives_one_default():
    from click.testing import CliRunner

    from tcpfade.cli import cli

    text = " ".join(CliRunner().invoke(cli, ["simulate-link", "--help"]).output.split())
    rule = text[text.index("--rto-rule"):text.index("--timestamps")]
    assert rule.count("default") == 1 and "(default: the --profile's; papers: 'rfc6298'" in rule, rule
    assert "--send-buffer BYTES" in text and "--packet-bytes BYTES" in text   # a size says bytes, not COUNT


def test_a_required_option_missing_still_names_a_stray_word_and_none_sets_a_profiles_value_aside(capsys):
    # From a review: `simulate reno ...` said only that --variant was missing; and under --profile linux an option the
    # profile sets (--send-buffer, --delayed-ack) could not be given None.
    assert main(["simulate", "reno", "--error-rate", "0.1", "--fdt", "0.01", "--seed", "1"]) == 2
    assert _one_line(capsys).endswith("it is required; and 'reno' alone is not an argument of this command: write "
                                      "--variant reno")
    link = ["simulate-link", "--variant", "cubic", "--profile", "linux", "--rate", "125", "--tau", "0.04", "--buffer",
            "6", "--error-rate", "0.03", "--seed", "1", "--duration", "100", "--json"]
    rows = {}
    for extra in ([], ["--send-buffer", "none"], ["--delayed-ack", "NONE"]):
        assert main([*link, *extra]) == 0
        rows[tuple(extra)] = json.loads(capsys.readouterr().out)
    assert rows[()]["send_buffer"] == 4 * 2**20 and rows[()]["delayed_ack"] == 0.04
    assert rows[("--send-buffer", "none")]["send_buffer"] is None
    assert rows[("--delayed-ack", "NONE")]["delayed_ack"] is None
    assert rows[("--delayed-ack", "NONE")]["goodput"] != rows[()]["goodput"]


def test_the_eighth_sessions_review_findings_are_refused_in_one_line(tmp_path, capsys):
    # A repeated option: click takes the last, and the message quotes the value it refused (it quoted the first).
    args = ["simulate-link", "--variant", "newreno", "--rate", "100", "--tau", "0.05", "--duration", "5", "--seed",
            "1", "--prr", "--prr-partial-ack=sndcnt", "--prr-partial-ack=bad"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("tcpfade: --prr-partial-ack = 'bad' is not allowed:") and err.count("\n") == 1
    # A parameter file giving a choice a value of another type: the names it takes are said too.
    path = tmp_path / "e.toml"
    path.write_text('[sweep]\nmodel = "simulate_link"\n[fixed]\nvariant = "newreno"\nrate = 100.0\ntau = 0.05\n'
                    "duration = 5.0\nprr = true\nprr_partial_ack = 3\n")
    assert main(["sweep", "run", str(path)]) == 2
    err = capsys.readouterr().err
    assert "fixed.prr_partial_ack: 3 is not allowed: must be a string: one of forced, sndcnt" in err
    assert err.count("\n") == 1


def test_the_twelfth_sessions_review_a_switch_given_a_value_a_transfers_fixed_rto_and_0d_booleans(capsys):
    """A hostile review of F-RTO without SACK and timestamps: a switch given a value blamed the whole command line; a
    transfer's fixed rto was refused as "fixed" without saying what is allowed; a 0-d boolean array was refused where
    0-d numbers are taken; a rack refusal spoke Python to the command line ("set sack=True")."""
    import numpy as np

    link = ["simulate-link", "--variant", "newreno", "--lossless", "--rate", "100", "--tau", "0.01", "--buffer", "10",
            "--duration", "10", "--seed", "1"]
    for option, want in (("--frto=yes", "--frto = 'yes' is not allowed: a switch takes no value; write --frto or "
                                        "--no-frto"),
                         ("--json=1", "--json = '1' is not allowed: a switch takes no value; write --json alone")):
        assert main([*link, option]) == 2
        assert capsys.readouterr().err == f"tcpfade: {want}\n"
    assert main(["transfer", "--variant", "newreno", "--lossless", "--rto", "0.5", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--rto = '0.5' is not allowed: must be None: a transfer's timer is always estimated" \
        in err, err
    with pytest.raises(tcpfade.ParameterError, match=r"^rto = 0.5 is not allowed: must be None"):
        tcpfade.simulate_transfer("newreno", None, size_bytes=10_000, rto=0.5)
    r = tcpfade.simulate_transfer("newreno", None, size_bytes=10_000, frto=np.array(True), sack=np.array(False))
    assert r.parameters["frto"] is True and r.parameters["sack"] is False
    with pytest.raises(tcpfade.ParameterError, match=r"must be True or False"):
        tcpfade.simulate_transfer("newreno", None, size_bytes=10_000, frto=np.array([True]))
    assert main([*link, "--profile", "linux", "--no-sack", "--rack"]) == 2
    assert "turn sack on too" in capsys.readouterr().err


def test_the_rfc_profile_runs_reno_as_rfc_5681_has_it():
    """RFC 6582's guard is NewReno's: under the rfc profile reno runs without it (it was refused, blaming an option
    the user had not given), newreno and cubic with it; asked for by name, reno still refuses it."""
    link = dict(rate=100, tau=0.01, buffer=10, duration=10, seed=1, channel=None)
    assert tcpfade.simulate_link("reno", profile="rfc", **link).parameters["recover_guard"] is False
    assert tcpfade.simulate_link("newreno", profile="rfc", **link).parameters["recover_guard"] is True
    assert tcpfade.simulate_link("cubic", profile="rfc", **link).parameters["recover_guard"] is True
    with pytest.raises(tcpfade.ParameterError, match="recover_guard = True is not allowed: it is RFC 6582's guard"):
        tcpfade.simulate_link("reno", profile="rfc", recover_guard=True, **link)
