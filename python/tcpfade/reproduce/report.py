"""A self-contained HTML report of reproduced figures: each figure (embedded), its caption, and every claim of
the paper beside our verdict and the evidence for it; and the same claims as a Markdown table (the one in
docs/validation/claims.md)."""

from __future__ import annotations

import base64
import html
import platform
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path

from .. import __version__
from .._io import write_text
from .registry import FigureResult

_STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 2em auto; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-top: 1px solid #ccc; padding-top: 1em; }
img { max-width: 100%; border: 1px solid #eee; }
table { border-collapse: collapse; width: 100%; font-size: 0.9em; }
td, th { border: 1px solid #ddd; padding: 0.3em 0.5em; vertical-align: top; text-align: left; }
.agrees { color: #1a7f37; font-weight: bold; } .disagrees { color: #cf222e; font-weight: bold; }
.undecided { color: #9a6700; font-weight: bold; } .caption, .notes { font-size: 0.9em; color: #555; }
"""

def summary(results: Iterable[FigureResult]) -> str:
    """One line: figures, claims, and how many agree, differ with the difference explained (an ablation moves our
    number to the paper's, BRIEF D14), differ not explained (known, cause not measured), differ unexpectedly, are
    undecided."""
    results = list(results)
    status = [vd.status for r in results for _, vd in r.verdicts]
    return (f"{len(results)} figures, {len(status)} claims: {status.count('agrees')} agree, "
            f"{status.count('explained')} differ explained by an ablation, {status.count('not explained')} differ "
            f"not explained, {status.count('unexpected')} differ unexpectedly, {status.count('undecided')} undecided")


_WORD = {"agrees": ("agrees", "agrees"), "undecided": ("undecided", "undecided"),
         "explained": ("disagrees", "DISAGREES (explained)"), "not explained": ("disagrees", "DISAGREES (not explained)"),
         "unexpected": ("disagrees", "DISAGREES")}


def _why(claim, vd) -> str:
    """What we found where a claim differs, and the ablation that explains it, as plain text."""
    parts = [claim.known_disagreement] if claim.known_disagreement else []
    if vd.ablation is not None:
        parts.append(f"Ablation: {vd.ablation}.")
    return " ".join(parts)


def write_report(results: Iterable[FigureResult], path: str | Path, *, quick: bool, seed: int) -> Path:
    """Write the report to ``path`` (figures embedded as PNG data, so the file stands alone): the run and a
    summary line at the top, then every claim in one table linked to its figure, then the figures in the
    papers' order, each with its caption, its claims and links to its CSV, SVG and PDF (beside the report)."""
    from .registry import paper_order

    by_id = {r.figure.id: r for r in results}
    results = [by_id[i] for i in paper_order(by_id)]
    out = Path(path)

    def link(r: FigureResult, kind: str) -> str:
        target = r.files[kind]
        try:
            href = target.resolve().relative_to(out.resolve().parent).as_posix()
        except ValueError:
            href = target.resolve().as_uri()
        return f"<a href='{html.escape(href)}'>{kind.upper()}</a>"

    claim_rows = []
    for r in results:
        for claim, vd in r.verdicts:
            cls, word = _WORD[vd.status]
            claim_rows.append(f"<tr><td><a href='#{r.figure.id}'>{html.escape(r.figure.paper)} "
                              f"{html.escape(r.figure.label)}</a></td><td>{html.escape(claim.statement)}</td>"
                              f"<td class='{cls}'>{word}</td></tr>")
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<title>tcpfade: published figures reproduced</title>", f"<style>{_STYLE}</style></head><body>",
        "<h1>tcpfade: published figures reproduced</h1>",
        f"<p id='summary'><b>{html.escape(summary(results))}.</b></p>",
        f"<p class='notes'>tcpfade {html.escape(__version__)}, {'quick' if quick else 'full'} run, seed {seed}, "
        f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}.</p>",
        "<h2 id='claims'>Claims</h2>",
        "<table><tr><th>figure</th><th>the paper says</th><th>ours</th></tr>" + "".join(claim_rows) + "</table>",
    ]
    for r in results:
        fig = r.figure
        png = base64.b64encode(r.files["png"].read_bytes()).decode("ascii")
        files = ", ".join(link(r, k) for k in ("csv", "svg", "pdf") if k in r.files)
        parts += [
            f"<h2 id='{fig.id}'>{html.escape(fig.paper)} {html.escape(fig.label)}</h2>",
            f"<img alt='{html.escape(fig.paper)} {html.escape(fig.label)}' src='data:image/png;base64,{png}'>",
            f"<p class='caption'>{html.escape(fig.caption)}</p>",
            f"<p class='notes'>Files: {files}; computed in {r.seconds:.1f} s."
            + (f" {html.escape(fig.notes)}" if fig.notes else "") + "</p>",
        ]
        if r.verdicts:
            rows = []
            for claim, vd in r.verdicts:
                cls, word = _WORD[vd.status]
                why = f"<br><b>Why:</b> {html.escape(_why(claim, vd))}" if _why(claim, vd) else ""
                rows.append(f"<tr><td>{html.escape(claim.statement)}<br><span class='notes'>"
                            f"{html.escape(claim.source)}</span></td><td class='{cls}'>{word}</td>"
                            f"<td>{html.escape(vd.evidence)}{why}</td></tr>")
            parts.append("<table><tr><th>the paper says</th><th>ours</th><th>evidence</th></tr>"
                         + "".join(rows) + "</table>")
    parts.append("</body></html>")
    return write_text("\n".join(parts), out, "report")


def write_claims_table(results: Iterable[FigureResult], path: str | Path) -> Path:
    """Write every claim, our verdict and its evidence as a Markdown table to ``path`` (papers' order)."""
    from .registry import paper_order

    by_id = {r.figure.id: r for r in results}
    rows = ["| figure | the paper says (paraphrased) | ours | evidence |", "| --- | --- | --- | --- |"]
    for r in (by_id[i] for i in paper_order(by_id)):
        for claim, vd in r.verdicts:
            word = vd.status if vd.holds is not False else f"**disagrees** ({vd.status})"
            evidence = vd.evidence + (f"; ablation: {vd.ablation}" if vd.ablation is not None else "")
            cells = [r.figure.id, claim.statement, word, evidence]
            rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return write_text("\n".join(rows) + "\n", Path(path), "claims")
