"""`webtester datasets` subcommands."""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(no_args_is_help=True)


@app.command("stats")
def stats(
    path: Path = typer.Argument(..., help="WebTestBench-style JSONL file, or a folder of them (e.g. gold/)."),
) -> None:
    """Print instances, gold items and failing items per dimension and per category."""
    from rich.console import Console
    from rich.table import Table

    from webtester.datasets import DatasetError, load_dataset
    from webtester.datasets.stats import dataset_stats

    console = Console()
    try:
        instances = load_dataset(path)
    except DatasetError as exc:
        console.print(f"[red]error:[/red] {exc}", soft_wrap=True)
        raise typer.Exit(1) from None
    s = dataset_stats(instances)
    per_item = s.total.items / s.total.instances if s.total.instances else 0.0
    console.print(
        f"[bold]{path}[/bold]: {s.total.instances:,} instances, {s.total.items:,} gold items "
        f"({per_item:.1f} per instance), {s.total.failing:,} failing",
        soft_wrap=True,
    )
    dims = Table(title="Per dimension (class)")
    for col in ("dimension", "instances", "items", "failing", "failing %"):
        dims.add_column(col, justify="left" if col == "dimension" else "right")
    for dim, c in s.by_dimension.items():
        dims.add_row(dim.value, f"{c.instances:,}", f"{c.items:,}", f"{c.failing:,}", _pct(c.failing, c.items))
    console.print(dims)
    cats = Table(title="Per category")
    for col in ("category", "instances", "items", "failing", "failing %"):
        cats.add_column(col, justify="left" if col == "category" else "right")
    for cat, c in s.by_category.items():
        cats.add_row(cat.value, f"{c.instances:,}", f"{c.items:,}", f"{c.failing:,}", _pct(c.failing, c.items))
    console.print(cats)


def _pct(num: int, den: int) -> str:
    return f"{100 * num / den:.1f}" if den else "-"
