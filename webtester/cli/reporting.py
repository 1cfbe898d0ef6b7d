"""The reports ``test`` and ``bench`` write into their run folder at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webtester.cli.exits import print_error


def write_run_reports(console: Any, run_dir: Path, **options: Any) -> tuple[Path, Path] | None:
    """Write RUN_DIR/report.html and RUN_DIR/junit.xml (``options``: of :func:`webtester.report.write_reports`;
    scores appear once ``webtester score`` has run) and print where; their paths, or None when they could not be
    written (the run's own files are written: a report problem is printed, it does not hide them)."""
    from webtester.report import write_reports

    try:
        html, junit = write_reports(run_dir, **options)  # not scored: the report says how to score it, if it can be
    except Exception as exc:  # noqa: BLE001 - whatever went wrong, the results stay where they are
        print_error(f"{type(exc).__name__}: {exc}", "report not written")
        return None
    console.print(f"report: {html}  JUnit XML: {junit}", soft_wrap=True)
    return html, junit
