"""A setting given that the run does not read (``prr_bound`` with PRR off, ``cubic_alpha`` for reno, ...) is said so by
an :class:`tcpfade.errors.InertParameterWarning`, never ignored in silence: each such case warns, and the run is the
one without the setting, bit for bit (what makes the warning true); a setting the run reads, a default given
explicitly and a profile's own values do not warn."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

import tcpfade
from tcpfade.errors import InertParameterWarning

LINK = dict(rate=125.0, tau=0.04, buffer=6, channel=tcpfade.Bernoulli(0.03), duration=60.0, seed=1)

#: (variant, the setting, what else the call says, the words of the reason).
INERT = [
    ("reno", {"prr_bound": "crb"}, {}, "PRR's bound, and prr is off"),
    ("newreno", {"prr_partial_ack": "sndcnt"}, {"sack": True, "prr": True}, "without SACK, and sack is on"),
    ("newreno", {"prr_partial_ack": "sndcnt"}, {}, "a rule of PRR, and prr is off"),
    ("reno", {"cubic_alpha": "linux"}, {}, "only CUBIC has W_est"),
    ("cubic", {"ssthresh_rule": "half_flight"}, {}, "its own β_cubic"),
    ("reno", {"rto_rule": "linux"}, {"rto": 0.5}, "a fixed rto has no estimator"),
    ("reno", {"min_rto": 0.1}, {"rto": 0.5}, "a fixed rto has no estimator"),
    ("reno", {"delayed_ack_rule": "rfc5681"}, {}, "ACKs are not delayed"),
    ("oldtahoe", {"dupthresh": 5}, {}, "oldtahoe has no fast retransmit"),
    ("tahoe", {"ssthresh_once_per_window": True}, {}, "tahoe has no fast recovery"),
    ("cubic", {"rack_timers": "linux"}, {"sack": True}, "rack is off"),
]


def same(a, b, *, but: tuple[str, ...] = ()) -> bool:
    """Two results equal in every figure (NaN equal to NaN), the recorded settings ``but`` aside."""
    def row(r):
        return repr(sorted((k, x) for k, x in r.to_dict().items() if k not in but))
    return row(a) == row(b)


@pytest.mark.parametrize("variant, setting, others, why", INERT, ids=[next(iter(c[1])) + "-" + c[0] for c in INERT])
def test_an_unread_setting_warns_and_changes_nothing(variant, setting, others, why):
    with pytest.warns(InertParameterWarning, match=f"{next(iter(setting))} = .* has no effect here: .*{why}"):
        given = tcpfade.simulate_link(variant, **LINK, **others, **setting)
    assert same(given, tcpfade.simulate_link(variant, **LINK, **others), but=tuple(setting))


def test_what_is_read_a_default_and_a_profiles_values_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", InertParameterWarning)
        tcpfade.simulate_link("reno", **LINK, prr=True, prr_bound="crb")          # read
        tcpfade.simulate_link("cubic", **LINK, cubic_alpha="linux")              # read
        tcpfade.simulate_link("reno", **LINK, cubic_alpha="rfc9438")             # the default, said
        tcpfade.simulate_link("newreno", **LINK, profile="linux")               # the profile's cubic_alpha, unsaid
    # ... and a read setting does move the run here (else "changes nothing" above would prove little).
    assert not same(tcpfade.simulate_link("reno", **LINK, prr=True, prr_bound="crb"),
                    tcpfade.simulate_link("reno", **LINK, prr=True), but=("prr_bound",))


def test_every_model_that_declares_the_setting_says_so():
    ch = tcpfade.Bernoulli(0.03)
    with pytest.warns(InertParameterWarning, match="simulate: cubic_alpha"):
        tcpfade.simulate("reno", ch, seed=1, slots=20_000, cubic_alpha="linux")
    with pytest.warns(InertParameterWarning, match="simulate_transfer: prr_bound"):
        tcpfade.simulate_transfer("reno", ch, seed=1, size_bytes=50_000, prr_bound="crb")
    # The transfer's own: probe settings where no probe goes, or where a decision of the caller's replaces the rule.
    plain = tcpfade.simulate_transfer("reno", ch, seed=1, size_bytes=50_000)
    with pytest.warns(InertParameterWarning, match="probe_option_bytes = 0 has no effect here: only TCP-Probing"):
        given = tcpfade.simulate_transfer("reno", ch, seed=1, size_bytes=50_000, probe_option_bytes=0)
    assert same(given, plain, but=("probe_option_bytes",))
    with pytest.warns(InertParameterWarning, match="probe_low = 0.5 has no effect here: a decision of your own"):
        tcpfade.simulate_transfer("probing", ch, seed=1, size_bytes=50_000, probe_low=0.5, decision=lambda **m: True)


def test_the_command_line_says_it_in_one_note_and_runs():
    """As a user runs it (a process of its own: the test session makes warnings errors)."""
    done = subprocess.run([sys.executable, "-m", "tcpfade", "simulate-link", "--rate", "125", "--tau", "0.04",
                           "--buffer", "6", "--error-rate", "0.03", "--duration", "20", "--seed", "1", "--prr-bound",
                           "crb"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "goodput" in done.stdout
    notes = [line for line in done.stderr.splitlines() if "has no effect" in line]
    assert len(notes) == 1 and notes[0].startswith("tcpfade: note: --prr-bound = ")


def test_a_sweep_names_the_experiment_files_key(tmp_path):
    """An experiment file's setting is noted as the file spells it, not as an option the user never typed."""
    (tmp_path / "inert.toml").write_text(
        '[sweep]\nmodel = "simulate_link"\nseed = 1\nreplications = 1\n'
        '[fixed]\nvariant = "newreno"\nrate = 125\ntau = 0.04\nbuffer = 6\nduration = 10.0\nprr_bound = "crb"\n'
        'mean_bad = 0.01\n[axes]\nmean_good = [0.5]\n')
    done = subprocess.run([sys.executable, "-m", "tcpfade", "sweep", "run", "inert.toml", "--workers", "1"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if "has no effect" in line]
    assert notes == ["tcpfade: note: prr_bound = 'crb' has no effect here: it is PRR's bound, and prr is off"]


def test_wcdmas_tcp_says_so_once_and_its_profile_never():
    """tcp_over_blocks and tcp_over_system take the parts by name outside the models' entries: the note at their own
    boundary, not again for the parts wcdma.simulate hands on from its profile."""
    from tcpfade import wcdma

    with pytest.warns(InertParameterWarning, match="tcp_over_blocks: prr_bound = 'crb' has no effect here"):
        given = wcdma.tcp_over_blocks([0, 0, 1, 0] * 750, prr_bound="crb")
    assert given.throughput == wcdma.tcp_over_blocks([0, 0, 1, 0] * 750).throughput
    # Its own named arguments too: the timer's floor with a fixed rto, dupthresh for a variant without fast retransmit.
    with pytest.warns(InertParameterWarning, match="tcp_over_blocks: min_rto = 0.3 has no effect here: a fixed rto"):
        given = wcdma.tcp_over_blocks([0, 0, 1, 0] * 750, rto=0.5, min_rto=0.3)
    assert given.throughput == wcdma.tcp_over_blocks([0, 0, 1, 0] * 750, rto=0.5).throughput
    with pytest.warns(InertParameterWarning, match="tcp_over_blocks: dupthresh = 5 has no effect here: oldtahoe"):
        wcdma.tcp_over_blocks([0, 0, 1, 0] * 750, variant="oldtahoe", dupthresh=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error", InertParameterWarning)
        wcdma.simulate(users=2, duration=5.0, seed=1, profile="linux")   # the profile's cubic_alpha goes unsaid
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", InertParameterWarning)
        wcdma.simulate(users=2, duration=5.0, seed=1, prr_bound="crb")
    assert [str(w.message).split(":")[0] for w in seen] == ["wcdma.simulate"]
