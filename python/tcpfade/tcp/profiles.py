"""The sender's profiles: named choices of its parts (issue 35; BRIEF §3: a profile is a choice of parts, never a
copy of the sender). A call's ``profile`` sets every part it does not set itself; an explicit keyword wins.

- ``"papers"``: every part's declared default, the TCP of the five papers. Every reproduction pins it, and it is
  the default of every entry point, so a result computed before profiles existed is computed the same way.
- ``"rfc"``: the standards-track sender: RFC 5681's ssthresh, RFC 3042 limited transmit, RFC 6582 NewReno with its
  guard, RFC 6298 timers, RFC 3465 byte counting.
- ``"linux"``: the kernel's defaults where they change what the models compute, rule by rule beside the kernel
  source that defines each (:data:`LINUX`'s ``sources``), SACK, PRR and RACK-TLP included.

docs/parameters.md tables them against their sources (``tcpfade._params.render``). The slotted model and its analyses take
no profile: their clock counts slots, so neither RFC 6298's timer nor the kernel's times apply; their parts are set
one by one (``ssthresh_rule``, ``limited_transmit``, ...)."""

from __future__ import annotations

from .. import _validate as v
from .._params import Param, Profile

PAPERS = Profile(
    "papers", {},
    "The papers' TCP (zorzi-rao §2, abouzeid §II, tsaoussidis-badr §3): every part's declared default.",
)

RFC = Profile(
    "rfc",
    {"ssthresh_rule": "half_flight", "limited_transmit": True, "recover_guard": True, "byte_counting": True,
     "hold_ssthresh_on_rto": True,
     "initial_window": 3, "rto": None, "initial_rto": 1.0, "min_rto": 1.0, "max_rto": 64.0,
     "delayed_ack_rule": "rfc5681"},
    "A standards-track sender: RFC 5681 with RFC 3042, RFC 6582, RFC 6298 and RFC 3465.",
    sources={
        "ssthresh_rule": "RFC 5681 §3.1 eq. (4): ssthresh = max(FlightSize/2, 2 SMSS)",
        "limited_transmit": "RFC 3042 §2 (and RFC 5681 §3.2 step 2: its segments are not in FlightSize)",
        "recover_guard": "RFC 6582 §3.2 steps 2 and 4 (NewReno's recover); reno runs RFC 5681 §3.2's Reno, which has "
                         "no guard, so the profile leaves it off there",
        "byte_counting": "RFC 3465 §2.2 with L = 2 SMSS (RFC 5681 §3.1 allows it)",
        "initial_window": "RFC 5681 §3.1 eq. (3): 3 segments for 1095 < SMSS <= 2190 bytes (a 1460-byte MSS); "
                          "RFC 6928's 10 stays an option (initial_window=10)",
        "rto": "RFC 6298 §2: the RTO from SRTT and RTTVAR",
        "initial_rto": "RFC 6298 §2.1: 1 s before the first sample",
        "min_rto": "RFC 6298 §2.4: RTO rounded up to 1 s",
        "delayed_ack_rule": "RFC 5681 §4.2: an immediate ACK for a segment that fills all or part of a gap, "
                            "wherever ACKs are delayed (the transfer model's 0.2 s by default; in the link and "
                            "WCDMA models only with delayed_ack set, the profile ACKing every segment there)",
        "max_rto": "RFC 6298 §2.5: a maximum of at least 60 s",
        "hold_ssthresh_on_rto": "RFC 5681 §3.1: a segment retransmitted by the timer once already holds ssthresh",
    },
    only_for={"recover_guard": ("newreno", "cubic")},
    refused={
        "oldtahoe": "RFC 5681 §3.2 requires fast retransmit on the third duplicate ACK",
        "tahoe": "RFC 5681 §3.2 requires fast recovery after a fast retransmit",
        "probing": "TCP-Probing is not a standards-track TCP (tsaoussidis-badr's proposal)",
    },
)

