"""The TCP sender's and timer's parameters, declared once and shared by every model that runs the sender (the
slotted, link and transfer drivers and WCDMA's TCP over radio blocks). A model takes a group as it is, or one
member with another default (``MIN_RTO.but(default=1.0)``); the rule, unit and meaning stay the one declared here.
The glossary (docs/glossary.md) gives each name's meaning across the project."""

from __future__ import annotations

from .. import _validate as v
from .._params import Param
from .._core import variant_names

#: The variants of the one sender (``tcp/sender.rs``): the papers' four, TCP-Probing and CUBIC.
VARIANTS: tuple[str, ...] = tuple(variant_names())

#: Times of the event-driven timer, in seconds: from a microsecond (below it the work limit refuses a run anyway)
#: to about three hours.
TIMER_SECONDS = v.Real(1e-6, 1e4, words="must be a finite number in [1e-6, 1e4] (seconds)")


def variant(default: str, options: tuple[str, ...] = VARIANTS, doc: str = "TCP variant.",
            refused: dict[str, str] | None = None) -> Param:
    """The ``variant`` parameter (positional) of a model whose variants are ``options``; ``refused`` names those it
    cannot run, with the reason (never listed, and explained when given)."""
    return Param("variant", v.Choice(options, loose=True, refused=refused), default, doc, positional=True)


def no_probes(model: str) -> dict[str, str]:
    """Why a driver without a probe segment (the slotted model, the bulk link) refuses TCP-Probing."""
    return {"probing": f"{model} carries data packets of one size only, and TCP-Probing's probes are header-only "
                       "segments; simulate it with simulate_transfer"}

#: The variants whose window rules read the driver's clock in seconds (CUBIC: C = 0.4 segments/s³, RFC 9438 §4.2).
TIMED_VARIANTS: tuple[str, ...] = ("cubic",)

#: The variants of a driver that carries data segments only (everything but TCP-Probing): the link models.
WINDOW_VARIANTS = tuple(x for x in VARIANTS if x != "probing")

#: The papers' four variants: those of the slotted model and its analyses (no probes, no clock in seconds).
SLOT_VARIANTS = tuple(x for x in WINDOW_VARIANTS if x not in TIMED_VARIANTS)


def no_seconds(model: str, instead: str = "simulate_link or simulate_transfer") -> dict[str, str]:
    """Why a model whose time is not in seconds (the slotted model counts slots) refuses CUBIC."""
    return {x: f"{model}'s clock counts slots, not seconds, and CUBIC's window function is in seconds (C = 0.4 "
               f"segments/s³, RFC 9438 §4.2); simulate it with {instead}" for x in TIMED_VARIANTS}


SEED = Param("seed", v.SEED, doc="Seed of the random numbers: the same inputs and seed give the same results.",
             sweep=False)

WMAX = Param("wmax", v.Integer(1, 1 << 24), 1 << 16, "Receiver's advertised window Wmax (rwnd).", "packets")
DUPTHRESH = Param("dupthresh", v.Integer(1, 1 << 20), 3, "Duplicate-ACK threshold K (dupthresh).", short="-K",
                  unread_when=lambda a: "oldtahoe has no fast retransmit" if a["variant"] == "oldtahoe" else None)
INITIAL_SSTHRESH = Param("initial_ssthresh", v.Optional(v.Real(1.0)), None, "Initial ssthresh Wth.", "packets",
                         default_words="wmax")
INITIAL_WINDOW = Param("initial_window", v.Integer(1, 1 << 20), 1,
                       "The sender's initial window IW: cwnd at the start (RFC 5681 §3.1 allows up to 4 segments, "
                       "RFC 6928 10); the loss window after a timeout stays 1.", "segments")
RECOVER_GUARD = Param("recover_guard", v.Flag(), False,
                      "NewReno's recovery (newreno, cubic) only: RFC 6582 §3.2 steps 2 and 4 (no new fast "
                      "retransmit until the cumulative ACK passes recover; BRIEF D10).")
BYTE_COUNTING = Param("byte_counting", v.Flag(), False,
                      "RFC 3465 appropriate byte counting: an ACK grows cwnd by the segments it acknowledges (L = 2 "
                      "in slow start), as Linux does, instead of by one ACK's worth (the papers' rule).")

