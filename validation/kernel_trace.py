"""One kernel run of a grid cell (validation/kernel_grid.py) over the emulator with a bpftrace program attached: the
tracer's output lines and the run's result. Shared by the scripts that read the kernel's own state while it runs
(``kernel_partial_acks.py``, ``kernel_push_acks.py``); needs root, the emulator and bpftrace."""

from __future__ import annotations

import signal
import subprocess
import tempfile
import time

import tcpfade


def traced_emulation(kg, cell: dict, seed: int, program: str) -> tuple[list[str], tcpfade.EmulationResult]:
    """Run ``cell`` (one of ``kg.cells()``) with ``seed`` while bpftrace runs ``program``; its lines and the result."""
    _, cc, sack, sysctls, _, _ = cell["sender"]
    with tempfile.NamedTemporaryFile("w+", suffix=".txt") as log:
        tracer = subprocess.Popen(["bpftrace", "-e", program], stdout=log, stderr=subprocess.DEVNULL)
        try:
            time.sleep(4)  # bpftrace attaches its probes
            result = tcpfade.emulate(cc, rate=cell["rate"], tau=cell["tau"], buffer=cell["buffer"],
                                     packet_bytes=kg.PACKET, channel=cell["channel"], duration=cell["length"],
                                     warmup=kg.WARMUP, seed=seed, sack=sack, sysctls=sysctls or None)
            time.sleep(1)
        finally:
            tracer.send_signal(signal.SIGINT)
            tracer.wait(timeout=30)
        log.seek(0)
        return log.readlines(), result


def cell_and_seeds(argv: list[str], name: str, seeds: list[int]):
    """The grid (``kernel_grid`` as a module), the cell named by ``argv[1]`` (else ``name``) and the seeds
    ``argv[2:]`` (else ``seeds``); exits with status 2, having said why, when bpftrace is missing."""
    import shutil
    import sys

    import kernel_grid as kg  # this folder, on the path once the caller's main() has put it there

    if shutil.which("bpftrace") is None:
        print("bpftrace is not installed (Debian: apt-get install bpftrace); it reads the kernel's socket state",
              file=sys.stderr)
        raise SystemExit(2)
    name = argv[1] if len(argv) > 1 else name
    cell = next(c for c in kg.cells(name) if c["name"] == name)
    return kg, cell, [int(s) for s in argv[2:]] or seeds
