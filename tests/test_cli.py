"""The tcpfade command line: output, files, and exit status 2 with one clear line on bad input."""

import json
import re
import subprocess
import sys

import numpy as np
import pytest

import tcpfade
from tcpfade.cli import main


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("args,expect", [
    (["--p", "0.99", "--q", "0.9"], r"mean_burst\s+10\n"),
    (["--error-rate", "0.01", "--burst", "4"], r"\nq\s+0.75\n"),
    (["--error-rate", "0.1", "--fdt", "0.01"], r"fading_margin_db\s+9.77322"),
    (["--fading-margin-db", "20", "--fdt", "0.08"], r"gilbert-elliott"),
    (["--error-rate", "0.02"], r"kind\s+bernoulli"),
])
def test_describe_from_whatever_parameters(capsys, args, expect):
    code, out, _ = run(capsys, "channel", "describe", *args)
    assert code == 0 and re.search(expect, out), out


@pytest.mark.parametrize("args,needle", [
    (["--p", "1.2", "--q", "0.4"], "p = 1.2 is not allowed"),
    (["--p", "0.9"], "--p/--q"),
    (["--burst", "3"], "--burst = 3.0"),
    (["--fading-margin-db", "10"], "needs --fdt"),
    (["--error-rate", "0.1", "--fdt", "-0.01"], "fdt = -0.01"),
    ([], "give --p and --q"),
    (["--channel", "bit-level", "--fdt", "0.01"], "--snr-db"),
])
def test_bad_input_exits_2_with_one_line(capsys, args, needle):
    code, out, err = run(capsys, "channel", "describe", *args)
    assert code == 2 and needle in err and "Traceback" not in err and err.count("\n") == 1


def test_trace_then_fit(capsys, tmp_path):
    path = tmp_path / "t.npy"
    code, out, _ = run(capsys, "channel", "trace", "--error-rate", "0.1", "--burst", "5", "--slots", "200000",
                       "--seed", "3", "--out", str(path))
    assert code == 0 and path.exists()
    losses = np.load(path)
    assert losses.size == 200_000
    code, out, _ = run(capsys, "channel", "fit", str(path), "--histogram")
    assert code == 0 and "mean_burst" in out and "geometric" in out


def test_trace_of_jakes_models(capsys, tmp_path):
    for model, extra in (("threshold", ["--error-rate", "0.05"]), ("bit-level", ["--snr-db", "20"])):
        path = tmp_path / f"{model}.txt"
        code, _, err = run(capsys, "channel", "trace", "--channel", model, "--fdt", "0.02", *extra, "--slots", "5000",
                           "--seed", "1", "--out", str(path))
        assert code == 0, err
        assert path.read_text().startswith("# tcpfade loss trace")


def test_fit_of_malformed_file_exits_2(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("0 1 2\n")
    code, _, err = run(capsys, "channel", "fit", str(path))
    assert code == 2 and "line 1, field 3" in err


def test_table1(capsys):
    code, out, _ = run(capsys, "channel", "table1")
    assert code == 0 and "0.926851" in out and out.count("\n") == 10


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_error_vs_snr_writes_figure(capsys, tmp_path, suffix):
    out_path, csv = tmp_path / f"fig7.{suffix}", tmp_path / "fig7.csv"
    code, _, err = run(capsys, "channel", "error-vs-snr", "--out", str(out_path), "--snr-db", "10,20,30",
                       "--packets", "2000", "--csv", str(csv))
    assert code == 0, err
    assert out_path.stat().st_size > 1000 and csv.exists()


def test_error_vs_snr_rejects_bad_suffix(capsys, tmp_path):
    code, _, err = run(capsys, "channel", "error-vs-snr", "--out", str(tmp_path / "x.gif"), "--packets", "100")
    assert code == 2 and "suffix" in err


def test_console_script_exit_status():
    proc = subprocess.run([sys.executable, "-c", "from tcpfade.cli import run; run()", "channel", "describe",
                           "--p", "2", "--q", "0.5"], capture_output=True, text=True)
    assert proc.returncode == 2 and re.search(r"p = 2(\.0)? is not allowed", proc.stderr) and "Traceback" not in proc.stderr


def test_simulate_prints_what_the_api_computes(capsys):
    """`tcpfade simulate` maps its options onto tcpfade.simulate: the same throughput and interval, as a table and
    as JSON (the README's first command, shorter)."""
    args = ["simulate", "--variant", "newreno", "--error-rate", "0.1", "--fdt", "0.01", "--wmax", "24", "--seed", "1",
            "--slots", "1e6"]
    expected = tcpfade.simulate("newreno", tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.01), wmax=24,
                                slots=10**6, seed=1)
    code, out, err = run(capsys, *args)
    lo, hi = expected.ci["throughput"]
    assert code == 0 and f"throughput                     {expected.throughput:.6g}  [{lo:.6g}, {hi:.6g}]" in out
    assert expected.timeouts >= 10 and "note:" not in err
    code, out, _ = run(capsys, *args, "--json")
    assert code == 0 and json.loads(out)["throughput"] == expected.throughput
    narrower = tcpfade.simulate("newreno", tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.01), wmax=24,
                                slots=10**6, seed=1, batches=10, confidence=0.9)
    code, out, _ = run(capsys, *args, "--batches", "10", "--confidence", "0.9", "--json")
    assert code == 0 and json.loads(out)["throughput_low"] == narrower.ci["throughput"][0] != lo


