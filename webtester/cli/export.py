"""`webtester export`: a run's checked items as a pytest-playwright regression suite."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from webtester.cli.exits import OK, error_exit


def default_out(run_dir: Path) -> Path:
    """Where the suite goes without ``--out``: next to the run folder, ``<run folder>-suite``."""
    resolved = run_dir.resolve()
    return resolved.parent / f"{resolved.name}-suite"


def export(
    run_dir: Path = typer.Argument(..., help="Run folder of `webtester test` or `webtester bench`."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Folder of the suite (default: RUN_DIR-suite)."),
    xfail: bool = typer.Option(
        False, "--xfail", help="Mark the tests of Fail verdicts xfail(strict=True), with the bug report as the reason.",
    ),
    force: bool = typer.Option(False, "--force", help="Write into a non-empty folder that holds no previous export."),
) -> None:
    """Write the suite, then print what was exported and left out per instance, and how to run it."""
    from rich.table import Table

    from webtester.cli.console import console as make_console
    from webtester.export import export_run

    console = make_console()
    try:
        suite = export_run(run_dir, out or default_out(run_dir), xfail=xfail, force=force)
    except (ValueError, OSError) as exc:  # InputError is a ValueError
        raise error_exit(exc) from None
    table = Table(title=f"webtester export {run_dir}")
    for col in ("instance", "file", "tests", "of them Fail verdicts", "left out"):
        table.add_column(col, justify="right" if col in ("tests", "of them Fail verdicts") else "left", overflow="fold")
    for inst in suite.instances:
        left = ", ".join(f"{n} {reason}" for reason, n in sorted(inst.left_out().items())) or "-"
        fails = sum(p.expected_to_fail for p in inst.exported)
        table.add_row(inst.index, inst.file, str(len(inst.exported)), str(fails), left)
    console.print(table)
    console.print(f"{suite.tests} test(s) written to {suite.out}", highlight=False, soft_wrap=True)
    console.print(f"run them with: cd {suite.out} && pytest", highlight=False, soft_wrap=True)
    raise typer.Exit(OK)
