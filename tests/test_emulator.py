"""The link emulator from Python and the command line: results, errors, and that nothing outlives a run (Ctrl-C,
a killed process). Needs root, /dev/net/tun and network namespaces, as CI has."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import tcpfade
from tcpfade.cli import main

LINK = dict(rate=125, tau=0.04, buffer=8)
#: A program's link: no channel losses, asked for (a run never picks a channel).
COMMAND_LINK = dict(**LINK, channel=None, seed=1)


def holders(parent: int | None = None) -> set[int]:
    """Namespace holders alive (``sleep infinity`` processes that tcpfade started): those of process ``parent``
    (default: this one), so that emulations in another test process, run beside this one, are not counted; or
    with ``parent=0``, everyone's."""
    parent = os.getpid() if parent is None else parent
    out = subprocess.run(["pgrep", *(["-P", str(parent)] if parent else []), "-f", "^sleep infinity$"],
                         capture_output=True, text=True).stdout
    return {int(x) for x in out.split()}


def test_a_bulk_transfer_reports_the_kernels_figures_and_logs_every_decision(tmp_path):
    r = tcpfade.emulate("reno", **LINK, channel=tcpfade.Bernoulli(0.02), duration=5, seed=2,
                        log=tmp_path / "log.csv")
    # Losses on the link are what the sender retransmits; the log says which packets they were.
    fwd = r.log[r.log.direction == "forward"]
    lost = int((fwd.fate == "lost").sum())
    assert lost > 0 and r.retransmissions > 0
    assert r.channel_loss_rate == pytest.approx(lost / int((fwd.fate != "dropped").sum()))
    # at most one packet more than the link carries in the measured time (counted as transmissions end)
    assert 0 < r.goodput <= 1 + 1 / (r.rate * (r.duration - r.warmup) * 0.99) and r.mss == 1448
    assert r.timeouts is not None
    assert (tmp_path / "log.csv").read_text().startswith("direction,time,bytes,fate,queue")
    row = r.to_dict()
    assert row["congestion_control"] == "reno" and "log" not in row and len(r.to_frame()) == 1


def test_goodput_is_the_payload_the_link_delivered_once_while_the_run_was_measured():
    # Issue 34's reproducer: 2-s runs whose warm-up (0.2 s) ends in slow start's first loss recovery at the
    # 8-packet buffer. Counted where the receiver takes data in order, they measured 1.04-1.07: the data that had
    # crossed the link before the warm-up ended, waiting behind the hole, was counted in the interval.
    for seed in (1, 2, 3):
        r = tcpfade.emulate("cubic", rate=125, tau=0.0, packet_bytes=576, buffer=8, duration=2.0, channel=None,
                            seed=seed)
        assert r.buffer_loss_rate > 0                        # the slow start did overflow the buffer
        assert 0.9 < r.goodput <= 1 + 1 / (125 * 1.8 * 0.99), r.goodput
    # What the log says each packet delivered for the first time: a retransmitted segment that the link had
    # delivered before adds nothing, and the payload never exceeds the packet less its headers.
    r = tcpfade.emulate("reno", rate=125, tau=0.04, buffer=8, channel=tcpfade.Bernoulli(0.05), duration=6, seed=3)
    fwd = r.log[r.log.direction == "forward"]
    assert (fwd.new_bytes <= (fwd.bytes - 52).clip(lower=0)).all()          # 20 IP + 32 TCP with timestamps
    assert (fwd.new_bytes[fwd.fate != "delivered"] == 0).all()
    assert r.retransmissions > 0 and fwd.new_bytes.sum() < fwd.bytes[fwd.fate == "delivered"].sum()


def test_a_program_and_its_server_run_in_their_namespaces_and_its_status_is_returned(tmp_path, capfd):
    got = tmp_path / "got"
    server = [sys.executable, "-c", "import socket, sys; s = socket.create_server(('10.77.0.2', 7001)); "
              "c, _ = s.accept(); open(sys.argv[1], 'wb').write(c.recv(100))", str(got)]
    client = [sys.executable, "-c", "import os, socket; socket.create_connection((os.environ['TCPFADE_RECEIVER'], "
              "7001)).send(b'over the link'); raise SystemExit(5)"]
    r = tcpfade.emulate_command(client, server=server, **COMMAND_LINK)
    assert r.returncode == 5 and got.read_bytes() == b"over the link"
    assert main(["emulate", "--rate", "125", "--tau", "0.04", "--lossless", "--seed", "1", "--", "sh", "-c",
                 "exit 4"]) == 4


def test_it_ends_when_the_program_does_though_the_server_runs_on():
    # A server that never exits: once the program has ended and the links are empty and quiet for 0.3 s, the server
    # is stopped. Before, packets whose transmission had ended were held until another came, so the links never
    # looked quiet and every such run waited the 30-s drain limit.
    server = [sys.executable, "-c", "import socket, time; s = socket.create_server(('10.77.0.2', 7002)); "
              "c, _ = s.accept(); c.recv(100); time.sleep(3600)"]
    client = [sys.executable, "-c", "import os, socket; socket.create_connection((os.environ['TCPFADE_RECEIVER'], "
              "7002)).send(b'hello')"]
    r = tcpfade.emulate_command(client, server=server, **COMMAND_LINK)
    assert r.returncode == 0 and r.seconds < 10, r.seconds     # the drain limit is 30 s


