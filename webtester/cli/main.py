"""Entry point of the ``webtester`` command: wires the subcommands together.

Each subcommand lives in its own module and imports heavy dependencies inside
its function, so ``webtester --help`` stays fast.
"""

from __future__ import annotations

import typer

from webtester.cli import apps, bench, correlate, datasets, demo, observe, score, test

app = typer.Typer(
    name="webtester",
    help="Test a web app from the instruction it was built from, and benchmark testing agents.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)

app.command(
    "demo",
    help="Test the bundled apps (with a model if one is configured, else the baseline), score them and write a report.",
)(demo.demo)
app.command("test", help="Generate a checklist for one app or URL and test it in a real browser.")(test.test)
app.command("bench", help="Run a tester over a dataset (bundled benchmark or WebTestBench).")(bench.bench)
app.command("score", help="Score a run folder against gold checklists.")(score.score)
app.command("correlate", help="Correlate automatic scores with human annotations (or export a template to annotate).")(correlate.correlate)
app.add_typer(apps.app, name="apps", help="List and serve the bundled apps; start any app for a person to look at.")
app.command("observe", help="Print the compact page view the testing agent sees for a URL.")(observe.observe)
app.add_typer(datasets.app, name="datasets", help="Inspect benchmark datasets (counts per dimension and category).")


if __name__ == "__main__":
    app()
