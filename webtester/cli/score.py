"""`webtester score`."""

from __future__ import annotations

import typer


def score() -> None:
    """Not yet available."""
    typer.echo("webtester score: not implemented yet", err=True)
    raise typer.Exit(2)