LINUX = Profile(
    "linux",
    {"ssthresh_rule": "half_window", "limited_transmit": True, "recover_guard": True, "byte_counting": True,
     "hold_ssthresh_on_rto": True, "ssthresh_once_per_window": True,
     "initial_window": 10, "rto": None, "rto_rule": "linux", "initial_rto": 1.0, "min_rto": 0.2,
     "max_rto": 120.0, "timestamps": True,
     "clock_granularity": 0.001, "delayed_ack": 0.04, "delayed_ack_rule": "rfc5681", "sack": True, "prr": True, "rack": True,
     "cubic_alpha": "linux", "integer_window": True, "send_buffer": 4194304, "prr_bound": "safe_ack",
     "prr_partial_ack": "sndcnt", "frto": True, "rwnd_rule": "linux", "cwnd_limited": True,
     "rwnd_bytes": 33_554_432},
    "Linux's defaults where they change the result (net/ipv4/tcp_*.c, include/net/tcp.h).",
    sources={
        "ssthresh_rule": "tcp_reno_ssthresh(): half the window, not of FlightSize (its rounding: integer_window; "
                         "CUBIC: its own β = 0.7, bictcp_recalc_ssthresh())",
        "limited_transmit": "tcp_input.c counts each duplicate ACK as a segment out of the network (sacked_out, "
                            "tcp_add_reno_sack()), so new data goes out on the first duplicate ACKs: RFC 3042's "
                            "effect",
        "recover_guard": "tcp_input.c's high_seq: no new recovery until the cumulative ACK passes it",
        "byte_counting": "tcp_slow_start() and tcp_cong_avoid_ai() count the segments acknowledged (the kernel has no "
                         "L = 2 limit; here L = 2 applies)",
        "initial_window": "TCP_INIT_CWND = 10 (include/net/tcp.h; RFC 6928)",
        "rto": "tcp_rtt_estimator(), tcp_set_rto(): an RTO estimated from SRTT and the deviation (mdev)",
        "rto_rule": "tcp_rtt_estimator(): rttvar_us is the round's largest mdev, at least tcp_rto_min, decaying by a "
                    "quarter per round (a falling RTT moves mdev with gain 1/32); __tcp_set_rto(): RTO = SRTT + "
                    "rttvar_us, so at least SRTT + 200 ms",
        "initial_rto": "TCP_TIMEOUT_INIT = 1 s (include/net/tcp.h)",
        "min_rto": "TCP_RTO_MIN = 200 ms (include/net/tcp.h), the floor of the variance term (rto_rule)",
        "timestamps": "net.ipv4.tcp_timestamps = 1 (Documentation/networking/ip-sysctl.rst): tcp_ack_update_rtt() in "
                      "tcp_input.c takes the echoed timestamp when an ACK covers retransmitted data, and any valid "
                      "sample resets icsk_backoff (\"RFC6298: only reset backoff on valid RTT measurement\")",
        "max_rto": "TCP_RTO_MAX = 120 s (include/net/tcp.h)",
        "hold_ssthresh_on_rto": "tcp_enter_loss(): ssthresh (and the module's state) set only at the first timeout "
                                "of a loss episode, not while icsk_retransmits > 0",
        "clock_granularity": "jiffies at HZ = 1000 (1 ms); tcp_rtt_estimator() works in microseconds",
        "delayed_ack": "TCP_DELACK_MIN = 40 ms (include/net/tcp.h): an ACK per two segments or after the timer",
        "delayed_ack_rule": "__tcp_ack_snd_check() in tcp_input.c: an ACK at once while the out-of-order queue holds "
                            "data, and when a segment empties it (tcp_data_queue()); traced, each go-back-N "
                            "retransmission into a gap was ACKed one round trip after it left (docs/validation/"
                            "kernel.md)",
        "sack": "net.ipv4.tcp_sack = 1 by default (Documentation/networking/ip-sysctl.rst); the scoreboard is "
                "tcp_sacktag_write_queue() in tcp_input.c",
        "rack": "net.ipv4.tcp_recovery = 1 by default (RACK loss detection, Documentation/networking/ip-sysctl.rst; "
                "net/ipv4/tcp_recovery.c) with TLP on (tcp_early_retrans = 3, tcp_schedule_loss_probe() in "
                "tcp_output.c): RFC 8985; the kernel's RACK replaces the duplicate-ACK count, as here",
        "cubic_alpha": "tcp_cubic.c, bictcp_update(): the Reno-friendly estimate tcp_cwnd grows by one per "
                       "cwnd · beta_scale / 8 segments acknowledged (α = 3(1 − β)/(1 + β)) whatever cwnd_prior; RFC "
                       "9438 §4.3's switch to 1 is not in it (the kernel's growth, traced, docs/validation/kernel.md)",
        "ssthresh_once_per_window": "tcp_enter_loss(): \"reduce ssthresh if it has not yet been made inside this "
                                    "window\": not in Recovery or CWR before SND.UNA passes high_seq",
        "integer_window": "tcp_snd_cwnd() and snd_ssthresh are whole segments (include/linux/tcp.h), the growth's "
                          "fraction kept apart in snd_cwnd_cnt and cleared at a reduction (tcp_init_cwnd_reduction()); "
                          "tcp_reno_ssthresh() = max(cwnd >> 1, 2), bictcp_recalc_ssthresh() = max(cwnd · 717 >> "
                          "10, 2), each rounding down (measured against the kernel, docs/validation/kernel.md)",
        "send_buffer": "net.ipv4.tcp_wmem's maximum, 4 MiB (Documentation/networking/ip-sysctl.rst): the send buffer "
                       "that tcp_sndbuf_expand() grows toward, and sk_stream_memory_free() stops new data at; traced, "
                       "the kernel's flight stopped at 2,817 segments in a crawl (docs/validation/kernel.md)",
        "prr": "tcp_cwnd_reduction() in tcp_input.c: PRR in every recovery since Linux 3.2, with SACK or without "
               "(then DeliveredData and pipe from duplicate ACKs, tcp_add_reno_sack())",
        "prr_bound": "tcp_cwnd_reduction(): max(prr_delivered − prr_out, newly delivered), one more only when the "
                     "ACK advances SND.UNA and marks nothing newly lost (Linux since 2015; RFC 9937's SafeACK)",
        "frto": "net.ipv4.tcp_frto = 2 (Documentation/networking/ip-sysctl.rst): F-RTO, with SACK and without "
                "(tcp_enter_loss() sets tp->frto from the sysctl alone), tcp_process_loss() in tcp_input.c; an undo "
                "restores tcp_undo_cwnd_reduction()'s max(cwnd, prior_cwnd) and prior_ssthresh",
        "rwnd_rule": "net.ipv4.tcp_moderate_rcvbuf = 1 with tcp_rmem = 4096 131072 33554432 (Documentation/"
                     "networking/ip-sysctl.rst): the receiver's window starts at the SYN-ACK's 64 KiB, its ceiling "
                     "rcv_ssthresh grows two segments a segment (tcp_grow_window()), and once a receiver round trip "
                     "the buffer is right-sized to 2c(1 + 2(c − s)/s) of what was read (tcp_rcv_space_adjust(), "
                     "tcp_rcvbuf_grow() in kernel 6.18); __tcp_select_window() never moves the right edge back; "
                     "traced against the kernel (docs/validation/kernel.md)",
        "rwnd_bytes": "tcp_rmem[2] = 32 MiB (Documentation/networking/ip-sysctl.rst; this machine's kernel, 6.18): the "
                      "most a receive buffer autotunes to, so the window rwnd_rule computes is the only limit (a "
                      "transfer's receiver buffer; the link model counts its window in packets, wmax, 2^16 already)",
        "cwnd_limited": "tcp_is_cwnd_limited() in include/net/tcp.h, asked by tcp_reno_cong_avoid() and "
                        "cubictcp_cong_avoid() before any growth, from what tcp_cwnd_validate() in tcp_output.c keeps "
                        "of each window (is_cwnd_limited, max_packets_out): no growth unless cwnd was filled, but in "
                        "slow start up to twice the largest flight",
        "prr_partial_ack": "tcp_xmit_retransmit_queue() in tcp_output.c stops once tcp_packets_in_flight() reaches "
                           "snd_cwnd, which tcp_cwnd_reduction() sets to pipe + sndcnt, forcing a packet only while "
                           "prr_out is 0; traced, a partial ACK with sndcnt 0 sent nothing and the RTO repaired the "
                           "window (docs/validation/kernel.md)",
    },
    requires={"rack": "sack"},
    where_declared=frozenset({"rwnd_bytes"}),
    refused={
        "oldtahoe": "Linux has no congestion-control module without fast retransmit",
        "tahoe": "Linux has no Tahoe module: every module recovers by fast recovery",
        "reno": "Linux's reno module recovers as NewReno does (partial ACKs retransmit, tcp_input.c); use newreno",
        "probing": "Linux has no TCP-Probing module",
    },
)

#: The profiles, the default first.
PROFILES: tuple[Profile, ...] = (PAPERS, RFC, LINUX)

PROFILE = Param("profile", v.Choice(tuple(p.name for p in PROFILES), loose=True), "papers",
                "Which parts the sender runs where the call does not say: papers (the five papers' TCP, every part's "
                "default), rfc (RFC 5681 + 3042 + 6582 + 6298 + 3465) or linux (the kernel's defaults); an explicit "
                "keyword wins. The rules and their sources: docs/parameters.md, \"Profiles\".")

