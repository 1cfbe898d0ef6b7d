"""`webtester observe`."""

from __future__ import annotations

import typer


def observe() -> None:
    """Not yet available."""
    typer.echo("webtester observe: not implemented yet", err=True)
    raise typer.Exit(2)
