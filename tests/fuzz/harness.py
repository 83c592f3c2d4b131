"""The fuzzing harness: hostile calls of every public function and CLI command, each run in a child process so
that an abort (a Rust abort, a segfault, an allocation the kernel refuses) or a hang is counted, not suffered.

Every outcome is put in one class:

- ``success``: a result, and it passes the properties theory gives (a proportion in [0, 1], goodput <= 1, an
  interval inside its metric's range that contains its estimate, finite main metrics, and every NaN or infinity
  of a record's row named in its ``notes``);
- ``rejected``: a project error (:class:`tcpfade.errors.TcpfadeError`) whose message names a parameter, its value
  and what is allowed (CLI: one line ``tcpfade: <parameter> = <value> is not allowed: <why>``, status 2);
- a defect: ``abort`` (the child died), ``hang`` (no answer within the case timeout although the request was
  within the work limit), ``foreign`` (an exception that is not the project's), ``traceback`` (CLI),
  ``bad-message``, ``property`` (a success that breaks a property).

The child runs with ``TCPFADE_WORK_LIMIT`` of a few seconds and ``TCPFADE_MEMORY_LIMIT`` of 1 GiB, so any case it
accepts should finish well within the timeout: a case that does not is a hang by definition. Cases are built by
hypothesis strategies (:mod:`tests.fuzz.strategies`) in the parent and sent pickled.
"""

from __future__ import annotations

import contextlib
import io
import math
import multiprocessing as mp
import signal
import os
import re
import resource
import traceback
from pathlib import Path
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: Limits the child runs under (see the module docstring).
CHILD_ENV = {"TCPFADE_WORK_LIMIT": "3", "TCPFADE_MEMORY_LIMIT": str(1 << 30), "TQDM_DISABLE": "1"}
#: Address space of the child: an allocation the validation lets through beyond this aborts and is counted.
CHILD_ADDRESS_SPACE = 6 << 30
#: glibc's allocator in the child fills freed and new memory and checks the heap, so that an out-of-bounds write in
#: native code (one was a sparse factorization handed zero pivots) crashes the case that made it, every time, rather
#: than now and then or a later case.
CHILD_MALLOC = {"MALLOC_CHECK_": "3", "MALLOC_PERTURB_": "165"}
#: Seconds a case may take before it is a hang (the work limit is 3 s of conservative estimate).
CASE_TIMEOUT = 60.0

DEFECTS = ("abort", "hang", "foreign", "traceback", "bad-message", "property")
MESSAGE = re.compile(r"^\S.* = .+ is not allowed: .+", re.S)
CLI_LINE = re.compile(r"^tcpfade: \S.* = .+ is not allowed: .+$")


@dataclass
class Tally:
    """Counts of outcomes, and the first few cases of each defect."""

    counts: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    #: Outcomes by entry (a function's qualified name, a command's path).
    entries: dict[str, Counter] = field(default_factory=dict)
    #: The first defects of each entry.
    by_entry: dict[str, list[str]] = field(default_factory=dict)

    def add(self, outcome: str, case: str, detail: str, entry: str | None = None) -> None:
        self.counts[outcome] += 1
        if entry is not None:
            self.entries.setdefault(entry, Counter())[outcome] += 1
            if outcome in DEFECTS and self.entries[entry][outcome] <= 3:
                self.by_entry.setdefault(entry, []).append(f"{outcome}: {case}: {detail}")
        if outcome in DEFECTS and len(self.examples.setdefault(outcome, [])) < 20:
            self.examples[outcome].append(f"{case}: {detail}")

    @property
    def defects(self) -> int:
        return sum(self.counts[d] for d in DEFECTS)

    def table(self) -> str:
        """Per entry: calls, results, clear errors and defects by kind (a Markdown table)."""
        kinds = [d for d in DEFECTS if any(c[d] for c in self.entries.values())]
        head = "| entry | calls | results | clear errors | " + " | ".join(kinds) + (" |" if kinds else "")
        lines = [head.replace("|  |", "|"), "|" + "---|" * (4 + len(kinds))]
        for entry in sorted(self.entries):
            c = self.entries[entry]
            cells = [entry, sum(c.values()), c["success"], c["rejected"], *(c[d] for d in kinds)]
            lines.append("| " + " | ".join(str(x) for x in cells) + " |")
        return "\n".join(lines)


# -- properties of successes --------------------------------------------------------------------------------------

def _unit(name: str, x: float) -> str | None:
    if not (isinstance(x, float) or isinstance(x, int)) or not math.isfinite(x) or not 0.0 <= x <= 1.0:
        return f"{name} = {x!r} is not a proportion in [0, 1]"
    return None


