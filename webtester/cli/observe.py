"""`webtester observe`: print exactly what the testing agent sees of a page."""

from __future__ import annotations

from pathlib import Path

import typer


def observe(
    target: str = typer.Argument(..., help="URL of a running app, or a static folder / npm project to start"),
    full: bool = typer.Option(False, "--full", help="unfold repeated items and show where links lead"),
    ref: str | None = typer.Option(None, "--ref", help="show only this element's part of the page"),
    click: str | None = typer.Option(None, "--diff-after-click", metavar="REF", help="click REF, then print only what changed"),
    fill: str | None = typer.Option(None, "--diff-after-fill", metavar="REF=TEXT", help="fill REF with TEXT, then print only what changed"),
    mcp: bool = typer.Option(False, "--mcp", help="print Playwright MCP's browser_snapshot of the page instead, for comparison"),
    sizes: bool = typer.Option(False, "--sizes", help="also print the size of the view and of the MCP snapshot"),
    evidence: bool = typer.Option(False, "--evidence", help="also print console errors, failed and blocked requests"),
    trace: Path | None = typer.Option(None, "--trace", help="save a Playwright trace of the visit to this .zip"),
) -> None:
    """Open TARGET in the confined browser and print the compact view the agent gets."""
    from webtester.browser.mcp_format import mcp_snapshot
    from webtester.browser.session import BrowserSession
    from webtester.browser.tools import make_browser_tools
    from webtester.cli.apps import start_target

    running = start_target(target)
    try:
        with BrowserSession(trace_dir=trace.parent if trace else None) as session:
            item = session.new_item_page(running.url, trace_name=trace.stem if trace else None)
            try:
                tools = {t.name: t for t in make_browser_tools(item)}
                if mcp:
                    typer.echo(mcp_snapshot(item.page))
                    return
                view = tools["observe"].invoke({"ref": ref, "full": full})
                typer.echo(view)
                if click:
                    typer.echo(f"\n--- after clicking {click} ---")
                    typer.echo(tools["click"].invoke({"ref": click}))
                if fill:
                    fref, _, text = fill.partition("=")
                    typer.echo(f"\n--- after filling {fref} ---")
                    typer.echo(tools["fill"].invoke({"ref": fref, "text": text}))
                if evidence:
                    typer.echo("\n--- browser evidence ---\n" + tools["console_errors"].invoke({}))
                if sizes:
                    obs = item.observe()
                    theirs = len(mcp_snapshot(item.page))
                    typer.echo(
                        f"\n--- sizes: view {len(obs.text)} chars, Playwright MCP snapshot {theirs} chars "
                        f"({len(obs.text) / theirs:.2f}x), {len(obs.interactive_refs())} interactive references"
                        f", {obs.folded} folded elements ---"
                    )
            finally:
                item.close()
                if trace:
                    typer.echo(f"trace saved to {item.evidence.trace}", err=True)
    finally:
        running.stop()
