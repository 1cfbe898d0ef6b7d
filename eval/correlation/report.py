"""Tables of a correlation study: printed with rich, written as JSON, CSV and markdown."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from webtester.eval.correlation.stats import Correlation
from webtester.eval.correlation.study import METRICS, StudyResult
from webtester.eval.judges.base import JudgeInfo
from webtester.eval.reports import pct
from webtester.runfolder import write_json, write_text


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ci(c: Correlation) -> str:
    return "-" if c.ci_low is None else f"[{c.ci_low:.2f}, {c.ci_high:.2f}]"


def correlation_table(result: StudyResult) -> pd.DataFrame:
    """One row per (level, metric, method): coefficient, p-value, 95% interval, n."""
    rows = []
    for level, per_metric in result.metric_level.items():
        for metric in METRICS:
            for method, c in per_metric[metric].items():
                rows.append({"level": level, "metric": metric, "method": method, "n": c.n, "value": c.value,
                             "p_value": c.p_value, "ci_low": c.ci_low, "ci_high": c.ci_high})
    for metric, s in result.system_level.items():
        c = s.kendall
        rows.append({"level": "system", "metric": metric, "method": "kendall", "n": c.n, "value": c.value,
                     "p_value": c.p_value, "ci_low": c.ci_low, "ci_high": c.ci_high})
    return pd.DataFrame(rows)


def agreement_table(result: StudyResult) -> pd.DataFrame:
    """Judge vs human item-level agreement, then annotator vs annotator."""
    rows = [{"comparison": f"judge vs {name}", "n": a.n, "accuracy": a.accuracy, "cohen_kappa": a.kappa}
            for name, a in result.item_level.items()]
    if result.inter_annotator:
        rows += [{"comparison": pair, "n": a.n, "accuracy": a.accuracy, "cohen_kappa": a.kappa}
                 for pair, a in result.inter_annotator.pairwise.items()]
    return pd.DataFrame(rows)


def display_rows(result: StudyResult) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Header and formatted rows of each table, as printed and as written in markdown."""
    tables: dict[str, tuple[list[str], list[list[str]]]] = {}
    for level, per_metric in result.metric_level.items():
        header = ["metric", "n", "Kendall tau", "Spearman rho", "Pearson r"]
        rows = []
        for metric in METRICS:
            cs = [per_metric[metric][m] for m in ("kendall", "spearman", "pearson")]
            rows.append([metric, str(cs[0].n)] + [f"{_num(c.value, 2)} {_ci(c)} p={_num(c.p_value, 3)}" for c in cs])
        tables[f"Human vs judge per {level} (95% bootstrap CI)"] = (header, rows)
    agree_header = ["comparison", "items", "agreement", "Cohen's kappa"]
    agree_rows = [[r.comparison, str(r.n), pct(r.accuracy), _num(r.cohen_kappa)]
                  for r in agreement_table(result).itertuples()]
    if result.inter_annotator and result.inter_annotator.fleiss_kappa is not None:
        agree_rows.append([f"all {len(result.annotators)} annotators (Fleiss)", str(result.inter_annotator.n_items),
                           "", _num(result.inter_annotator.fleiss_kappa)])
    systems = sorted(next(iter(result.system_level.values())).human)
    sys_header = ["metric"] + [f"{s} human / judge" for s in systems] + ["Kendall tau"]
    sys_rows = [[m] + [f"{pct(s.human[n])} / {pct(s.judge[n])}" for n in systems] + [_num(s.kendall.value, 2)]
                for m, s in result.system_level.items()]
    tables["Item-level agreement"] = (agree_header, agree_rows)
    tables["System level: mean per system and ranking agreement"] = (sys_header, sys_rows)
    return tables


def _heading(result: StudyResult) -> str:
    units = len(result.units)
    instances = len({u.index for u in result.units})
    systems = len({u.system for u in result.units})
    return (f"Judge {JudgeInfo.model_validate(result.judge).label()}; {result.n_items} predicted items, {units} instance x system pairs "
            f"({instances} instances, {systems} systems); annotators: {', '.join(result.annotators)}")


def markdown(result: StudyResult) -> str:
    """The study's tables as markdown."""
    lines = ["# Correlation with human matching", "", _heading(result), ""]
    for title, (header, rows) in display_rows(result).items():
        lines += [f"## {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        lines.append("")
    if result.skipped:
        lines += ["Left out: " + "; ".join(result.skipped), ""]
    return "\n".join(lines)


def print_study(result: StudyResult, console) -> None:
    """Print the tables with rich."""
    from rich.table import Table

    console.print(_heading(result), highlight=False)
    for title, (header, rows) in display_rows(result).items():
        table = Table(title=title)
        for i, h in enumerate(header):
            table.add_column(h, justify="left" if i == 0 else "right")
        for r in rows:
            table.add_row(*r)
        console.print(table)
    if result.skipped:
        console.print(f"{len(result.skipped)} (instance, system) pairs left out (see correlation.md): "
                      + "; ".join(result.skipped[:3]) + (" ..." if len(result.skipped) > 3 else ""), highlight=False)


def write_study(result: StudyResult, out_dir: Path) -> list[Path]:
    """Write correlation.json (everything), correlations.csv, agreement.csv, units.csv and correlation.md."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = [out_dir / n for n in ("correlation.json", "correlations.csv", "agreement.csv", "units.csv", "correlation.md")]
    write_json(written[0], result.model_dump(mode="json"))
    write_text(written[1], correlation_table(result).to_csv(index=False))
    write_text(written[2], agreement_table(result).to_csv(index=False))
    units = pd.DataFrame([{"index": u.index, "system": u.system, **{f"human_{k}": v for k, v in u.human.items()},
                           **{f"judge_{k}": v for k, v in u.judge.items()}} for u in result.units])
    write_text(written[3], units.to_csv(index=False))
    write_text(written[4], markdown(result))
    return written
