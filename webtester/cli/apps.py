"""`webtester apps`: list and serve the bundled apps; start any app for a person to look at."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from webtester.errors import InputError

if TYPE_CHECKING:
    from webtester.browser.launcher import RunningApp

app = typer.Typer(no_args_is_help=True)


def _serve_until_interrupted(running, what: str) -> None:
    """Print the URL, then keep the app up until Ctrl-C (or SIGTERM); always stop it."""
    from webtester.cli.console import console as make_console

    console = make_console(stderr=True)
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        typer.echo(running.url)
        console.print(f"[green]{what}[/green] at [bold]{running.url}[/bold] — press Ctrl-C to stop")
        while True:
            time.sleep(0.5)
            alive = getattr(running, "alive", None)
            if alive is not None and not alive():
                console.print("[red]the app's server exited[/red]\n" + running.log_tail())
                raise typer.Exit(1)
    except KeyboardInterrupt:
        console.print("stopping …")
    finally:
        running.stop()
        signal.signal(signal.SIGTERM, previous)


def start_target(target: str, **options: Any) -> RunningApp:
    """Start a static folder, npm project or URL (``options`` go to the launcher); exit 2 when ``target`` is not
    one (:func:`webtester.targets.check_app_target`), 1 when the app does not start."""
    from webtester.browser.launcher import AppStartError, start_app
    from webtester.cli.exits import error_exit
    from webtester.targets import check_app_target

    try:
        check_app_target(target)
        return start_app(target, **options)
    except (InputError, AppStartError) as exc:
        raise error_exit(exc) from None


@app.command("list")
def list_apps() -> None:
    """The bundled apps: category, gold item count, seeded defects (shipped / total)."""
    from rich.table import Table

    from webtester.bundled import load_bundled
    from webtester.cli.console import console

    table = Table("index", "category", "items", "failing", "defects shipped/total", "kind")
    for inst in load_bundled():
        defects = inst.defects or []
        failing = sum(1 for g in inst.checklist if not g.passed)
        table.add_row(
            inst.index, inst.category.value, str(len(inst.checklist)), str(failing),
            f"{len(inst.shipped_defects())}/{len(defects)}", inst.app.kind if inst.app else "static",
        )
    console().print(table)


@app.command("serve")
def serve(
    name: str = typer.Argument(..., help="bundled app index, see `webtester apps list`"),
    clean: bool = typer.Option(False, "--clean", help="switch every seeded defect off"),
    defects: str = typer.Option("", "--defects", help="comma-separated defect ids to switch on (instead of the shipped build)"),
) -> None:
    """Start a bundled app (shipped build by default), print its URL, serve until Ctrl-C."""
    from webtester.bundled import get_instance, serve_app

    if clean and defects:
        raise typer.BadParameter("use either --clean or --defects, not both")
    try:
        inst = get_instance(name)
        build = "clean" if clean else (defects or "shipped")
        server = serve_app(inst, build)
    except (KeyError, ValueError, FileNotFoundError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    label = "clean build" if clean else (f"defects {defects}" if defects else "shipped build")
    _serve_until_interrupted(server, f"{name} ({label})")


@app.command("start")
def start(
    target: str = typer.Argument(..., help="static folder, npm project folder (package.json) or http(s) URL"),
    timeout: float = typer.Option(120, help="seconds to wait for the server to answer"),
    log: Path | None = typer.Option(None, help="write the dev server's log here"),
) -> None:
    """Start any app (static folder / npm project / URL), print its URL, run until Ctrl-C."""
    running = start_target(target, timeout=timeout, log_path=log)
    _serve_until_interrupted(running, f"{target} ({running.kind})")