SSTHRESH_RULE = Param("ssthresh_rule", v.Choice(("half_window", "half_flight")), "half_window",
                      "Wth at a loss: half_window, ⌈W/2⌉ of the real-valued window (zorzi-rao §2, the papers'); "
                      "half_flight, max(FlightSize/2, 2) with FlightSize the segments outstanding (RFC 5681 §3.1 "
                      "eq. (4)). CUBIC has its own (β_cubic · W, RFC 9438 §4.6).",
                      unread_when=lambda a: "CUBIC sets ssthresh by its own β_cubic (RFC 9438 §4.6)"
                      if a["variant"] == "cubic" else None)

LIMITED_TRANSMIT = Param("limited_transmit", v.Flag(), False,
                          "RFC 3042 limited transmit: one new segment beyond cwnd on each of the first two duplicate "
                          "ACKs (at most cwnd + 2 outstanding, within rwnd), cwnd unchanged; needs a variant with fast "
                          "retransmit (not oldtahoe).")

SACK = Param("sack", v.Flag(), False,
             "SACK: the receiver's ACKs carry up to 3 SACK blocks (RFC 2018) and the sender recovers by RFC 6675's "
             "scoreboard, pipe and NextSeg (rescue retransmission included) instead of Reno's or NewReno's fast "
             "recovery; reno, newreno and cubic only (tahoe and oldtahoe have no fast recovery, probing no "
             "retransmission to replace).")
PRR = Param("prr", v.Flag(), False,
            "PRR-SSRB (RFC 6937) as the window rule during fast recovery: cwnd falls to ssthresh in proportion to "
            "the data delivered instead of at once (or, without SACK, instead of RFC 5681's inflation), with pipe "
            "and the data delivered from SACK's scoreboard or, without SACK, from duplicate ACKs as Linux does; "
            "reno, newreno and cubic only.")
PRR_BOUND = Param("prr_bound", v.Choice(("ssrb", "crb", "safe_ack")), "ssrb",
                  "PRR's reduction bound once pipe is at or below ssthresh (with prr=True): ssrb, one segment more "
                  "than delivered on every ACK (RFC 6937's recommendation); crb, never more than delivered (strict "
                  "packet conservation); safe_ack, RFC 9937's and Linux's (tcp_cwnd_reduction()): packet "
                  "conservation, and SSRB's extra segment only on an ACK that advances SND.UNA and shows no further "
                  "loss.",
                  unread_when=lambda a: None if a["prr"] else "it is PRR's bound, and prr is off")
PRR_PARTIAL_ACK = Param("prr_partial_ack", v.Choice(("forced", "sndcnt")), "forced",
                        "Without SACK, with prr=True: NewReno's retransmission at a partial ACK goes out at once, "
                        "outside PRR's count (forced: RFC 6582 §3.2 step 3 read alone), or as the first of the packets "
                        "PRR's sndcnt allows, waiting for an ACK that allows one (sndcnt: RFC 6937 §3, every packet "
                        "sent in recovery counts; Linux's tcp_xmit_retransmit_queue() stops at cwnd).",
                        unread_when=lambda a: ("it is the rule without SACK, and sack is on" if a["sack"] else
                                               None if a["prr"] else "it is a rule of PRR, and prr is off"))
RACK = Param("rack", v.Flag(), False,
             "RACK-TLP (RFC 8985) as SACK's loss detection: a segment is lost once one sent after it is delivered "
             "and a reordering window (min_RTT/4) has passed, instead of by DupThresh, and a tail loss probe goes out "
             "2·SRTT after the last ACK instead of waiting for the RTO; needs sack=True.")

RACK_TIMERS = Param("rack_timers", v.Choice(("rfc8985", "linux")), "rfc8985",
                    "How RACK-TLP's timers are set (with rack=True): rfc8985, PTO = 2·SRTT (+ 200 ms with one segment "
                    "out) and the reordering timer at the last segment's RACK.rtt + reo_wnd (RFC 8985 §7.2, §6.2); "
                    "linux, as tcp_schedule_loss_probe() and tcp_rack_mark_lost() do: PTO = 2·SRTT + 2 ms "
                    "(TCP_TIMEOUT_MIN), or + min_rto (tcp_rto_min) with one segment out, and the reordering timer 2 ms "
                    "later.",
                    unread_when=lambda a: None if a["rack"] else "it sets RACK-TLP's timers, and rack is off")