def _interval(name: str, point: float, ci: tuple[float, float], low: float = -math.inf,
              high: float = math.inf) -> str | None:
    lo, hi = ci
    if math.isnan(lo) and math.isnan(hi):
        return None   # an undefined metric (no two batches saw its event) has no interval, as documented
    if not (low - 1e-12 <= lo <= point + 1e-12 and point - 1e-12 <= hi <= high + 1e-12):
        return f"{name} = {point!r} with interval [{lo!r}, {hi!r}] outside [{low}, {high}] or not around it"
    return None


def _notes_explain(result: Any) -> str | None:
    """A record's row never holds an unexplained NaN or infinity: each such value's metric is named in ``notes``."""
    from tcpfade._record import Record

    if not isinstance(result, Record):
        return None
    row = result.to_dict()
    named = set()
    for part in filter(None, str(row.get("notes", "")).split("; ")):
        named.update(part.split(": ", 1)[0].split(", "))
    for key, value in row.items():
        if isinstance(value, float) and not math.isfinite(value) and key not in named \
                and key.rsplit("_", 1)[0] not in named:
            return f"to_dict()[{key!r}] = {value!r} and notes does not say why ({row.get('notes')!r})"
    return None


def check_result(target: str, result: Any) -> str | None:
    """The property a successful call of ``target`` must hold, or None; a string says what failed."""
    import numpy as np
    import pandas as pd

    import tcpfade

    problems: list[str | None] = [_notes_explain(result)]
    if isinstance(result, tcpfade.SimulationResult):
        for m in ("throughput", "load", "success_probability", "successes_per_slot"):
            problems.append(_unit(m, getattr(result, m)))
            problems.append(_interval(m, getattr(result, m), result.ci[m], 0.0, 1.0))
        if not math.isfinite(result.energy_efficiency):
            problems.append(f"energy_efficiency = {result.energy_efficiency!r}")
    elif isinstance(result, tcpfade.LinkResult):
        for m in ("goodput", "received_rate", "new_received_rate", "utilization"):
            problems.append(_unit(m, getattr(result, m)))
            problems.append(_interval(m, getattr(result, m), result.ci[m], 0.0, 1.0))
        for m in ("channel_loss_rate", "buffer_loss_rate"):
            if math.isfinite(getattr(result, m)):
                problems.append(_interval(m, getattr(result, m), result.ci[m], 0.0, 1.0))
    elif isinstance(result, tcpfade.AnalysisResult):
        b = result.throughput
        problems += [_unit("throughput.pessimistic", b.pessimistic), _unit("throughput.optimistic", b.optimistic)]
        if not all(math.isfinite(x) for x in (result.load.pessimistic, result.energy_efficiency.optimistic)):
            problems.append(f"load/energy efficiency not finite: {result.load}, {result.energy_efficiency}")
    elif isinstance(result, tcpfade.TransferResult):
        for m in ("connection_time", "goodput_bps", "overhead_percent", "energy_joules"):
            if not (math.isfinite(getattr(result, m)) and getattr(result, m) >= 0):
                problems.append(f"{m} = {getattr(result, m)!r}")
        if result.completed and result.delivered_bytes != result.size_bytes:
            problems.append(f"completed with {result.delivered_bytes} of {result.size_bytes} bytes delivered")
        if result.delivered_bytes > result.size_bytes or result.effort_bytes < result.delivered_bytes:
            problems.append(f"delivered {result.delivered_bytes}, effort {result.effort_bytes}")
    elif type(result).__name__ == "BearerResult":
        problems.append(_unit("throughput", result.throughput))
        problems.append(_interval("throughput", result.throughput, result.throughput_ci, 0.0, 1.0))
    elif type(result).__name__ == "SystemResult":
        if not np.all(np.isfinite(result.sir_db)):
            problems.append("a non-finite SIR")
    elif type(result).__name__ == "BlockErrorRate":
        problems.append(_interval("bler", result.rate, (result.low, result.high), 0.0, 1.0))
    elif isinstance(result, tcpfade.LinkAnalysis):
        problems.append(_unit("goodput", result.goodput))
    elif isinstance(result, (tcpfade.GilbertElliott, tcpfade.Bernoulli)):
        d = result.describe()
        for k in ("p", "q", "error_rate"):
            if k in d:
                problems.append(_unit(k, float(d[k])))
    elif isinstance(result, pd.DataFrame) and "error_rate" in result:
        for row in result.itertuples():
            problems.append(_unit("error_rate", float(row.error_rate)))
            problems.append(_interval("error_rate", float(row.error_rate), (float(row.error_rate_low), float(row.error_rate_high)),
                                      0.0, 1.0))
    elif isinstance(result, np.ndarray) and result.dtype == np.uint8:
        if result.size and int(result.max()) > 1:
            problems.append("a loss trace with values other than 0 and 1")
    elif isinstance(result, tuple) and target.endswith("markov_from_fading"):
        problems += [_unit("p", result[0]), _unit("q", result[1])]
    return next((p for p in problems if p), None)


