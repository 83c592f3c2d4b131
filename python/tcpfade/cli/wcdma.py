"""``tcpfade wcdma``: the WCDMA uplink's block errors (zorzi-rossi-mazzini §2.2): the decoder's Monte-Carlo block
error rate, the calibrated mapping, and its recalibration."""

from __future__ import annotations

import click

from .options import COUNT, OUTPUT_FILE, SEED_HELP, emit, output_options, print_table, wrote
from ..wcdma.tcp import WCDMA


@click.group()
def wcdma() -> None:
    """WCDMA uplink: block errors of the UMTS channel code from SIR strings."""


@wcdma.command()
@click.option("--sir-db", type=float, multiple=True, required=True,
              help="SIR of every slot [dB] (once), or one per slot of the TTI (repeat the option).")
@click.option("--tti-frames", type=int, default=1, show_default=True, help="TTI length in frames: 1, 2, 4 or 8.")
@click.option("--blocks", type=COUNT, default="2000", show_default=True, help="Blocks through the decoder.")
@click.option("--seed", type=COUNT, required=True, help=SEED_HELP)
@output_options()
def bler(sir_db, tti_frames, blocks, seed, as_json, csv_path) -> None:
    """Block error rate by the Viterbi decoder (Monte Carlo) beside the calibrated mapping's prediction.

    \b
    Example:
      tcpfade wcdma bler --sir-db -1.5 --blocks 4000 --seed 1
    """
    import numpy as np

    from ..wcdma import block_error_rate
    from ..wcdma.mapping import FORMAT, block_error_probability

    sir = np.array(sir_db, dtype=float)
    r = block_error_rate(sir if sir.size > 1 else float(sir[0]), tti_frames=tti_frames, blocks=blocks, seed=seed)
    string = sir if sir.size > 1 else np.full(FORMAT["slots_per_frame"] * tti_frames, float(sir[0]))
    predicted = float(block_error_probability(string, tti_frames=tti_frames)[0])

    def human() -> None:
        print_table({"blocks": r.blocks, "errors": r.errors,
                     "bler (decoder)": f"{r.rate:.6g}  [{r.low:.6g}, {r.high:.6g}]", "bler (mapping)": f"{predicted:.6g}"})
        click.echo("[a, b]: 95% Wilson interval of the decoder's block error rate")

    emit({**r.to_dict(), "rate_mapping": predicted}, as_json=as_json, csv_path=csv_path, human=human)


@wcdma.command()
@click.option("--blocks", type=COUNT, default="2000", show_default=True, help="Blocks per AWGN point.")
@click.option("--strings", type=int, default=90, show_default=True, help="Fading SIR strings per TTI length.")
@click.option("--string-blocks", type=int, default=300, show_default=True, help="Blocks per fading string.")
@click.option("--seed", type=COUNT, default=1, show_default=True, help=SEED_HELP)
@click.option("--out", type=OUTPUT_FILE, required=True, help="Where to write the table (JSON).")
def calibrate(blocks, strings, string_blocks, seed, out) -> None:
    """Recalibrate the block-error mapping (EESM β and the AWGN curves) against the decoder (minutes).

    \b
    Example:
      tcpfade wcdma calibrate --out calibration.json
    """
    from ..wcdma.mapping import calibrate as run

    table = run(blocks=blocks, strings=strings, string_blocks=string_blocks, seed=seed, path=out,
                progress=lambda m: click.echo(m, err=True))
    for k, e in table["tti"].items():
        click.echo(f"TTI {k}: beta {e['beta']:.4f}, delta {e['delta']:.3f} (logit units)")
    wrote(out)