FRTO = Param("frto", v.Flag(), False,
             "F-RTO (RFC 5682 §3, SACK-enhanced, as Linux's tcp_frto = 2): after a retransmission timeout the sender "
             "sends new data in place of the holes once, and if the next ACK acknowledges a segment never sent again "
             "the timeout was spurious and is undone (cwnd and ssthresh as before it, nothing lost). With SACK or without, as Linux "
             "runs it (without SACK the cumulative ACK is the evidence, and a duplicate ACK after the new data shows the "
             "loss real; so, as in Linux, an ACK that jumps over a repaired hole to segments the receiver held undoes "
             "that timeout too); needs a variant with fast recovery (reno, newreno, cubic).")

HYSTART = Param("hystart", v.Flag(), False,
                 "HyStart++ (RFC 9406) in the initial slow start: it leaves slow start for a conservative slow start "
                 "(growth / 4) when the round's minimum RTT rises by max(4 ms, min(RTT/8, 16 ms)), and enters "
                 "congestion avoidance after 5 such rounds; a falling RTT resumes slow start, a loss ends it. Needs "
                 "a clock in seconds (not the slotted model).")

CWND_LIMITED = Param("cwnd_limited", v.Flag(), False,
                     "cwnd grows only while it limits the sender, as Linux's tcp_is_cwnd_limited() rules: not while "
                     "the receiver's window (rwnd_rule) or the end of the data holds the sender back, except in slow "
                     "start up to twice the largest flight of the last window; the papers' TCP grows W on every ACK of "
                     "new data. Not in the slotted model, whose sender always fills its window.")

HOLD_SSTHRESH_ON_RTO = Param("hold_ssthresh_on_rto", v.Flag(), False,
                             "A retransmission timeout that repeats one (the cumulative ACK unchanged since the last "
                             "timeout) leaves ssthresh as it is, as RFC 5681 §3.1 and Linux do; the papers' TCP "
                             "recomputes it at every timeout.")

CUBIC_ALPHA = Param("cubic_alpha", v.Choice(("rfc9438", "linux")), "rfc9438",
                    "CUBIC's Reno-friendly growth once W_est has reached cwnd_prior (the window before the last "
                    "reduction): rfc9438, α_cubic = 1 from there on (RFC 9438 §4.3); linux, α_cubic = 3(1 − β)/(1 + β) "
                    "throughout, as tcp_cubic.c's bictcp_update() does. Other variants have no W_est (given for one, a warning says so).",
                    default_words="RFC 9438",
                    unread_when=lambda a: None if a["variant"] == "cubic" else
                    f"only CUBIC has W_est, and the variant is {a['variant']}")

INTEGER_WINDOW = Param("integer_window", v.Flag(), False,
                       "Linux's whole-segment window: congestion avoidance adds whole segments (tcp_cong_avoid_ai(): "
                       "one per W segments acknowledged; CUBIC one per bictcp_update()'s cnt, toward the larger of its "
                       "whole target and ⌊W_est⌋), and a reduction starts from ⌊cwnd⌋ and rounds the new ssthresh "
                       "down, at least 2 (tcp_reno_ssthresh(): max(cwnd >> 1, 2); bictcp_recalc_ssthresh(): "
                       "max(cwnd · 717 >> 10, 2), W_max = cwnd · 1741 >> 11 under fast convergence), where the "
                       "papers' window is real-valued (W += 1/W, ⌈W/2⌉) and RFC 9438 takes β_cubic · cwnd.")

SSTHRESH_ONCE_PER_WINDOW = Param("ssthresh_once_per_window", v.Flag(), False,
                                 "A retransmission timeout during a fast recovery not yet past its recovery point leaves "
                                 "ssthresh as that recovery set it (the window's reduction is made already), as Linux's "
                                 "tcp_enter_loss() does; the papers' TCP and RFC 5681 §3.1 set it again from cwnd.",
                                 unread_when=lambda a: f"{a['variant']} has no fast recovery"
                                 if a["variant"] in ("tahoe", "oldtahoe") else None)

#: The sender's window rules, in the order the signatures list them.
SENDER = (WMAX, DUPTHRESH, INITIAL_SSTHRESH, INITIAL_WINDOW, RECOVER_GUARD, BYTE_COUNTING, SSTHRESH_RULE,
          LIMITED_TRANSMIT, SACK, PRR, PRR_BOUND, PRR_PARTIAL_ACK, RACK, RACK_TIMERS, FRTO, HYSTART, HOLD_SSTHRESH_ON_RTO,
          SSTHRESH_ONCE_PER_WINDOW, CUBIC_ALPHA, INTEGER_WINDOW, CWND_LIMITED)

#: The variants whose loss recovery SACK (RFC 6675) can replace: those with a fast recovery.
SACK_VARIANTS: tuple[str, ...] = ("reno", "newreno", "cubic")


