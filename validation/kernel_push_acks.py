"""Which in-order segments does the kernel's receiver ACK alone, at once? (issue 35; docs/validation/kernel.md, "1.5
Mb/s, 10 ms, i.i.d., cubic with SACK"). With delayed ACKs a receiver ACKs every second full segment, or when a timer
runs out; the emulator's log showed the kernel's receiver sending 0.65 ACKs per data packet in that cell where the
simulation sends 0.57, the difference being in-order segments ACKed alone, at once. Since Linux 6.6 ("tcp: fix delayed
ACKs for MSS boundary condition"), ``tcp_measure_rcv_mss()`` marks a full-sized segment that carries PSH as pushed,
and ``__tcp_cleanup_rbuf()`` ACKs it as soon as the application has read everything: the end of a sender's write is
answered at once.

Kernel runs of one grid cell, traced with bpftrace at the receiver: for every segment it takes (``tcp:tcp_probe`` on
the receiver's socket, the state before the segment) its PSH flag, rcv_nxt and rcv_wup (the cumulative ACK last
sent). A segment is "in order" when it moves rcv_nxt by its length and the one before it did too; it was "ACKed
alone" when nothing was left unacknowledged before it (rcv_nxt = rcv_wup) and an ACK covering it had gone out when
the next segment came (rcv_wup = rcv_nxt then). Writes ``validation/kernel_push_acks.csv`` (one row per run). Needs
root, the emulator and bpftrace (Debian: ``apt-get install bpftrace``); about 30 s a run.

    sudo python3 validation/kernel_push_acks.py
    sudo python3 validation/kernel_push_acks.py "1.5 Mb/s, 10 ms, i.i.d., cubic, SACK" 1 2 3
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent / "kernel_push_acks.csv"
#: The receiver's port (tcpfade.emulate's server): its own socket's probes are those whose source port this is.
PORT = 5001
PROGRAM = f"""
tracepoint:tcp:tcp_probe /args->sport == {PORT}/ {{
  $tp = (struct tcp_sock *)args->skaddr;
  $skb = (struct sk_buff *)args->skbaddr;
  $th = (struct tcphdr *)($skb->head + $skb->transport_header);
  printf("Q %u %u %u %u\\n", args->data_len, $th->psh, $tp->rcv_nxt, $tp->rcv_wup);
}}
"""


def count(lines: list[str]) -> dict[str, int]:
    """Data segments, those carrying PSH, and the in-order segments ACKed alone at once, with and without PSH (see
    above). Sequence numbers are 32-bit and may wrap."""
    rows = [tuple(int(x) for x in line.split()[1:]) for line in lines if line.startswith("Q ")]
    rows = [r for r in rows if r[0] > 0]   # data segments (a pure ACK or the handshake carries none)
    out = {"segments": len(rows), "push": sum(r[1] for r in rows), "alone": 0, "alone_push": 0}
    for prev, (length, push, nxt, wup), after in zip(rows, rows[1:], rows[2:]):
        in_order = (after[2] - nxt) % 2**32 == length and (nxt - prev[2]) % 2**32 == prev[0]
        if in_order and nxt == wup and after[3] == after[2]:
            out["alone"] += 1
            out["alone_push"] += push
    return out


def traced_run(kg, cell: dict, seed: int) -> tuple[dict[str, int], float, float]:
    from kernel_trace import traced_emulation  # this folder, on the path once main() has put it there

    lines, r = traced_emulation(kg, cell, seed, PROGRAM)
    m = r.log[r.log.time >= kg.WARMUP]
    data = m[(m.direction == "forward") & (m.fate == "delivered") & (m.bytes > 100)]
    acks = m[(m.direction == "reverse") & (m.fate == "delivered")]
    return count(lines), r.goodput, len(acks) / max(len(data), 1)


def main() -> int:
    # The grid's cells, imported here: the tests load this script for count() alone (kernel_partial_acks.py's reason).
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from kernel_trace import cell_and_seeds

    kg, cell, seeds = cell_and_seeds(sys.argv, "1.5 Mb/s, 10 ms, i.i.d., cubic, SACK", [1, 2, 3])
    name = cell["name"]
    rows = []
    for seed in seeds:
        found, goodput, ratio = traced_run(kg, cell, seed)
        rows.append({"cell": name, "seed": seed, "goodput": goodput, "acks_per_data_packet": ratio, **found})
        print(f"seed {seed}: goodput {goodput:.3f}, {ratio:.3f} ACKs per data packet (measured part); "
              f"{found['push']} of {found['segments']} segments carry PSH; {found['alone']} in-order segments ACKed "
              f"alone at once, {found['alone_push']} of them with PSH", flush=True)
    table = pd.DataFrame(rows)
    table.to_csv(OUT, index=False)
    print(f"all runs: {table['alone_push'].sum()} of {table['alone'].sum()} segments ACKed alone carried PSH; "
          f"{table['push'].sum() / table['segments'].sum():.0%} of the segments carry it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