# -- the child ----------------------------------------------------------------------------------------------------

def _targets() -> dict[str, Any]:
    import tcpfade
    from tcpfade import wcdma
    from tcpfade.channels import fading

    ge = tcpfade.GilbertElliott
    return {
        "Bernoulli": tcpfade.Bernoulli, "GilbertElliott": ge, "GilbertElliott.from_burst": ge.from_burst,
        "GilbertElliott.from_fading": ge.from_fading, "GilbertElliott.from_transitions": ge.from_transitions,
        "ThresholdFading": tcpfade.ThresholdFading, "BitLevelFading": tcpfade.BitLevelFading,
        "TraceChannel": tcpfade.TraceChannel, "TraceChannel.from_file": tcpfade.TraceChannel.from_file,
        "ContinuousTwoState": tcpfade.ContinuousTwoState, "simulate": tcpfade.simulate,
        "simulate_link": tcpfade.simulate_link, "simulate_transfer": tcpfade.simulate_transfer,
        "ContinuousTwoState.on_off": tcpfade.ContinuousTwoState.on_off, "analyze": tcpfade.analyze,
        "block_error_rate": wcdma.block_error_rate, "viterbi_decode": wcdma.viterbi_decode,
        "conv_encode": wcdma.conv_encode,
        "simulate_system": wcdma.simulate_system, "tcp_over_blocks": wcdma.tcp_over_blocks,
        "wcdma.simulate": wcdma.simulate, "analyze_link": tcpfade.analyze_link,
        "runs.simulate": lambda **kw: tcpfade.runs(tcpfade.simulate, **kw),
        "runs.analyze": lambda **kw: tcpfade.runs(tcpfade.analyze, **kw),
        "fading_gain": tcpfade.fading_gain, "fading_autocorrelation": tcpfade.fading_autocorrelation,
        "bit_level_error_rate": tcpfade.bit_level_error_rate, "fit_markov": tcpfade.fit_markov,
        "marcum_q": tcpfade.marcum_q, "markov_from_fading": tcpfade.markov_from_fading,
        "load_trace": tcpfade.load_trace, "save_trace": tcpfade.save_trace,
        "error_rate_from_fading_margin": fading.error_rate_from_fading_margin,
        "fading_margin_from_error_rate": fading.fading_margin_from_error_rate,
    }


def _target(name: str, targets: dict[str, Any]) -> Any:
    if name in targets:
        return targets[name]
    from .surface import resolve   # a qualified name of the public surface: tcpfade.wcdma.awgn_curve

    return resolve(name)


def _build(value: Any, targets: dict[str, Any]) -> Any:
    """Recipes inside a case are built in the child (their errors count): ``("build", target, args, kwargs)`` a
    call, ``("ref", name)`` a public object, ``("file", kind)`` a path (:func:`materialize`), ``("array", kind)`` an
    array too large to send."""
    if isinstance(value, tuple) and len(value) == 4 and value[0] == "build":
        _, name, args, kwargs = value
        return _target(name, targets)(*[_build(a, targets) for a in args],
                                      **{k: _build(x, targets) for k, x in kwargs.items()})
    if isinstance(value, tuple) and len(value) == 2 and value[0] in ("file", "array", "ref"):
        return materialize(*value)
    if isinstance(value, list) and any(isinstance(x, tuple) for x in value):
        return [_build(x, targets) for x in value]
    if isinstance(value, dict):
        # Recipes nested in a dictionary too (an experiment's store path): left as tuples they made every
        # experiment dictionary fail at [output], before its parameters were ever checked.
        return {k: _build(x, targets) for k, x in value.items()}
    return value


EXPERIMENT_TOML = """[sweep]
name = "fz"
model = "simulate"
seed = 7
replications = 1

[fixed]
fdt = 0.016
wmax = 8
slots = 2000

[axes]
error_rate = [0.01, 0.1]

[output]
store = "fz.sqlite"
"""