@pytest.mark.parametrize("kwargs, message", [
    (dict(congestion_control="vegas"), "congestion_control = 'vegas' is not allowed: must be a congestion control this kernel offers"),
    (dict(rate=1e6), "rate = 1000000.0 is not allowed: gives 1.2e+10 bit/s"),
    (dict(packet_bytes=100), "packet_bytes = 100 is not allowed"),
    (dict(warmup=5.0), "warmup = 5.0 is not allowed: must be < duration"),
    (dict(log="/proc/nonexistent-dir/log.csv"), "its directory '/proc/nonexistent-dir' does not exist"),
    (dict(log="log.txt"), "must end in .csv or .parquet"),
    (dict(channel="bernoulli"), "channel = 'bernoulli' is not allowed: must be a tcpfade channel"),
    (dict(sysctls={"kernel.panic": 1}), "sysctls = 'kernel.panic' is not allowed: must name a network setting"),
    (dict(sysctls={"net.ipv4.tcp_frto": 1.5}), r"sysctls\['net.ipv4.tcp_frto'\] = 1.5 is not allowed"),
])
def test_bad_input_is_refused_before_anything_is_set_up(kwargs, message):
    before = holders()
    args = dict(congestion_control="reno", **LINK, duration=5, seed=1)
    args.update(kwargs)
    with pytest.raises(tcpfade.ParameterError, match=message.replace("(", r"\(").replace("+", r"\+")):
        tcpfade.emulate(args.pop("congestion_control"), **args)
    assert holders() == before


def test_sysctls_set_the_kernels_settings_in_both_namespaces():
    # The program's exit status is the setting it reads in its namespace.
    read = ["sh", "-c", "exit $(cat /proc/sys/net/ipv4/tcp_frto)"]
    assert tcpfade.emulate_command(read, **COMMAND_LINK).returncode == 2                      # Linux's default
    assert tcpfade.emulate_command(read, **COMMAND_LINK, sysctls={"net.ipv4.tcp_frto": 0}).returncode == 0
    assert main(["emulate", "--rate", "125", "--tau", "0.04", "--lossless", "--seed", "1", "--sysctl",
                 "net.ipv4.tcp_frto=1", "--", *read]) == 1
    with pytest.raises(tcpfade.ParameterError, match="'net.ipv4.no_such_setting' is not allowed: is not a setting"):
        tcpfade.emulate_command(["true"], **COMMAND_LINK, sysctls={"net.ipv4.no_such_setting": 0})


def test_without_the_capabilities_it_says_what_is_missing():
    out = subprocess.run(["capsh", "--drop=cap_sys_admin,cap_net_admin", "--", "-c",
                          f"{sys.executable} -c 'from tcpfade.cli import run; run()' emulate bulk --rate 125 --tau 0.04 --duration 2 --lossless --seed 1"],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.strip().endswith("the emulator needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN): run it as root")
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL])
def test_nothing_outlives_a_run_stopped_by_ctrl_c_or_killed(how):
    proc = subprocess.Popen([sys.executable, "-c", "from tcpfade.cli import run; run()", "emulate", "bulk", "--rate",
                             "125", "--tau", "0.04", "--duration", "60", "--lossless", "--seed", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 10
    while len(holders(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    mine = holders(proc.pid)
    assert len(mine) == 2, "the run set up its two namespaces"
    time.sleep(1.0)
    started = time.monotonic()
    proc.send_signal(how)
    proc.wait(timeout=10)
    assert time.monotonic() - started < 3, "it stops at once"
    deadline = time.monotonic() + 2
    while mine & holders(0) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not mine & holders(0), "the namespaces' holders are gone, and the namespaces with them"
    err = proc.stderr.read()
    proc.stderr.close()
    if how == signal.SIGINT:
        assert proc.returncode != 0 and "Traceback" not in err


@pytest.mark.parametrize("argv, needle", [
    (["emulate", "bulk", "--rate", "-1", "--tau", "0.04", "--seed", "1"], "--rate = -1.0 is not allowed"),
    (["emulate", "bulk", "--rate", "125", "--tau", "0.04", "--seed", "1", "--packet-bytes", "10"], "--packet-bytes = 10 is not allowed"),
    (["emulate", "bulk", "--rate", "125", "--tau", "0.04", "--seed", "1", "--congestion-control", "vegas"],
     "--congestion-control = 'vegas' is not allowed"),
    (["emulate", "--rate", "125", "--tau", "0.04", "--lossless", "--seed", "1", "--sysctl", "frto", "--", "true"],
     "--sysctl = 'frto' is not allowed: must be NAME=VALUE"),
    (["emulate", "--rate", "125", "--tau", "0.04", "--seed", "1", "--error-rate", "0.1", "--mean-good", "1", "--",
      "true"],
     "not both"),
    (["emulate", "--rate", "125", "--tau", "0.04", "--lossless", "--seed", "1", "--", "/nonexistent/program"], "could not be started"),
    (["emulate", "bulk", "--rate", "125", "--tau", "0.04", "--seed", "1", "--log", "MISSING/log.csv"], "--log"),
])
def test_the_command_line_answers_bad_input_in_one_line(capsys, tmp_path, argv, needle):
    argv = [a.replace("MISSING", str(tmp_path / "missing")) for a in argv]
    before = holders()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("tcpfade: ")
    assert holders() == before