def check_recovery_parts(a: dict) -> None:
    """Refuse the sender's recovery parts that do not fit its variant or each other (the core refuses them too,
    in the same words): SACK, PRR or F-RTO with a variant without a fast recovery, RACK without SACK."""
    for part, rule in (("sack", "SACK's loss recovery (RFC 6675)"), ("prr", "PRR (RFC 6937)"), ("frto", "F-RTO (RFC 5682)")):
        if a.get(part) and a["variant"] not in SACK_VARIANTS:
            if a["variant"] == "probing":
                why = (f"probing reacts to a loss with a probe cycle, not retransmissions, so {rule} has no place in "
                       "it; use reno, newreno or cubic")
            else:
                why = (f"{a['variant']} has no fast recovery for {rule} to replace: its reaction to a loss is "
                       "go-back-N from W = 1; use reno, newreno or cubic")
            raise v.fail(part, True, why)
    if a.get("rack") and not a.get("sack"):
        raise v.fail("rack", True, "RACK-TLP is the loss detection of SACK's loss recovery here (it reads which "
                                   "segments the SACK scoreboard holds, RFC 8985 §4); turn sack on too")

FIXED_RTO = Param("rto", v.Optional(TIMER_SECONDS), None, "A fixed retransmission timeout instead of RFC 6298's "
                  "estimate.", "s", default_words="RFC 6298")
def _estimator_only(a: dict) -> str | None:
    """Why a setting of RFC 6298's estimator goes unread: a fixed rto has none."""
    return None if a.get("rto") is None else "a fixed rto has no estimator"


INITIAL_RTO = Param("initial_rto", TIMER_SECONDS, 3.0, "RTO before the first RTT sample (RFC 6298 §2.1).", "s",
                    unread_when=_estimator_only)
MIN_RTO = Param("min_rto", TIMER_SECONDS, 0.02, "RFC 6298's lower bound on the RTO (§2.4).", "s",
                unread_when=_estimator_only)
MAX_RTO = Param("max_rto", v.Real(1e-6, 1e5, words="must be a finite number in [1e-6, 1e5] (seconds)"), 64.0,
                "RFC 6298's upper bound on the RTO (§2.5).", "s", unread_when=_estimator_only)
CLOCK_GRANULARITY = Param("clock_granularity", v.Real(0.0, 1e3), 0.01,
                          "The timer's clock tick G (RFC 6298 §2.3).", "s", unread_when=_estimator_only)
MAX_BACKOFF = Param("max_backoff", v.Integer(1, 1 << 20), 64,
                    "Largest multiplier of the RTO's binary backoff (RFC 6298 §5.5; a power of two).")

RTO_RULE = Param("rto_rule", v.Choice(("rfc6298", "linux")), "rfc6298",
                 "How the estimated RTO follows the RTT samples: rfc6298 (RTO = SRTT + max(G, 4 RTTVAR), then at "
                 "least min_rto) or linux (tcp_rtt_estimator(): the variance term is the round's largest deviation, "
                 "at least min_rto, decaying by a quarter per round, so RTO >= SRTT + min_rto). Not read with a fixed "
                 "rto (given with one, a warning says so).", default_words="RFC 6298",
                 unread_when=_estimator_only)

TIMESTAMPS = Param("timestamps", v.Flag(), False,
                   "RFC 7323 timestamps' RTT samples where Karn's rule takes none: segments carry their send time and "
                   "ACKs echo the receiver's TS.Recent, so an ACK that covers a segment sent again gives the RTT since "
                   "the copy it answers, and with it the RTO's backoff ends, as Linux's tcp_ack_update_rtt() does with "
                   "tcp_timestamps = 1. Other samples are as without (one timed segment at a time). With a fixed rto "
                   "it changes the RTT samples only (mean_rtt, RACK, HyStart++), not the timer.")

WINDOW_TRACE = Param("trace_seconds", v.NON_NEGATIVE, 0.0,
                     "Keep the sender's window over the first trace_seconds of simulated time (a link run's warm-up "
                     "included; a transfer's from the end of its handshake): result.trace, result.plot_trace(); a row "
                     "whenever an ACK or a timer changed the sender, once it has sent what that allowed. 0 keeps none.",
                     "s", sweep=False)

