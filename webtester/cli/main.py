"""Entry point of the ``webtester`` command: wires the subcommands together.

Each subcommand lives in its own module and imports heavy dependencies inside
its function, so ``webtester --help`` stays fast.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer

from webtester.cli import apps, bench, correlate, datasets, demo, exits, export, observe, score, test
from webtester.cli.version import version


class _Command(typer.Typer):
    """The command: an error no subcommand handled is one line on stderr with its exit code (see
    :mod:`webtester.cli.exits`), not a traceback."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the last resort: every error gets its message and exit code
            sys.exit(exits.unexpected(exc))


app = _Command(
    name="webtester",
    help="Test a web app from the instruction it was built from, and benchmark testing agents. Exit codes: 0 "
    "nothing wrong found, 1 a Fail was found (test) or an instance failed, 2 usage or input errors.",
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_show_locals=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"webtester {version()}")
        raise typer.Exit(exits.OK)


@app.callback()
def _options(
    debug: bool = typer.Option(False, "--debug", help=f"Show the traceback of an error (also: {exits.DEBUG_VAR}=1)."),
    _version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                  help="Print the version and exit."),
) -> None:
    if debug:
        os.environ[exits.DEBUG_VAR] = "1"


app.command(
    "demo",
    help="Test the bundled apps (with a model if one is configured, else the baseline), score them and write a report."
    "\n\n" + exits.BENCH_CODES,
)(demo.demo)
app.command("test", help="Generate a checklist for one app or URL and test it in a real browser.\n\n"
            + exits.TEST_CODES)(test.test)
app.command("bench", help="Run a tester over a dataset (bundled benchmark or WebTestBench).\n\n"
            + exits.BENCH_CODES + " --exit-zero turns 1 into 0.")(bench.bench)
app.command("score", help="Score a run folder against gold checklists.")(score.score)
app.command("correlate", help="Correlate automatic scores with human annotations (or export a template to annotate).")(correlate.correlate)
app.command("export", help="Export a run's checked items as a pytest-playwright regression suite.")(export.export)
app.add_typer(apps.app, name="apps", help="List and serve the bundled apps; start any app for a person to look at.")
app.command("observe", help="Print the compact page view the testing agent sees for a URL.")(observe.observe)
app.add_typer(datasets.app, name="datasets", help="Inspect benchmark datasets (counts per dimension and category).")


if __name__ == "__main__":
    app()
