"""Does the kernel's NewReno retransmit at every partial ACK? (issue 35; docs/validation/kernel.md, "10 Mb/s, 10 ms,
fading, cubic without SACK"). RFC 6582 §3.2 step 3 read alone says yes, at once; RFC 6937 §3 counts every packet sent
in recovery against PRR's sndcnt, and Linux's ``tcp_xmit_retransmit_queue()`` stops at cwnd = pipe + sndcnt. The
simulator has both readings (``prr_partial_ack="forced"`` / ``"sndcnt"``).

Kernel runs of one grid cell without SACK, traced with bpftrace: at every ACK the sender takes (``tcp:tcp_probe``, the
state before the ACK) the socket's own accounting (packets_out, sacked_out, lost_out, retrans_out, delivered,
prr_delivered, prr_out, read from ``struct tcp_sock``), every retransmission (``tcp:tcp_retransmit_skb``) and every
change of congestion state (``tcp:tcp_cong_state_set``). A partial ACK is an ACK in Recovery that moves SND.UNA and
leaves the sender in Recovery; it is "retransmitted" when a retransmission follows it before the next ACK (within 2
ms), else "held". Writes ``validation/kernel_partial_acks.csv`` (one row per run). Needs root, the emulator and
bpftrace (Debian: ``apt-get install bpftrace``); about 25 s a run.

    sudo python3 validation/kernel_partial_acks.py
    sudo python3 validation/kernel_partial_acks.py "10 Mb/s, 10 ms, fading 2.5 Hz, cubic, SACK off" 1 5 8
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent / "kernel_partial_acks.csv"
#: The receiver's port (tcpfade.emulate's server): the sender's probes are those of the socket talking to it.
PORT = 5001
#: TCP_CA_Recovery (include/net/tcp.h).
RECOVERY = 3
PROGRAM = f"""
tracepoint:tcp:tcp_probe /args->dport == {PORT}/ {{
  $tp = (struct tcp_sock *)args->skaddr;
  printf("P %llu %u %u %u %u %u %u %u %u %u %u %u\\n", nsecs, args->snd_una, args->snd_nxt, args->snd_cwnd,
         args->ssthresh, $tp->packets_out, $tp->sacked_out, $tp->lost_out, $tp->retrans_out, $tp->delivered,
         $tp->prr_delivered, $tp->prr_out);
}}
tracepoint:tcp:tcp_retransmit_skb /args->dport == {PORT}/ {{ printf("R %llu\\n", nsecs); }}
tracepoint:tcp:tcp_cong_state_set /args->dport == {PORT}/ {{ printf("S %llu %d\\n", nsecs, args->cong_state); }}
"""


def count(lines: list[str]) -> dict[str, int]:
    """Partial ACKs in Recovery, and whether a retransmission followed each before the next ACK (see above)."""
    events = [line.split() for line in lines if line[:2] in ("P ", "R ", "S ")]
    probes = [i for i, e in enumerate(events) if e[0] == "P"]
    state, partial, retransmitted = 0, 0, 0
    for k, i in enumerate(probes[:-1]):
        for e in events[probes[k - 1] + 1 if k else 0:i]:
            if e[0] == "S":
                state = int(e[2])
        between = events[i + 1:probes[k + 1]]
        moved = int(events[probes[k + 1]][2]) != int(events[i][2])
        if state != RECOVERY or not moved or any(e[0] == "S" for e in between):
            continue
        partial += 1
        t = int(events[i][1])
        retransmitted += any(e[0] == "R" and int(e[1]) - t < 2_000_000 for e in between)
    return {"partial_acks": partial, "retransmitted": retransmitted, "held": partial - retransmitted}


def traced_run(kg, cell: dict, seed: int) -> tuple[dict[str, int], float]:
    from kernel_trace import traced_emulation  # this folder, on the path once main() has put it there

    lines, result = traced_emulation(kg, cell, seed, PROGRAM)
    return count(lines), result.goodput


def main() -> int:
    # The grid's cells, imported here: the tests load this script for count() alone, and a path added at import would
    # shadow their own packages (tests/fuzz) by this folder's modules.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from kernel_trace import cell_and_seeds

    kg, cell, seeds = cell_and_seeds(sys.argv, "10 Mb/s, 10 ms, fading 2.5 Hz, cubic, SACK off", [1, 5, 8])
    name = cell["name"]
    if cell["sender"][2]:
        print(f"{cell['name']}: has SACK; the partial-ACK rule is NewReno's, without it", file=sys.stderr)
        return 2
    rows = []
    for seed in seeds:
        found, goodput = traced_run(kg, cell, seed)
        rows.append({"cell": name, "seed": seed, "goodput": goodput, **found})
        print(f"seed {seed}: goodput {goodput:.3f}; {found['partial_acks']} partial ACKs in recovery, "
              f"{found['retransmitted']} followed by a retransmission, {found['held']} by none", flush=True)
    table = pd.DataFrame(rows)
    table.to_csv(OUT, index=False)
    held, partial = table["held"].sum(), table["partial_acks"].sum()
    print(f"all runs: {held} of {partial} partial ACKs sent no retransmission ({held / partial:.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