#: RFC 6298's timer. The defaults are ns-2's at the time of abouzeid's validation (no minimum but two ticks, 64 s
#: maximum, tcpTick 0.01 s); the transfer model takes the RFC's own 1 s.
TIMER = (FIXED_RTO, INITIAL_RTO, MIN_RTO, MAX_RTO, CLOCK_GRANULARITY, MAX_BACKOFF, RTO_RULE, TIMESTAMPS)

DELAYED_ACK = Param("delayed_ack", v.Optional(v.Real(0.0, 1e3, low_open=True)), None,
                    "Delayed-ACK timeout: an ACK per two segments or when it expires (RFC 1122 §4.2.3.2); None: an "
                    "ACK per segment.", "s")
DELAYED_ACK_RULE = Param("delayed_ack_rule", v.Choice(("ns2", "rfc5681")), "ns2",
                         "With delayed ACKs, which in-order segment is ACKed at once: ns2, only one that fills the "
                         "whole gap below the segments held out of order (ns-2's DelAckSink, the papers' simulations); "
                         "rfc5681, also one that fills part of it, i.e. whenever segments are held out of order (RFC "
                         "5681 §4.2; BSD's TCP_REASS and Linux's __tcp_ack_snd_check() do so). Out-of-order and old "
                         "segments are ACKed at once under both.",
                         unread_when=lambda a: None if a["delayed_ack"] is not None else "ACKs are not delayed "
                                                                                         "(delayed_ack=None)")
RWND_RULE = Param("rwnd_rule", v.Choice(("wmax", "linux")), "wmax",
                  "The window the receiver advertises in each ACK: wmax, its whole buffer, every time (the papers' "
                  "receiver); linux, Linux 6.18's autotuned window for a reader that reads at once "
                  "(tcp_grow_window(), tcp_rcv_space_adjust(), __tcp_select_window(); docs/models.md, \"The "
                  "receiver's window\"): 45 segments of 1448 bytes at first, rising with what arrives in each of the "
                  "receiver's round trips, never above wmax. The kernel counts bytes: a packet of the link model "
                  "carries packet_bytes less 52 bytes of IP, TCP and timestamp headers (40 without timestamps), a "
                  "transfer's segment mss; a transfer's rwnd_bytes caps the window (64 KiB by default; the linux profile's "
                  "32 MiB, tcp_rmem[2]).")
SEND_BUFFER = Param("send_buffer", v.Optional(v.Integer(1, 1 << 40)), None,
                    "The sender's socket buffer: the data sent and not yet acknowledged never exceeds it, so at most "
                    "send_buffer // packet size packets are outstanding, a cap that combines with the receiver's "
                    "window (the smaller holds) and, like it, bounds cwnd. Linux's is tcp_wmem's maximum, 4 MiB; None: "
                    "no limit.", "bytes", default_words="no limit")


def header_bytes(timestamps: bool) -> int:
    """The headers of a packet of the link model: 20 bytes of IP, 20 of TCP and, with timestamps, RFC 7323's 12-byte
    option."""
    return 40 + (12 if timestamps else 0)


def payload_bytes(packet_bytes: int, timestamps: bool) -> int:
    """The bytes of payload of a packet of ``packet_bytes`` on the wire, for the receiver's window (``rwnd_rule``):
    less its :func:`header_bytes`; at least 1 (the core reads it only with rwnd_rule='linux', which refuses a packet
    without payload)."""
    return max(packet_bytes - header_bytes(timestamps), 1)


def window_cap(wmax: int, send_buffer: int | None, packet_bytes: int) -> int:
    """The window the core runs with: the receiver's ``wmax`` [packets], or fewer when the sender's buffer of
    ``send_buffer`` bytes holds fewer packets of ``packet_bytes``. A buffer that holds no whole packet is refused:
    nothing could be sent."""
    if send_buffer is None:
        return wmax
    if send_buffer < packet_bytes:
        raise v.fail("send_buffer", send_buffer, f"must hold one packet at least ({packet_bytes} bytes here)")
    return min(wmax, send_buffer // packet_bytes)


BATCHES = Param("batches", v.Integer(2, 1 << 20), 20, "Batches of the measured time for the confidence intervals.")
CONFIDENCE = Param("confidence", v.CONFIDENCE, 0.95, "Level of the confidence intervals.")
PROGRESS = Param("progress", v.PROGRESS, None,
                 "True for a progress bar (shown once the run has lasted a second), or a callable that gets the "
                 "fraction done (0 to 1) about every 0.1 s; an exception it raises stops the run and is raised here. "
                 "Ctrl-C stops a run at once, with or without it.", cli=False, sweep=False)
