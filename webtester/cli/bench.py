"""`webtester bench`."""

from __future__ import annotations

import typer


def bench() -> None:
    """Not yet available."""
    typer.echo("webtester bench: not implemented yet", err=True)
    raise typer.Exit(2)
