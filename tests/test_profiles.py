"""The sender's profiles (issue 35): a profile is a choice of parts, nothing else. Each is checked against the calls
that name the same parts one by one (the independent side: the parts themselves are checked by their own traces,
crates/tcpfade-core/tests/limited_transmit.rs and the rest), in the API, the CLI and sweeps; explicit keywords win;
the variants a profile cannot run are refused with its reason."""

from __future__ import annotations

import contextlib

import json

import pytest

import tcpfade
from tcpfade.errors import InertParameterWarning
from tcpfade.cli import main
from tcpfade.sweep import Experiment, Store, run_sweep
from tcpfade.tcp.profiles import LINUX, PROFILES, RFC

LINK = dict(rate=100, tau=0.05, buffer=10, channel=tcpfade.Bernoulli(0.03), duration=300, seed=5)
#: The linux profile's parts as the link model has them (a transfer's receive buffer in bytes is not among them).
LINK_LINUX = tcpfade.simulate_link.model.profile_values("linux")

#: A profile spelled out part by part names parts the variant does not read (cubic_alpha for newreno, ssthresh_rule for
#: cubic, prr_partial_ack with SACK): each call says so with an InertParameterWarning, which these tests set aside.
SPELLED_OUT = pytest.mark.filterwarnings("ignore::tcpfade.errors.InertParameterWarning")


def fields(r) -> str:
    """Every field but the profile's name, as text (NaN equals NaN there: the per-visit terms of a Bernoulli run)."""
    out = r.to_dict()
    out.pop("profile")
    return json.dumps(out, sort_keys=True, default=str)


def test_papers_is_the_default_and_changes_nothing():
    assert fields(tcpfade.simulate_link("newreno", **LINK)) == \
        fields(tcpfade.simulate_link("newreno", profile="papers", **LINK))
    assert tcpfade.simulate_link("newreno", **LINK).profile == "papers"


@SPELLED_OUT
@pytest.mark.parametrize("profile", [RFC, LINUX], ids=lambda p: p.name)
def test_a_profile_is_its_parts_named_one_by_one(profile):
    for variant in ("newreno", "cubic"):
        by_name = tcpfade.simulate_link(variant, profile=profile.name, **LINK)
        by_parts = tcpfade.simulate_link(variant, **tcpfade.simulate_link.model.profile_values(profile.name), **LINK)
        assert by_name.profile == profile.name and by_parts.profile == "papers"
        assert fields(by_name) == fields(by_parts)
    # ... and it changes the run (else the comparison above would prove nothing)
    assert fields(tcpfade.simulate_link("newreno", profile=profile.name, **LINK)) != \
        fields(tcpfade.simulate_link("newreno", **LINK))


@SPELLED_OUT
def test_an_explicit_keyword_wins_over_the_profile():
    given = tcpfade.simulate_link("newreno", profile="linux", min_rto=1.0, initial_window=2, **LINK)
    spelled = tcpfade.simulate_link("newreno", **{**LINK_LINUX, "min_rto": 1.0, "initial_window": 2}, **LINK)
    assert fields(given) == fields(spelled)


@SPELLED_OUT
def test_transfers_take_profiles_and_record_the_parts_they_ran():
    kw = dict(size_bytes=200_000, channel=tcpfade.ContinuousTwoState.on_off(2.0, 0.1), seed=3)
    r = tcpfade.simulate_transfer("newreno", profile="rfc", **kw)
    assert r.parameters["profile"] == "rfc"
    assert {k: r.parameters[k] for k in RFC.values} == RFC.values
    same = tcpfade.simulate_transfer("newreno", **RFC.values, **kw)
    assert (r.connection_time, r.retransmissions) == (same.connection_time, same.retransmissions)
    assert tcpfade.simulate_transfer("newreno", **kw).parameters["initial_window"] == 1