#: Text files a case may name: (file name, contents).
TEXT_FILES = {
    "bad-json": ("bad.json", '{"a": [1, 2,'),
    "bad-toml": ("bad.toml", '[sweep\nmodel = "simulate"\nmodel = 3\n'),
    "valid-toml": ("ok.toml", EXPERIMENT_TOML),
    "valid-csv": ("ok.csv", "loss\n0\n1\n0\n"),
    "bad-csv": ("bad.csv", "loss,x\n0,\n\"1\n2,3,4\n"),
    "valid-txt": ("ok.txt", "0 1 0 0 1\n"),
}

def materialize(kind: str, what: str) -> Any:
    """A hostile (or valid) file, array or object, made in the child's working directory."""
    import sqlite3
    import tempfile

    import numpy as np

    if kind == "ref":
        from .surface import resolve

        return resolve(what)
    if kind == "array":
        return {
            "huge-zeros": lambda: np.zeros(1 << 24, dtype=np.uint8), "huge-float": lambda: np.ones(1 << 23),
            "empty-float": lambda: np.array([], dtype=float), "empty-int": lambda: np.array([], dtype=np.int64),
            "nan-array": lambda: np.full(5, np.nan), "inf-array": lambda: np.array([0.1, np.inf, -np.inf]),
            "2d": lambda: np.zeros((3, 4)), "strings": lambda: np.array(["0", "1", "x"]),
            "objects": lambda: np.array([1, None, "a"], dtype=object), "complex": lambda: np.array([1j, 0, 1]),
            "bool-array": lambda: np.array([True, False, True]), "int64-big": lambda: np.array([2**62, -2**62]),
        }[what]()
    d = Path(tempfile.mkdtemp(prefix="f-", dir="."))
    p = d / "input"
    if what == "missing-dir":
        return str(d / "no" / "such" / "dir" / "x.csv")
    if what == "dev-full":
        return "/dev/full"
    if what == "directory":
        return str(d)
    if what in ("new-file", "new-png", "new-csv", "new-sqlite"):
        return str(d / {"new-file": "out", "new-png": "out.png", "new-csv": "out.csv", "new-sqlite": "s.sqlite"}[what])
    if what == "readonly-dir":
        ro = d / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        return str(ro / "out.png")
    if what == "empty":
        p = d / "empty.npy"
        p.write_bytes(b"")
    elif what == "truncated-npy":
        p = d / "t.npy"
        buf = io.BytesIO()
        np.save(buf, np.zeros(100, dtype=np.uint8))
        p.write_bytes(buf.getvalue()[:90])
    elif what == "lying-npy":
        p = d / "lie.npy"
        header = "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }"
        header = header + " " * (117 - len(header)) + "\n"
        p.write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + b"\0" * 16)
    elif what in TEXT_FILES:
        name, text = TEXT_FILES[what]
        p = d / name
        p.write_text(text)
    elif what == "valid-npy":
        p = d / "ok.npy"
        np.save(p, np.array([0, 1, 0, 0, 1], dtype=np.uint8))
    elif what == "garbage":
        p = d / "garbage.bin"
        p.write_bytes(bytes(range(256)) * 4)
    elif what == "garbage-sqlite":
        p = d / "g.sqlite"
        p.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    elif what == "empty-sqlite":
        p = d / "e.sqlite"
        sqlite3.connect(p).close()
    elif what == "foreign-sqlite":
        p = d / "foreign.sqlite"
        con = sqlite3.connect(p)
        con.execute("CREATE TABLE results (a INTEGER, b TEXT)")
        con.execute("INSERT INTO results VALUES (1, 'x')")
        con.commit()
        con.close()
    elif what == "readonly-sqlite":
        p = d / "ro.sqlite"
        con = sqlite3.connect(p)
        con.execute("CREATE TABLE results (key TEXT)")
        con.commit()
        con.close()
        p.chmod(0o444)
        d.chmod(0o555)
    else:
        raise LookupError(what)
    return str(p)


def call(target: str, args: tuple, kwargs: dict) -> Any:
    """Call ``target`` (a name of :func:`_targets`, or ``"method:<name>"`` with the instance first)."""
    targets = _targets()
    args = [_build(a, targets) for a in args]
    kwargs = {k: _build(x, targets) for k, x in kwargs.items()}
    if target.startswith("method:"):
        instance, *rest = args
        return getattr(instance, target.split(":", 1)[1])(*rest, **kwargs)
    return _target(target, targets)(*args, **kwargs)


