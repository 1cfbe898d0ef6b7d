"""`webtester datasets` subcommands."""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(no_args_is_help=True)


@app.command("stats")
def stats(
    path: Path = typer.Argument(..., help="WebTestBench-style JSONL file, a folder of them (e.g. gold/), or 'bundled'."),
) -> None:
    """Print instances, gold items and failing items per dimension and per category."""
    from webtester.bundled import gold_root
    from webtester.cli.console import console as make_console
    from webtester.cli.exits import input_error
    from webtester.datasets import DatasetError, load_dataset
    from webtester.datasets.stats import dataset_stats

    console = make_console()
    try:
        instances = load_dataset(gold_root() if str(path) == "bundled" else path)
    except DatasetError as exc:
        raise input_error(exc) from None
    s = dataset_stats(instances)
    per_item = s.total.items / s.total.instances if s.total.instances else 0.0
    console.print(
        f"[bold]{path}[/bold]: {s.total.instances:,} instances, {s.total.items:,} gold items "
        f"({per_item:.1f} per instance), {s.total.failing:,} failing",
        soft_wrap=True,
    )
    console.print(_counts_table("Per dimension (class)", "dimension", {d.value: c for d, c in s.by_dimension.items()}))
    console.print(_counts_table("Per category", "category", {c.value: n for c, n in s.by_category.items()}))


def _counts_table(title: str, first: str, rows: dict):
    """A rich table of instances, items and failing items per slice."""
    from rich.table import Table

    table = Table(title=title)
    for col in (first, "instances", "items", "failing", "failing %"):
        table.add_column(col, justify="left" if col == first else "right")
    for name, c in rows.items():
        table.add_row(name, f"{c.instances:,}", f"{c.items:,}", f"{c.failing:,}", _pct(c.failing, c.items))
    return table


def _pct(num: int, den: int) -> str:
    return f"{100 * num / den:.1f}" if den else "-"
