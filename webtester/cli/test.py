"""`webtester test`."""

from __future__ import annotations

import typer


def test() -> None:
    """Not yet available."""
    typer.echo("webtester test: not implemented yet", err=True)
    raise typer.Exit(2)
