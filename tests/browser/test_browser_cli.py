"""`webtester observe` and `webtester apps` on real apps."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webtester.browser.launcher import start_app
from webtester.cli.main import app as cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _webtester(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    # a separate process: the observe command runs its own Playwright
    return subprocess.run([sys.executable, "-m", "webtester.cli.main", *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.browser
def test_observe_prints_the_agent_view_of_a_running_app():
    with start_app(FIXTURES / "static_site") as app:
        done = _webtester("observe", app.url, "--sizes", "--evidence")
        assert done.returncode == 0, done.stderr
        out = done.stdout
        assert out.startswith(f"URL: {app.url}\nTitle: Counter demo\n")
        assert 'button "Increment" [e' in out and "more similar listitem items" in out
        # the page's third-party image is an environment event (blocked by the offline network policy)
        assert "environment events: third-party requests blocked or unreachable here, not the app's defects (1):" in out
        assert "cdn.example.net/banner.png (image): blocked by the network policy 'offline'" in out
        assert "Playwright MCP snapshot" in out and "interactive references" in out
        ref = out.split('button "Increment" [')[1].split("]")[0]
        done = _webtester("observe", app.url, "--diff-after-click", ref)
        assert done.returncode == 0, done.stderr
        after = done.stdout.split(f"--- after clicking {ref} ---")[1]
        assert "+ Count: 1" in after and "Task 1" not in after


def test_observe_reports_an_app_that_cannot_start():
    result = CliRunner().invoke(cli, ["observe", "/no/such/app"])
    assert result.exit_code == 2 and "not a URL and not a folder" in result.stderr


def test_apps_list_shows_the_bundled_apps():
    from webtester.bundled import load_bundled

    result = CliRunner().invoke(cli, ["apps", "list"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for inst in load_bundled():
        assert inst.index in result.output
    assert "shipped/total" in result.output


def test_apps_serve_rejects_unknown_apps_and_defects():
    runner = CliRunner()
    result = runner.invoke(cli, ["apps", "serve", "no_such_app"])
    assert result.exit_code == 2 and "no bundled app named" in result.output
    from webtester.bundled import load_bundled

    name = load_bundled()[0].index
    result = runner.invoke(cli, ["apps", "serve", name, "--defects", "not-a-defect"])
    assert result.exit_code == 2 and "unknown defect" in result.output
