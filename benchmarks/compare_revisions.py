"""Behaviour preserved? Every ``tcpfade reproduce --quick`` CSV and the Python benchmark figures, before and after.

    python benchmarks/compare_revisions.py BASE [--head REV] [--figures ID ...] [--bench]

Each revision is built once into ``benchmarks/.baseline/<rev>`` (``git archive`` + ``pip install --target``, as
``bench_python.py --only scale --baseline`` does) and run in a subprocess whose path puts that build first, so the
two runs share nothing but this machine. The script then compares the CSVs file by file:

- identical files are counted;
- a column renamed on purpose (:data:`RENAMES`) is compared under its new name;
- every other difference is printed with its size (largest absolute and relative difference) and, when it is
  expected, the reason from :data:`REASONS`; an unexplained difference makes the exit status 1.

``--bench`` also runs ``bench_python.py --only link`` and ``--only transfer`` on both and prints their figures side
by side (timings vary with the machine's load: compare ratios, on a calm machine).
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]

#: Columns renamed on purpose between the revisions this script has compared (old name -> new name), with the issue.
RENAMES = {
    "rto": "rto_slots",                 # issue 33: the slotted model's T0 is named for what it is
    "ack_delay": "ack_delay_slots",     # issue 33 (slotted model only)
}

#: Expected differences: (file pattern, column pattern) -> the reason. A difference matching none is unexplained.
REASONS: dict[tuple[str, str], str] = {
    ("*", "rto_slots"): "renamed from rto (issue 33)",
    ("*", "ack_delay_slots"): "renamed from ack_delay (issue 33)",
    ("*", "initial_window"): "a new parameter (issue 33), 1 = the papers' sender",
    ("kernel-vs-simulator.csv", "*"): "a new reproduce entry (issue 33): Linux's TCP against the simulator",
}


def build(rev: str) -> Path:
    """The package as it is at ``rev``, installed into benchmarks/.baseline/<rev> (once)."""
    sha = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short=12", rev], check=True, capture_output=True,
                         text=True).stdout.strip()
    target = REPO / "benchmarks" / ".baseline" / sha
    if not (target / "tcpfade").exists():
        print(f"building {rev} ({sha}) into {target} ...", flush=True)
        with tempfile.TemporaryDirectory() as src:
            archive = subprocess.run(["git", "-C", str(REPO), "archive", sha], check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                            src], check=True)
    return target


def run(target: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(target))
    return subprocess.run([sys.executable, *args], env=env, cwd=cwd, capture_output=True, text=True)


def reproduce(target: Path, out: Path, figures: list[str]) -> float:
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    done = run(target, ["-m", "tcpfade", "reproduce", *(figures or ["--all"]), "--quick", "--out", str(out)], out)
    if done.returncode not in (0, 1):
        raise SystemExit(f"reproduce failed under {target.name}:\n{done.stderr[-3000:]}")
    return time.perf_counter() - start


def reason(name: str, column: str) -> str | None:
    for (files, columns), why in REASONS.items():
        if fnmatch.fnmatch(name, files) and fnmatch.fnmatch(column, columns):
            return why
    return None


def compare(before: Path, after: Path) -> int:
    """Print the differences; the number of unexplained ones."""
    unexplained = identical = 0
    names = sorted({p.name for p in before.glob("*.csv")} | {p.name for p in after.glob("*.csv")})
    for name in names:
        a, b = before / name, after / name
        if not a.exists() or not b.exists():
            why = reason(name, "*")
            print(f"{name}: only {'after' if b.exists() else 'before'}" + (f" ({why})" if why else " (UNEXPLAINED)"))
            unexplained += why is None
            continue
        old, new = pd.read_csv(a).rename(columns=RENAMES), pd.read_csv(b)
        if old.equals(new):
            identical += 1
            continue
        lines = []
        for column in sorted(set(old.columns) | set(new.columns)):
            if column not in old or column not in new:
                why = reason(name, column)
                lines.append(f"  {column}: only {'after' if column in new else 'before'}"
                             + (f" ({why})" if why else " (UNEXPLAINED)"))
                unexplained += why is None
                continue
            x, y = old[column], new[column]
            if len(x) != len(y):
                lines.append(f"  {column}: {len(x)} rows before, {len(y)} after (UNEXPLAINED)")
                unexplained += 1
                continue
            if x.equals(y):
                continue
            if pd.api.types.is_numeric_dtype(x) and pd.api.types.is_numeric_dtype(y):
                xv, yv = x.to_numpy(float), y.to_numpy(float)
                same = (xv == yv) | (np.isnan(xv) & np.isnan(yv))
                if same.all():
                    continue
                diff = np.abs(xv - yv)[~same]
                rel = (diff / np.maximum(np.abs(xv[~same]), 1e-300))
                detail = f"{(~same).sum()} of {len(xv)} rows differ, max |Δ| {np.nanmax(diff):.3g}, max rel {np.nanmax(rel):.3g}"
            else:
                detail = f"{(x.astype(str) != y.astype(str)).sum()} of {len(x)} rows differ"
            why = reason(name, column)
            lines.append(f"  {column}: {detail}" + (f" ({why})" if why else " (UNEXPLAINED)"))
            unexplained += why is None
        if lines:
            print(name)
            print("\n".join(lines))
        else:
            identical += 1
    print(f"{identical} of {len(names)} CSV files identical (renamed columns compared under their new names); "
          f"{unexplained} unexplained difference(s)")
    return unexplained


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--head", default="HEAD")
    parser.add_argument("--figures", nargs="*", default=[])
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--out", default=str(REPO / "benchmarks" / ".compare"))
    args = parser.parse_args()
    out = Path(args.out)
    targets = {label: build(rev) for label, rev in (("before", args.base), ("after", args.head))}
    for label, target in targets.items():
        seconds = reproduce(target, out / label, args.figures)
        print(f"{label}: reproduce --quick in {seconds:.0f} s", flush=True)
    bad = compare(out / "before", out / "after")
    if args.bench:
        for only in ("link", "transfer"):
            for label, target in targets.items():
                done = run(target, [str(REPO / "benchmarks" / "bench_python.py"), "--only", only], target)
                print(f"--- bench {only}, {label} ---\n{done.stdout.strip()}")
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