@pytest.mark.parametrize("profile,variant,reason", [
    ("rfc", "tahoe", "RFC 5681 §3.2 requires fast recovery"),
    ("rfc", "oldtahoe", "requires fast retransmit"),
    ("linux", "reno", "use newreno"),
    ("linux", "probing", "no TCP-Probing module"),
])
def test_a_profile_refuses_what_it_cannot_run_with_its_reason(profile, variant, reason):
    call = tcpfade.simulate_transfer if variant == "probing" else tcpfade.simulate_link
    kw = dict(size_bytes=10_000, channel=None) if variant == "probing" else dict(LINK)
    with pytest.raises(tcpfade.ParameterError, match=f"profile = '{profile}' is not allowed: cannot run {variant}: "
                                                     f".*{reason}"):
        call(variant, profile=profile, **kw)


@pytest.mark.parametrize("bad", ["bsd", True, 1, None, ""])
def test_an_unknown_profile_is_refused_in_one_line(bad):
    with pytest.raises(tcpfade.ParameterError, match="profile = .* is not allowed: must be one of papers, rfc, linux"):
        tcpfade.simulate_link("newreno", profile=bad, **LINK)


def test_limited_transmit_needs_fast_retransmit():
    with pytest.raises(tcpfade.ParameterError, match="limited_transmit = True is not allowed: .*oldtahoe has no fast"):
        tcpfade.simulate_link("oldtahoe", limited_transmit=True, **LINK)


