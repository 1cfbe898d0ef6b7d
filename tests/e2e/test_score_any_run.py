"""`webtester score` on the run folders `webtester test` writes: a bundled app's run knows its gold (the report's
hint works as printed). A run with no gold: tests/unit/test_score.py and tests/unit/test_report.py."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "webtester" / "llm" / "scripts" / "portfolio_site.yaml"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEBTESTER_"))}
    return subprocess.run([sys.executable, "-m", "webtester.cli.main", *args], cwd=cwd, env={**env, "COLUMNS": "200"},
                          capture_output=True, text=True, timeout=300)


def test_a_bundled_app_run_links_its_traces_and_is_scored_with_the_command_its_report_prints(tmp_path):
    out = tmp_path / "run"
    run = _cli("test", "portfolio_site", "--model", f"scripted:{DEMO}", "--out", str(out), cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr  # the shipped build has a Fail
    assert json.loads((out / "manifest.json").read_text())["dataset"] == "bundled"
    html = (out / "report.html").read_text()
    links = re.findall(r'class="trace-link" href="([^"]+)"', html)  # a trace per executed item, one click away
    assert links == ["portfolio_site/traces/FT-01.zip", "portfolio_site/traces/CS-01.zip"]
    assert all((out / link).is_file() for link in links)
    (hint,) = re.findall(r"score it with: (webtester score [^)<]+)", html)
    command = shlex.split(hint)[1:] + ["--judge", "oracle", "--bootstrap", "0"]  # a judge with no model to load
    scored = _cli(*command, cwd=tmp_path)
    assert scored.returncode == 0, scored.stdout + scored.stderr
    totals = json.loads((out / "scores" / "summary.json").read_text())["totals"]
    assert totals["scored"] == 1 and totals["gold_items"] == 20  # the bundled gold of portfolio_site
