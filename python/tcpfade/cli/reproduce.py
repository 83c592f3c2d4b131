"""``tcpfade reproduce``: published figures recomputed, with their data, plots and the papers' claims checked."""

from __future__ import annotations

from pathlib import Path

import click
from tqdm import tqdm

from .. import _validate as v
from .options import COUNT, OUTPUT_DIR, SEED_HELP


@click.command()
@click.argument("figure_ids", nargs=-1)
@click.option("--list", "list_only", is_flag=True, help="List the figures and exit.")
@click.option("--all", "run_all", is_flag=True,
              help="Every figure, an HTML report (report.html) and the claims as a Markdown table (claims.md).")
@click.option("--out", "out_dir", type=OUTPUT_DIR, default="reproduce",
              show_default=True, help="Directory for the CSV, PNG, SVG and PDF files.")
@click.option("--quick", is_flag=True, help="Shorter simulations (a twentieth): wider intervals, same checks.")
@click.option("--seed", type=COUNT, default=1, show_default=True, help=SEED_HELP)
@click.option("--workers", type=int, default=None,
              help="Threads running a figure's independent simulations at once (default: all cores); the data are "
                   "the same whatever the number.")
@click.option("--strict", is_flag=True,
              help="Exit with status 1 when a claim disagrees unexpectedly (no known difference is noted for it) or "
                   "is undecided; known differences, explained by an ablation or not, do not count.")
def reproduce(figure_ids, list_only, run_all, out_dir, quick, seed, workers, strict) -> None:
    """Recompute published figures: data (CSV), plot (PNG, SVG, PDF) and a verdict on each claim of the paper.

    \b
    Examples:
      tcpfade reproduce --list
      tcpfade reproduce chockalingam-fig5 --quick
      tcpfade reproduce chockalingam-table1 chockalingam-fig4 --out results/
      tcpfade reproduce --all --quick          # every figure and results/report.html
    """
    from ..reproduce import FIGURES, FigureSkipped, reproduce as run
    from ..reproduce.registry import paper_order
    from ..reproduce.report import summary, write_claims_table, write_report

    if list_only:
        for fid, fig in FIGURES.items():
            click.echo(f"{fid:<24} {fig.caption}")
        return
    if run_all:
        if figure_ids:
            raise v.fail("--all", True, f"runs every figure: give it or figure names ({', '.join(figure_ids)}), "
                                        "not both")
        figure_ids = tuple(paper_order(FIGURES))
    if not figure_ids:
        raise v.fail("figure", "none given", "name one or more figures, or --all (tcpfade reproduce --list)")
    for fid in figure_ids:
        v.choice("figure", fid, tuple(FIGURES))
    results = []
    # Two bars: the figures (k of N, elapsed, an ETA from the figures done so far) and the current figure's runs.
    with tqdm(total=len(figure_ids), desc="figures", unit="figure", disable=None, position=0) as overall:
        for fid in figure_ids:
            overall.set_postfix_str(fid)
            with tqdm(desc=fid, unit="run", leave=False, disable=None, position=1) as bar:
                def progress(message: str) -> None:
                    bar.set_postfix_str(message, refresh=False)
                    bar.update(1)
                try:
                    result = run(fid, out_dir, quick=quick, seed=seed, progress=progress, workers=workers)
                except FigureSkipped as skipped:
                    # A figure this machine cannot run (the kernel's, without root): one line, and the next.
                    overall.update(1)
                    overall.write(str(skipped))
                    continue
            results.append(result)
            overall.update(1)
            lines = [f"{fid}: {result.seconds:.1f} s, wrote " + ", ".join(str(p) for p in result.files.values())]
            for claim, verdict in result.verdicts:
                mark = verdict.status if verdict.holds is not False else f"DISAGREES, {verdict.status}"
                lines.append(f"  [{mark}] {claim.statement}\n      {verdict.evidence}")
                if claim.known_disagreement:
                    lines.append(f"      found: {claim.known_disagreement}")
                if verdict.ablation is not None:
                    lines.append(f"      ablation: {verdict.ablation}")
            overall.write("\n".join(lines))
    click.echo(summary(results))
    if run_all:
        report = write_report(results, Path(out_dir) / "report.html", quick=quick, seed=seed)
        click.echo(f"report: {report}")
        click.echo(f"claims: {write_claims_table(results, Path(out_dir) / 'claims.md')}")
    failing = [(r.figure.id, c.statement) for r in results for c, vd in r.verdicts
               if vd.status in ("undecided", "unexpected")]
    if strict and failing:
        click.echo(f"--strict: {len(failing)} claim(s) disagree unexpectedly or are undecided: "
                   + "; ".join(f"{fid}: {s}" for fid, s in failing), err=True)
        raise SystemExit(1)
