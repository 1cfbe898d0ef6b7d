"""Reports of a run folder: one self-contained HTML file and a JUnit XML file of the verdicts.

    from webtester.report import write_reports
    html, junit = write_reports(run_dir)                      # shows RUN_DIR/scores/ if the run was scored
    html, junit = write_reports(run_dir, scores=scores, instances=gold)

``scores`` is a :class:`webtester.runfolder.ReportScores` (the evaluation harness builds one from its summary:
``webtester.eval.reports.report_scores``).
"""

from __future__ import annotations

from pathlib import Path

from webtester.models import Instance
from webtester.report.data import InstanceReport, ReportError, RunReport, load_run
from webtester.report.html import render_html, write_html
from webtester.report.junit import junit_xml, write_junit
from webtester.runfolder import HTML_REPORT_FILE, JUNIT_FILE, ReportScores

__all__ = ["InstanceReport", "ReportError", "RunReport", "junit_xml", "load_run", "render_html",
           "write_reports"]


def write_reports(
    run_dir: Path,
    *,
    scores: ReportScores | None = None,
    instances: list[Instance] | None = None,
    instructions: dict[str, str] | None = None,
    title: str | None = None,
    not_scored_reason: str | None = None,
) -> tuple[Path, Path]:
    """Write ``RUN_DIR/report.html`` and ``RUN_DIR/junit.xml``; returns their paths.

    ``scores``: what to show of the scores (default: the ones ``webtester score`` stored in ``RUN_DIR/scores/``,
    if any); ``instances``: gold instances (instruction and gold items); ``instructions``: index -> instruction for
    instances without gold.
    """
    run = load_run(Path(run_dir), scores=scores, instances=instances)
    for inst in run.instances:
        if instructions and inst.index in instructions and inst.gold is None:
            inst.extra_instruction = instructions[inst.index]
    html = write_html(run, Path(run_dir) / HTML_REPORT_FILE, title=title, not_scored_reason=not_scored_reason)
    junit = write_junit(run, Path(run_dir) / JUNIT_FILE)
    return html, junit
