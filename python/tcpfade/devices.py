"""Energy of a transfer from a device model: what each endpoint's radio spends transmitting, receiving and
idling, and optionally per frame and per byte (the linear model of Feeney & Nilsson, INFOCOM 2001).

tsaoussidis-badr §4.2 argue that energy "can only be measured with precision on a specific device" and gauge it
from two device-independent quantities, the bytes sent (effort) and the connection time. A :class:`Device`
turns those, split by radio state, into joules:

    E = P_tx·t_tx + P_rx·t_rx + P_idle·(T − t_tx − t_rx) + Σ_frames (b + m·bytes)

for each host, with t_tx and t_rx its time on the air sending and receiving (the link is half-duplex, so they
never overlap) and T the connection time. Presets are in :data:`PRESETS`; :func:`device` resolves a name or
passes a :class:`Device` through.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from . import _validate as v

#: Watts and joules accepted.
POWER = v.Real(0.0, 1e6, words="must be a finite number in [0, 1e6] (watts)")
PER_BYTE = v.Real(0.0, 1.0, words="must be a finite number in [0, 1] (joules per byte)")
PER_FRAME = v.Real(0.0, 1e3, words="must be a finite number in [0, 1e3] (joules per frame)")


@v.checked_fields(name=v.Instance(str, "must be a string"), tx_power=POWER, rx_power=POWER, idle_power=POWER,
                  tx_per_byte=PER_BYTE, tx_per_frame=PER_FRAME, rx_per_byte=PER_BYTE, rx_per_frame=PER_FRAME,
                  source=v.Instance(str, "must be a string"))
@dataclass(frozen=True)
class Device:
    """A radio's power in each state [W] and its per-frame [J] and per-byte [J/byte] costs: what
    :func:`tcpfade.simulate_transfer` turns its time on the air into joules with (``device=``).

    Parameters
    ----------
    name : str
        What results call it.
    tx_power, rx_power, idle_power : float
        Power transmitting, receiving and idle, in [0, 1e6] W.
    tx_per_byte, tx_per_frame, rx_per_byte, rx_per_frame : float
        The linear model's extra costs (Feeney & Nilsson): [0, 1] J per byte, [0, 1e3] J per frame; default 0.
    source : str
        Where the numbers come from.

    Raises
    ------
    ParameterError
        a power or cost out of its range, or not a number; a name or source that is not a string.

    Examples
    --------
    >>> radio = tcpfade.Device("bench radio", tx_power=1.0, rx_power=0.5, idle_power=0.1)
    >>> radio.energy(10.0, tx_time=2.0, rx_time=1.0, tx_frames=0, tx_bytes=0, rx_frames=0, rx_bytes=0)  # 2 + 0.5 + 0.7
    3.2
    >>> r = tcpfade.simulate_transfer("reno", None, size_bytes=10_000, device=radio)
    >>> r.device
    'bench radio'
    """

    name: str
    tx_power: float
    rx_power: float
    idle_power: float
    tx_per_byte: float = 0.0
    tx_per_frame: float = 0.0
    rx_per_byte: float = 0.0
    rx_per_frame: float = 0.0
    source: str = ""

    def energy(self, time: float, tx_time: float, rx_time: float, tx_frames: int, tx_bytes: int, rx_frames: int,
               rx_bytes: int) -> float:
        """Joules one host spends over a connection of ``time`` seconds (see the module's formula)."""
        idle = max(time - tx_time - rx_time, 0.0)
        return (self.tx_power * tx_time + self.rx_power * rx_time + self.idle_power * idle
                + self.tx_per_frame * tx_frames + self.tx_per_byte * tx_bytes
                + self.rx_per_frame * rx_frames + self.rx_per_byte * rx_bytes)

    def to_dict(self) -> dict[str, Any]:
        """The device's fields as a dict."""
        return asdict(self)


def _third_generation(rate_bps: float) -> Device:
    """A 3G phone with its radio held in DCH, from the power model of Huang et al., "A close examination of
    performance and power characteristics of 4G LTE networks", MobiSys 2012 (Table 4, 3G): P = β + α_u·u +
    α_d·d with β = 817.88 mW, α_u = 868.98 mW/Mb/s, α_d = 122.12 mW/Mb/s, u and d the uplink and downlink
    rates [Mb/s]: here the link's rate while sending or receiving."""
    mbps = rate_bps / 1e6
    return Device("3g-dch", tx_power=0.81788 + 0.86898 * mbps, rx_power=0.81788 + 0.12212 * mbps,
                  idle_power=0.81788, source="Huang et al., MobiSys 2012, Table 4 (3G), at the link's rate")


#: Named devices. Each entry is a function of the link rate [bit/s] (only the 3G model uses it).
PRESETS: dict[str, Any] = {
    "wavelan": lambda rate: Device(
        "wavelan", tx_power=1.6, rx_power=1.2, idle_power=1.15,
        source="a 2 Mb/s WaveLAN-class card of the late 1990s: representative transmit/receive/idle powers of "
               "the period, not one datasheet"),
    "802.11-linear": lambda rate: Device(
        "802.11-linear", tx_power=0.0, rx_power=0.0, idle_power=0.8,
        tx_per_byte=1.9e-6, tx_per_frame=420e-6, rx_per_byte=0.42e-6, rx_per_frame=330e-6,
        source="Feeney & Nilsson, INFOCOM 2001: point-to-point send 1.9 µJ/byte + 420 µJ, receive 0.42 µJ/byte + "
               "330 µJ, idle about 0.8 W (Lucent WaveLAN IEEE 802.11, 2 Mb/s); the linear costs replace the "
               "state powers while a frame is on the air"),
    "3g-dch": _third_generation,
}


@v.checked()
def device(spec: str | Device, rate_bps: float) -> Device:
    """The :class:`Device` named by ``spec`` (a key of :data:`PRESETS`) at link rate ``rate_bps``, or ``spec``
    itself."""
    if isinstance(spec, Device):
        return spec
    if isinstance(spec, str) and spec.lower() in PRESETS:
        return PRESETS[spec.lower()](rate_bps)
    raise v.fail("device", spec, f"must be a Device or one of {', '.join(PRESETS)}")