def _run_case(case: tuple[str, Any]) -> tuple[str, str]:
    """Run one case in this (child) process and classify it."""
    kind, payload = case
    if kind == "cli":
        return _run_cli(payload)
    import tcpfade

    target, args, kwargs = payload
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            result = call(target, args, kwargs)
    except tcpfade.errors.RunStopped:
        return "foreign", "RunStopped"
    except tcpfade.TcpfadeError as exc:
        text = str(exc)
        if isinstance(exc, tcpfade.ParameterError) and not MESSAGE.match(text):
            return "bad-message", text[:300]
        return "rejected", type(exc).__name__
    except Exception as exc:  # noqa: BLE001 - this is what the fuzzer counts
        return "foreign", f"{type(exc).__name__}: {exc}"[:300] + " | " + traceback.format_exc(limit=-3)[-600:]
    problem = check_result(target, result)
    return ("property", problem) if problem else ("success", "")


def _run_cli(argv: list[str]) -> tuple[str, str]:
    from tcpfade.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except BaseException as exc:  # noqa: BLE001 - main must not raise
            return "traceback", f"{type(exc).__name__}: {exc}"[:300]
    text = err.getvalue()
    if "Traceback (most recent call last)" in text or "Traceback" in out.getvalue():
        return "traceback", text[-400:]
    if rc == 0:
        return "success", ""
    lines = [line for line in text.splitlines() if line.strip()]
    if rc == 2 and len(lines) == 1 and CLI_LINE.match(lines[0]):
        return "rejected", ""
    if rc == 2 and lines and lines[0].startswith("Usage:"):   # a group without its command: its help
        return "rejected", ""
    if "internal error" in text:
        return "foreign", lines[-1][:300] if lines else text[:300]
    return "bad-message", f"rc={rc}: {text[:300]!r}"


def _child(conn) -> None:
    import tempfile

    import multiprocessing

    os.environ.update(CHILD_ENV)
    os.setpgid(0, 0)   # its own process group: the fuzzer ends it with everything it started (Runner._kill)
    os.chdir(tempfile.mkdtemp(prefix="tcpfade-fuzz-"))   # what the CLI cases write lands here
    # The child is started as a daemon (it dies with the fuzzer), and Python refuses a daemon children of its own;
    # a user's process is no daemon, and a sweep of several workers starts a pool. Its workers still die with it
    # (the sweep's pool sets PR_SET_PDEATHSIG).
    multiprocessing.current_process().daemon = False
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_ADDRESS_SPACE, CHILD_ADDRESS_SPACE))
    import tcpfade  # noqa: F401 - pay the import once
    import tcpfade.cli  # noqa: F401

    while True:
        try:
            case = conn.recv()
        except EOFError:
            return
        conn.send(_run_case(case))


class Runner:
    """Runs cases one at a time in a child process, replacing the child when it dies or hangs."""

    def __init__(self, timeout: float = CASE_TIMEOUT) -> None:
        self.timeout = timeout
        self.context = mp.get_context("spawn")   # a fresh interpreter: the limits apply to it alone
        self.process = None
        self.conn = None

    def _start(self) -> None:
        parent, child = self.context.Pipe()
        self.process = self.context.Process(target=_child, args=(child,), daemon=True)
        # glibc reads its allocator's checks at start-up, from the environment the child inherits: set them for the
        # spawn alone.
        saved = {k: os.environ.get(k) for k in CHILD_MALLOC}
        os.environ.update(CHILD_MALLOC)
        try:
            self.process.start()
        finally:
            for k, value in saved.items():
                if value is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = value
        self.conn = parent

    def _kill(self) -> None:
        if self.process is not None:
            try:   # the child's group: the child and whatever it started (a sweep's pool, a command's children)
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
            self.process.join(5)
        self.process = self.conn = None

    def run(self, case: tuple[str, Any]) -> tuple[str, str]:
        if self.process is None or not self.process.is_alive():
            self._start()
        try:
            self.conn.send(case)
        except (BrokenPipeError, OSError):
            self._kill()
            self._start()
            self.conn.send(case)
        if not self.conn.poll(self.timeout):
            alive = self.process.is_alive()
            self._kill()
            return ("hang", f"no answer in {self.timeout:g} s") if alive else ("abort", "the child died")
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            # The pipe closes as the child exits, a moment before its status can be read: wait for it, so that
            # the report says how it died (a signal, an abort, an exit) instead of "None".
            if self.process is not None:
                self.process.join(5)
            code = self.process.exitcode if self.process is not None else None
            self._kill()
            return "abort", f"the child died (exit code {code})"

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self._kill()

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