def test_simulate_warns_when_the_intervals_rest_on_few_timeouts(capsys):
    """With fewer than ten timeouts the batch-means intervals cover 82-87% instead of 95%
    (docs/validation/chockalingam.md): the command says so, on stderr, after the table."""
    code, out, err = run(capsys, "simulate", "--variant", "newreno", "--error-rate", "0.001", "--fdt", "0.016",
                         "--seed", "1", "--slots", "2e5")
    timeouts = int(re.search(r"\ntimeouts\s+(\d+)\n", out).group(1))
    assert code == 0 and timeouts < 10
    assert f"note: {timeouts} timeouts in this run" in err and "several seeds" in err


@pytest.mark.parametrize("args,needle", [
    (["--slots", "1.5"], "--slots = '1.5' is not allowed"),
    (["--trace-plot", "t.png"], "--trace-slots = 0 is not allowed"),
    (["--wmax", "0"], "wmax = 0 is not allowed"),
])
def test_simulate_bad_input_exits_2_with_one_line(capsys, args, needle):
    code, _, err = run(capsys, "simulate", "--variant", "reno", "--error-rate", "0.1", "--fdt", "0.01", "--seed", "1",
                       *args)
    assert code == 2 and needle in err and "Traceback" not in err and err.count("\n") == 1, err


def test_analyze_prints_what_the_api_computes(capsys):
    expected = tcpfade.analyze("tahoe", tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.016), wmax=24)
    code, out, _ = run(capsys, "analyze", "--variant", "tahoe", "--error-rate", "0.1", "--fdt", "0.016")
    b = expected.throughput
    assert code == 0 and f"[{b.low:.6g}, {b.high:.6g}]" in out and "not a confidence interval" in out
    code, out, _ = run(capsys, "analyze", "--variant", "tahoe", "--error-rate", "0.1", "--fdt", "0.016",
                       "--compare-slots", "1e6", "--json")
    assert code == 0, out
    rows = {r["metric"]: r for r in json.loads(out)}
    simulated = tcpfade.simulate("tahoe", tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.016), wmax=24,
                                 slots=10**6, seed=1)
    assert rows["throughput"]["simulated"] == pytest.approx(simulated.throughput, rel=1e-9)
    assert rows["throughput"]["analysis_high"] == pytest.approx(b.optimistic, rel=1e-9)


RESULT_COMMANDS = ["simulate", "analyze", "simulate-link", "analyze-link", "transfer", "channel describe",
                   "channel fit", "channel table1", "channel error-vs-snr", "channel fit-vs-analysis", "wcdma bler",
                   "wcdma system", "wcdma simulate"]


@pytest.mark.parametrize("path", RESULT_COMMANDS)
def test_every_command_that_prints_results_has_json_and_csv(path):
    from tcpfade.cli import cli

    command = cli
    for part in path.split():
        command = command.commands[part]
    options = {o for p in command.params for o in getattr(p, "opts", [])}
    assert {"--json", "--csv"} <= options, path


def test_json_and_csv_carry_the_same_row(capsys, tmp_path):
    import pandas as pd

    out_csv = tmp_path / "channel.csv"
    code, out, _ = run(capsys, "channel", "describe", "--error-rate", "0.1", "--burst", "4", "--json",
                       "--csv", str(out_csv))
    row = json.loads(out)
    table = pd.read_csv(out_csv)
    assert code == 0 and len(table) == 1 and table.loc[0, "error_rate"] == pytest.approx(row["error_rate"])
    code, out, _ = run(capsys, "wcdma", "bler", "--sir-db", "-1", "--blocks", "50", "--seed", "1", "--json")
    row = json.loads(out)
    assert code == 0 and row["rate_low"] <= row["rate"] <= row["rate_high"] and 0 <= row["rate_mapping"] <= 1


def test_reproduce_refuses_an_output_directory_it_cannot_write_before_computing(capsys):
    """Found by a hostile review: a directory in which no file can be created (here /proc, whose permission bits say
    yes to root) was found out only when the figure, computed, was written; and an empty --out wrote into the
    current directory. Both are refused at once, naming --out."""
    import time

    start = time.perf_counter()
    assert main(["reproduce", "modern-tcp-over-fading", "--out", "/proc", "--workers", "1"]) == 2
    assert time.perf_counter() - start < 5.0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--out" in err[0] and "no file can be created" in err[0]
    assert main(["reproduce", "abouzeid-fig4", "--quick", "--out", ""]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--out" in err[0] and "directory path" in err[0]
    with pytest.raises(tcpfade.TcpfadeError, match="out_dir.*no file can be created"):
        tcpfade.reproduce.reproduce("abouzeid-fig4", "/proc", quick=True)