def test_the_command_line_takes_the_profile_and_leaves_left_out_options_to_it(capsys):
    args = ["simulate-link", "--variant", "newreno", "--rate", "100", "--tau", "0.05", "--buffer", "10",
            "--error-rate", "0.03", "--duration", "300", "--seed", "5", "--json"]
    assert main([*args, "--profile", "rfc"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["profile"] == "rfc"
    api = tcpfade.simulate_link("newreno", profile="rfc", **LINK)
    assert row["goodput"] == api.goodput and row["timeouts"] == api.timeouts
    assert main([*args, "--profile", "rfc", "--min-rto", "0.2", "--no-limited-transmit"]) == 0
    row = json.loads(capsys.readouterr().out)
    api = tcpfade.simulate_link("newreno", profile="rfc", min_rto=0.2, limited_transmit=False, **LINK)
    assert row["goodput"] == api.goodput
    assert main(["simulate-link", "--help"]) == 0
    assert "(default: the --profile's; papers: 1; rfc: 3; linux: 10)" in " ".join(capsys.readouterr().out.split())
    assert main([*args, "--profile", "linux", "--variant", "reno"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tcpfade: --profile = 'linux' is not allowed: cannot run reno") and err.count("\n") == 1


def test_a_sweep_point_with_a_profile_is_the_direct_call(tmp_path):
    e = Experiment.from_dict({"sweep": {"model": "simulate_link", "seed": 11},
                              "fixed": {"rate": 100.0, "tau": 0.05, "buffer": 10, "channel": "bernoulli",
                                        "error_rate": 0.03, "duration": 300.0},
                              "axes": {"profile": [p.name for p in PROFILES], "variant": ["newreno", "cubic"]},
                              "output": {"store": str(tmp_path / "p.db")}})
    run_sweep(e, workers=1, progress=False)
    rows = Store(e.store).rows()
    assert len(rows) == 6
    for row in rows:
        p = row["params"]
        direct = tcpfade.simulate_link(p["variant"], profile=p["profile"], rate=100, tau=0.05, buffer=10,
                                       channel=tcpfade.Bernoulli(0.03), duration=300, seed=row["seed"])
        assert row["metrics"]["goodput"] == direct.goodput

    # The export names every part each point ran with: the profile's where the point set none.
    frame = Store(e.store).dataframe()
    for _, r in frame.iterrows():
        expected = {p.name: p for p in PROFILES}[r["profile"]].values
        assert r["initial_window"] == expected.get("initial_window", 1)
        assert r["limited_transmit"] == expected.get("limited_transmit", False)


@SPELLED_OUT
def test_wcdma_takes_the_parts_and_the_profiles_as_the_link_does():
    from tcpfade import wcdma
    from tcpfade.wcdma.tcp import tcp_over_blocks

    # The profile over the whole chain is its parts named one by one (a lossy run: 1.5 dB below the default target).
    kw = dict(users=3, duration=20.0, seed=4, target_sir_db=3.5)
    by_name = wcdma.simulate(profile="linux", **kw).to_frame()
    by_parts = wcdma.simulate(**wcdma.simulate.model.profile_values("linux"), **kw).to_frame()
    papers = wcdma.simulate(**kw).to_frame()
    assert by_name.throughput.tolist() == by_parts.throughput.tolist() != papers.throughput.tolist()
    # One bearer: a window of three with one lost block repaired by limited transmit's fast retransmit (RFC 3042),
    # by a timeout without it (initial window 3, nothing else sent: the hand-worked trace of
    # crates/tcpfade-core/tests/limited_transmit.rs over a radio bearer).
    blocks = [0] * 3000
    blocks[0] = 1                               # the first segment's block is lost, with W = IW = 3
    plain = tcp_over_blocks(blocks, initial_window=3)
    limited = tcp_over_blocks(blocks, initial_window=3, limited_transmit=True)
    assert (plain.timeouts, plain.fast_retransmits) == (1, 0)        # two duplicate ACKs only: the timer
    assert (limited.timeouts, limited.fast_retransmits) == (0, 1)    # segments 3 and 4 bring the third
    assert plain.retransmissions == limited.retransmissions == 1
    # Each bearer's row names the sender it ran (a review found BearerResult.to_dict without its parts).
    row = limited.to_dict()
    assert (row["variant"], row["initial_window"], row["limited_transmit"], row["sack"]) == ("newreno", 3, True, False)
    assert wcdma.simulate(profile="linux", **kw).users[0].to_dict()["integer_window"] is True
    with pytest.raises(tcpfade.ParameterError, match="limited_transmit = 'yes' is not allowed"):
        tcp_over_blocks(blocks, limited_transmit="yes")
    with pytest.raises(tcpfade.ParameterError, match="sack_blocks = 1 is not allowed: is not a parameter here"):
        tcp_over_blocks(blocks, sack_blocks=1)


def test_every_entry_point_defaults_to_the_papers_profile_or_has_none_with_a_reason():
    from tcpfade._params import all_models

    taking = {m.name for m in all_models() if m.profiles}
    assert taking == {"simulate_link", "simulate_transfer", "wcdma.simulate"}
    assert all(m["profile"].default == "papers" for m in all_models() if m.profiles)
    # The slotted model and the analyses count slots or solve the papers' chains; the emulator runs the kernel's
    # own TCP (docs/capabilities.md, "Drivers × sender parts and profiles").
    assert all("profile" not in m for m in all_models() if m.name not in taking)


@SPELLED_OUT
def test_turning_sack_off_under_the_linux_profile_keeps_prr_and_frto_and_drops_rack_as_the_kernel_does(tmp_path):
    # Linux runs PRR in every recovery, SACK or not (tcp_cwnd_reduction(); without SACK from duplicate ACKs), so
    # the linux profile with sack=False keeps PRR, by the cumulative ACKs' estimates (tcp/prr.rs), and F-RTO, on the
    # cumulative ACK's evidence (tcp_enter_loss() sets tp->frto whatever SACK says; tcp/frto.rs); RACK-TLP reads
    # SACK's scoreboard, so the profile's rack gives way (its `requires`) instead of contradicting the call.
    off = tcpfade.simulate_link("newreno", profile="linux", sack=False, **LINK)
    spelled = tcpfade.simulate_link("newreno", **{**LINK_LINUX, "sack": False, "prr": True, "rack": False,
                                                  "frto": True}, **LINK)
    assert fields(off) == fields(spelled)
    inflating = tcpfade.simulate_link("newreno", profile="linux", sack=False, prr=False, **LINK)
    assert fields(inflating) != fields(off)           # the comparison can fail: PRR changed the run
    e = Experiment.from_dict({"sweep": {"model": "simulate_link", "seed": 3},
                              "fixed": {"rate": 100.0, "tau": 0.05, "buffer": 10, "channel": "bernoulli",
                                        "error_rate": 0.03, "duration": 100.0, "profile": "linux",
                                        "variant": "newreno"},
                              "axes": {"sack": [False, True]}, "output": {"store": str(tmp_path / "s.db")}})
    run_sweep(e, workers=1, progress=False)
    frame = Store(e.store).dataframe()
    assert sorted(zip(frame["sack"], frame["prr"])) == [(False, True), (True, True)]
    assert sorted(zip(frame["sack"], frame["rack"])) == [(False, False), (True, True)]
    assert sorted(zip(frame["sack"], frame["frto"])) == [(False, True), (True, True)]
    with pytest.raises(tcpfade.ParameterError, match="rack = True is not allowed: RACK-TLP is the loss detection"):
        tcpfade.simulate_link("newreno", profile="linux", sack=False, rack=True, **LINK)
    with pytest.raises(tcpfade.ParameterError, match="frto = True is not allowed: tahoe has no fast recovery for "
                                                     "F-RTO"):
        tcpfade.simulate_link("tahoe", frto=True, **LINK)


def test_the_send_buffer_caps_the_window_as_the_receivers_does():
    # Linux's tcp_wmem maximum (the linux profile's send_buffer): at most send_buffer // packet size packets
    # outstanding, so a buffer of 12 packets runs as a receiver window of 12, and the smaller of the two holds.
    link = dict(rate=200, tau=0.05, buffer=10, packet_bytes=1500, channel=tcpfade.Bernoulli(0.01), duration=200,
                seed=3)
    capped = tcpfade.simulate_link("newreno", send_buffer=12 * 1500 + 1499, **link)
    assert capped.goodput == tcpfade.simulate_link("newreno", wmax=12, **link).goodput
    assert capped.goodput == tcpfade.simulate_link("newreno", wmax=12, send_buffer=10**9, **link).goodput
    assert capped.goodput != tcpfade.simulate_link("newreno", **link).goodput
    assert (capped.parameters["wmax"], capped.parameters["send_buffer"]) == (65536, 12 * 1500 + 1499)
    assert tcpfade.simulate_link("cubic", profile="linux", **link).parameters["send_buffer"] == 4 * 2**20
    # A transfer's buffer holds segments with their headers (mss + header_bytes).
    kw = dict(size_bytes=200_000, channel=None, seed=1, mss=1000, header_bytes=40, rwnd_bytes=65_535)
    small = tcpfade.simulate_transfer("reno", send_buffer=5 * 1040, **kw)
    limited = tcpfade.simulate_transfer("reno", **{**kw, "rwnd_bytes": 5 * 1000})
    assert (small.connection_time, small.transmissions) == (limited.connection_time, limited.transmissions)
    assert small.connection_time != tcpfade.simulate_transfer("reno", **kw).connection_time
    with pytest.raises(tcpfade.ParameterError, match="send_buffer = 0 is not allowed"):
        tcpfade.simulate_link("newreno", send_buffer=0, **link)
    # A buffer that holds no whole packet is refused where the packet size is known (a review found it let one out).
    with pytest.raises(tcpfade.ParameterError, match=r"send_buffer = 1499 is not allowed: must hold one packet at least "
                                                     r"\(1500 bytes here\)"):
        tcpfade.simulate_link("newreno", send_buffer=1499, **link)
    with pytest.raises(tcpfade.ParameterError, match=r"send_buffer = 100 is not allowed: .* \(512 bytes here\)"):
        tcpfade.wcdma.tcp_over_blocks([0] * 3000, send_buffer=100)
    # A transfer's record keeps the receiver's window and the buffer given (the core runs with the smaller).
    assert (small.parameters["wmax"], small.parameters["send_buffer"]) == (65, 5 * 1040)


def test_the_partial_ack_rule_is_linuxs_in_its_profile_and_inert_where_it_has_no_place():
    """prr_partial_ack (docs/models.md, "PRR without SACK"): the linux profile takes "sndcnt", the others keep
    "forced", a keyword wins; the rule moves a run only with PRR and without SACK (a partial ACK of NewReno's
    recovery), and then it does on this lossy link."""
    lossy = {**LINK, "channel": tcpfade.GilbertElliott.from_burst(0.03, 5.0)}
    assert tcpfade.simulate_link("cubic", profile="linux", **LINK).parameters["prr_partial_ack"] == "sndcnt"
    for profile in ("papers", "rfc"):
        assert tcpfade.simulate_link("newreno", profile=profile, **LINK).parameters["prr_partial_ack"] == "forced"
    assert tcpfade.simulate_link("cubic", profile="linux", prr_partial_ack="forced",
                                 **LINK).parameters["prr_partial_ack"] == "forced"
    runs = {rule: [] for rule in ("forced", "sndcnt")}
    for rule in runs:
        for prr, sack in ((False, False), (True, True), (True, False)):
            # Given where it has no place, the rule says so (it is the default "forced" that goes unsaid).
            inert = rule != "forced" and (sack or not prr)
            with (pytest.warns(InertParameterWarning, match="prr_partial_ack = 'sndcnt' has no effect")
                  if inert else contextlib.nullcontext()):
                runs[rule].append(tcpfade.simulate_link("newreno", prr=prr, sack=sack, prr_partial_ack=rule, **lossy))
    for i in (0, 1):   # no PRR, or SACK's recovery (NextSeg sends by pipe already): identical
        assert fields(runs["forced"][i]).replace("sndcnt", "forced") == fields(runs["sndcnt"][i]).replace("sndcnt",
                                                                                                          "forced")
    assert runs["forced"][2].goodput != runs["sndcnt"][2].goodput


def test_the_delayed_ack_rule_is_rfc_5681s_in_the_rfc_and_linux_profiles_and_inert_without_delayed_acks():
    """delayed_ack_rule (docs/models.md, "Delayed ACKs"): the rfc and linux profiles take RFC 5681 §4.2's "rfc5681",
    the papers keep ns-2's, a keyword wins; the rule moves nothing without delayed ACKs or without losses (no gap ever
    opens), and moves a lossy run with them (the hand-worked trace is crates/tcpfade-core/tests/link_driver.rs)."""
    for profile, rule in (("papers", "ns2"), ("rfc", "rfc5681"), ("linux", "rfc5681")):
        assert tcpfade.simulate_link("newreno", profile=profile, **LINK).parameters["delayed_ack_rule"] == rule
    assert tcpfade.simulate_link("cubic", profile="linux", delayed_ack_rule="ns2",
                                 **LINK).parameters["delayed_ack_rule"] == "ns2"
    clean = {**LINK, "channel": None}
    for link, delayed_ack, moves in ((clean, 0.2, False), (LINK, None, False), (LINK, 0.2, True)):
        ns2 = tcpfade.simulate_link("newreno", delayed_ack=delayed_ack, delayed_ack_rule="ns2", **link)
        # Without delayed ACKs the rule is never read, and the call says so.
        with (pytest.warns(InertParameterWarning, match="delayed_ack_rule = 'rfc5681' has no effect")
              if delayed_ack is None else contextlib.nullcontext()):
            rfc = tcpfade.simulate_link("newreno", delayed_ack=delayed_ack, delayed_ack_rule="rfc5681", **link)
        same = fields(ns2).replace('"ns2"', '"rfc5681"') == fields(rfc)
        assert same != moves, (link is clean, delayed_ack)
    with pytest.raises(tcpfade.ParameterError, match=r"delayed_ack_rule = 'bsd' is not allowed: must be one of ns2, "
                                                     r"rfc5681"):
        tcpfade.simulate_link("newreno", delayed_ack_rule="bsd", **LINK)


def test_f_rto_undoes_the_spurious_timeouts_of_iw10_on_the_half_duplex_medium():
    """docs/models.md, "F-RTO": a loss-free 100 kB transfer under the linux profile. IW10's ACKs queue behind the data
    on the shared medium and the first timeout is spurious; F-RTO (tcp/frto.rs) undoes it. Without F-RTO the same
    transfer resends much of its flight (the defect noted in the seventh session's note)."""
    on = tcpfade.simulate_transfer("cubic", None, size_bytes=100_000, profile="linux", seed=1)
    off = tcpfade.simulate_transfer("cubic", None, size_bytes=100_000, profile="linux", frto=False, seed=1)
    assert on.parameters["frto"] is True and off.parameters["frto"] is False
    assert on.timeouts >= 1 and on.retransmissions <= on.timeouts + 1   # timed out, undone: one resend or so each
    # The undone timeouts are counted (Linux's TCPSpuriousRTOs), and none without F-RTO.
    assert on.spurious_timeouts >= 1 and off.spurious_timeouts == 0 and off.timeouts >= 1
    assert off.retransmissions > 5 * on.retransmissions and on.goodput_bps > 1.3 * off.goodput_bps
    # The profile's timestamps time the first timeout's retransmission by its echo (the queue's long RTT), which
    # spares the second timeout; with Karn's rule instead the flight goes out twice over.
    karn = tcpfade.simulate_transfer("cubic", None, size_bytes=100_000, profile="linux", frto=False, timestamps=False,
                                     seed=1)
    assert karn.timeouts == off.timeouts + 1 and karn.retransmissions > 10 * on.retransmissions
    assert on.goodput_bps > 1.5 * karn.goodput_bps
    # Without SACK F-RTO reads the same evidence off the cumulative ACK (an original segment acknowledged: nothing here
    # needs a SACK block), and undoes the same timeout: the same transfer to within a retransmission.
    cumulative = tcpfade.simulate_transfer("cubic", None, size_bytes=100_000, profile="linux", sack=False, seed=1)
    assert cumulative.parameters["frto"] is True and cumulative.parameters["sack"] is False
    assert cumulative.timeouts == on.timeouts and abs(cumulative.retransmissions - on.retransmissions) <= 1
    assert cumulative.goodput_bps == pytest.approx(on.goodput_bps, rel=0.01)


def test_timestamps_keep_a_run_where_the_kernels_runs_are_and_karns_backoff_does_not():
    """docs/validation/kernel.md, "F-RTO without SACK, and timestamps": the kernel grid's 10 Mb/s, 10 ms, i.i.d. cell,
    reno without SACK, channel seed 1003, where slow start overshoots and each cumulative ACK that jumps a repaired
    hole undoes the timeout (F-RTO without SACK, as Linux). Judged against the kernel's own sixteen runs of that cell
    (validation/kernel_frto_nosack.csv, tcp_frto on and off): with the profile's timestamps the run lies within their
    range; with Karn's rule instead, each timeout doubles the RTO and the run falls below all of them. That is with
    the papers' receiver window (Wmax), which lets slow start overshoot to about 500 segments; the kernel's autotuned
    window (the profile's rwnd_rule) holds the overshoot back, and then the run stays within the kernel's range with
    Karn's rule too."""
    import pandas as pd
    from pathlib import Path

    kept = pd.read_csv(Path(__file__).resolve().parents[1] / "validation" / "kernel_frto_nosack.csv")
    kernel = kept[(kept["side"] == "kernel") & (kept["cell"] == "10 Mb/s, 10 ms, i.i.d., reno, SACK off")]["goodput"]
    assert len(kernel) == 16
    cell = dict(rate=833.0, tau=0.02, buffer=18, packet_bytes=1500, channel=tcpfade.Bernoulli(0.01), duration=14.0,
                warmup=3.0, seed=1003)
    with_ts = tcpfade.simulate_link("newreno", profile="linux", sack=False, rwnd_rule="wmax", **cell)
    karn = tcpfade.simulate_link("newreno", profile="linux", sack=False, timestamps=False, rwnd_rule="wmax", **cell)
    assert with_ts.parameters["timestamps"] is True and with_ts.parameters["frto"] is True
    assert kernel.min() <= with_ts.new_received_rate <= kernel.max()
    assert karn.new_received_rate < kernel.min() and karn.timeouts > with_ts.timeouts
    tuned = {ts: tcpfade.simulate_link("newreno", profile="linux", sack=False, timestamps=ts, **cell) for ts in (True, False)}
    assert all(kernel.min() <= r.new_received_rate <= kernel.max() for r in tuned.values())


def test_timestamps_add_rfc_7323s_option_to_every_segment_of_a_transfer():
    """With timestamps the transfer model's segments carry the option, 12 bytes as Linux pads it (RFC 7323 §3: kind,
    length, TSval, TSecr = 10), on top of header_bytes and of SYN's MSS option; without, none."""
    on = tcpfade.simulate_transfer("reno", None, size_bytes=10_000, timestamps=True, record_frames=True).frames
    off = tcpfade.simulate_transfer("reno", None, size_bytes=10_000, record_frames=True).frames
    header, mss, syn_option = 20, 2028, 4
    for frames, option in ((on, 12), (off, 0)):
        kinds = frames.groupby("kind")["bytes"]
        assert set(kinds.min()[["ack", "handshake_ack", "final_ack"]]) == {header + option}
        assert set(kinds.min()[["syn", "syn_ack"]]) == {header + syn_option + option}
        assert kinds.max()["data"] == mss + header + option
    with pytest.raises(tcpfade.ParameterError, match=r"mss = 1480 is not allowed: a segment of mss \+ header_bytes \+ "
                                                     r"the timestamp option's 12 = 1512 bytes exceeds the link's mtu"):
        tcpfade.simulate_transfer("reno", None, size_bytes=10_000, mss=1480, mtu=1500, timestamps=True)


def test_a_profile_value_a_model_lacks_is_a_bug_refused_at_import_unless_declared_partial():
    """A profile's value for a parameter its model does not declare would be dropped without a word: refused when the
    model is declared. Only the names a profile lists in ``where_declared`` (the linux profile's receive buffer in
    bytes, which the transfer model has and the link model, counting packets, has not) are set where declared."""
    from tcpfade._params import Model, Param, Profile
    from tcpfade._validate import Choice, Integer

    def model(**where):
        profile = Profile("p", {"a": 2, "b": 3}, "a test profile", **where)
        return Model("m", (Param("profile", Choice(("p",)), "p", "which"), Param("a", Integer(0, 9), 1, "a")),
                     profiles=(profile,))

    with pytest.raises(RuntimeError, match=r"profile p sets \['b'\], which it does not have"):
        model()
    assert model(where_declared=frozenset({"b"})).profile_values("p") == {"a": 2}
    assert tcpfade.simulate_transfer.model.profile_values("linux")["rwnd_bytes"] == 1 << 25
    assert "rwnd_bytes" not in LINK_LINUX


def test_every_name_a_profile_sets_where_declared_is_some_models():
    """``where_declared`` exempts a name from the import-time check of each model; a misspelt one would then be set
    nowhere without a word, so each must be declared by some model."""
    from tcpfade._params import all_models
    from tcpfade.tcp.profiles import PROFILES

    declared = {p.name for model in all_models() for p in model.params}
    assert all(pr.where_declared <= declared for pr in PROFILES)
