"""`webtester demo`."""

from __future__ import annotations

import typer


def demo() -> None:
    """Not yet available."""
    typer.echo("webtester demo: not implemented yet", err=True)
    raise typer.Exit(2)