@wcdma.command()
@click.option("--users", type=int, default=90, show_default=True, help="Users N_u over the 25 cells.")
@click.option("--doppler-hz", type=float, default=6.0, show_default=True, help="Doppler frequency f_d [Hz].")
@click.option("--target-sir-db", type=float, default=5.5, show_default=True, help="Power control target t [dB].")
@click.option("--step-db", type=float, default=0.5, show_default=True, help="Power control step Δ [dB].")
@click.option("--duration", type=float, default=10.0, show_default=True, help="Simulated time [s].")
@click.option("--rays", type=click.Choice(["vehicular-a-5", "vehicular-a", "pedestrian-a", "pedestrian-b"]),
              default="vehicular-a-5", show_default=True, help="Multipath intensity profile (ITU-R M.1225).")
@click.option("--tti-frames", type=int, default=1, show_default=True,
              help="TTI for the block error probabilities: 1, 2, 4 or 8 frames.")
@click.option("--sir-reference", type=click.Choice(["bit", "symbol"]), default="bit", show_default=True,
              help="The SIR the power control's target is in: per information bit (W/R) or per coded symbol (SF); "
                   "docs/models.md, decision D13.")
@click.option("--seed", type=COUNT, required=True, help=SEED_HELP)
@output_options("one row per user")
def system(users, doppler_hz, target_sir_db, step_db, duration, rays, tti_frames, sir_reference, seed, as_json,
           csv_path) -> None:
    """Simulate the multicell uplink with power control: per-user SIR, power and block error probability.

    \b
    Example:
      tcpfade wcdma system --users 90 --doppler-hz 6 --target-sir-db 5.5 --duration 10 --seed 1 --csv users.csv
    """
    from ..wcdma import simulate_system

    r = simulate_system(users=users, doppler_hz=doppler_hz, target_sir_db=target_sir_db, step_db=step_db,
                        duration=duration, rays=rays, sir_reference=sir_reference, seed=seed)
    frame = r.to_frame()
    frame["block_error_probability"] = r.block_error_probability(tti_frames).mean(axis=1)
    q = frame.quantile([0.1, 0.5, 0.9])
    emit(frame, as_json=as_json, csv_path=csv_path, human=lambda: print_table({
        "users": users, "simulated [s]": f"{r.duration:g}",
        "mean SIR [dB] (10/50/90% of users)": " / ".join(f"{x:.2f}" for x in q.mean_sir_db),
        "mean power [dBW] (10/50/90%)": " / ".join(f"{x:.1f}" for x in q.mean_power_dbw),
        "P_e (10/50/90%)": " / ".join(f"{x:.3g}" for x in q.block_error_probability),
        "users at max power > half the time": int((frame.share_at_max_power > 0.5).sum())}))


@wcdma.command("simulate")
@WCDMA.options()
@output_options("one row per user")
def simulate_chain(as_json, csv_path, **kw) -> None:
    """The whole chain: uplink with power control, block errors, TCP (NewReno by default) over each user's bearer.

    \b
    Example:
      tcpfade wcdma simulate --users 90 --doppler-hz 6 --duration 60 --seed 1 --csv users.csv
    """
    from ..wcdma import simulate

    w = simulate(**kw)
    users, duration = w.parameters["users"], w.parameters["duration"]
    frame = w.to_frame()
    # Only the columns shown: ACE is infinite for a user who delivered nothing, and quantiles across ±inf warn.
    q = frame[["throughput", "block_error_rate", "atp"]].quantile([0.1, 0.5, 0.9])
    emit(frame, as_json=as_json, csv_path=csv_path, human=lambda: print_table({
        "users": users, "variant": w.parameters["variant"], "profile": w.parameters["profile"],
        "simulated [s]": f"{duration:g}",
        "throughput S (10/50/90% of users)": " / ".join(f"{x:.3f}" for x in q.throughput),
        "P_e (10/50/90%)": " / ".join(f"{x:.3g}" for x in q.block_error_rate),
        "ATP [W] (10/50/90%)": " / ".join(f"{x:.3g}" for x in q.atp),
        "users with S < 0.1": int((frame.throughput < 0.1).sum())}))
