"""`webtester export` end to end: a scripted run of the bundled portfolio_site, exported, and the exported suite
run with plain `pytest` against the shipped build (the run's verdicts come back), with a locator the page no
longer has (the self-check says so), with --xfail, and against the clean build running at a URL (the Fail is
fixed). Another build started by the suite itself (WEBTESTER_BUILD) is covered in tests/unit/test_export_suite.py."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FT = "test_ft_01_filtering_the_gallery_by_portraits_shows_only_portrait"
CS = "test_cs_01_the_contact_form_rejects_an_email_address_with_an_invalid"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OPENAI_", "WEBTESTER_", "PYTEST_ADDOPTS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD"))}
    return {**env, "COLUMNS": "200", **extra}


def webtester(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "webtester.cli.main", *args], cwd=cwd, env=_env(),
                          capture_output=True, text=True, timeout=300)


def run_suite(suite: Path, **env: str) -> tuple[subprocess.CompletedProcess, dict[str, str]]:
    """Plain `pytest` in the suite's folder; the outcome of each test by function name."""
    proc = subprocess.run([sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider"], cwd=suite,
                          env=_env(**env), capture_output=True, text=True, timeout=240)
    outcomes = {name: outcome for outcome, name in
                re.findall(r"^(PASSED|FAILED|XFAIL|XPASS|ERROR) \S+::(\w+)\[chromium\]", proc.stdout, re.M)}
    return proc, outcomes


@pytest.fixture(scope="module")
def suites(tmp_path_factory) -> tuple[Path, Path]:
    """The run, exported as it is and with --xfail."""
    root = tmp_path_factory.mktemp("export")
    run = webtester("test", "portfolio_site", "--model", "scripted:portfolio_site", "--out", "run", "--trace", "off",
                    cwd=root)
    assert run.returncode == 1 and "1 passed, 1 failed" in run.stdout, run.stdout + run.stderr
    plain = webtester("export", "run", cwd=root)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "2 test(s) written to" in plain.stdout and "cd " in plain.stdout and "&& pytest" in plain.stdout
    xfail = webtester("export", "run", "--out", "xfail", "--xfail", cwd=root)
    assert xfail.returncode == 0, xfail.stdout + xfail.stderr
    return root / "run-suite", root / "xfail"


def test_the_suite_reproduces_the_verdicts_and_tells_a_changed_ui(suites):
    plain, _ = suites
    source = (plain / "test_portfolio_site.py").read_text()
    assert 'act(1, "click", page.get_by_role("button", name="Portraits", exact=True))' in source
    # a copy of the passing test whose control the page no longer has
    changed = source.split("\n\n\n@pytest.mark.constraint")[0].split("@pytest.mark.functionality")[1]
    changed = changed.replace(FT, "test_changed_ui").replace('name="Portraits"', 'name="Portraits only"')
    (plain / "test_portfolio_site.py").write_text(source + "\n\n@pytest.mark.functionality" + changed)
    proc, outcomes = run_suite(plain, WEBTESTER_FIND_SECONDS="2")
    assert outcomes == {FT: "PASSED", CS: "FAILED", "test_changed_ui": "FAILED"}, proc.stdout + proc.stderr
    assert ('UIChanged: step 1: page.get_by_role("button", name="Portraits only", exact=True) finds 0 elements: '
            "the page no longer has this control (the UI changed?), not a failure of the checked behaviour"
            ) in proc.stdout
    cs_failure = proc.stdout.split(f"{CS}[chromium]")[1]
    assert "AssertionError" in cs_failure.split("short test summary")[0] and "UIChanged" not in cs_failure.split("_ test_changed_ui")[0]
    (plain / "test_portfolio_site.py").write_text(source)


def test_xfail_marks_the_fail_strict(suites):
    _, xfail = suites
    assert ('@pytest.mark.xfail(strict=True, reason="An invalid email address is accepted", raises=AssertionError)'
            in (xfail / "test_portfolio_site.py").read_text())
    proc, outcomes = run_suite(xfail)
    assert proc.returncode == 0 and outcomes == {FT: "PASSED", CS: "XFAIL"}, proc.stdout + proc.stderr


def test_against_the_clean_build_running_at_a_url_the_fail_turns_green(suites, tmp_path):
    from webtester.bundled import get_instance, serve_app

    plain, _ = suites
    suite = shutil.copytree(plain, tmp_path / "suite")
    (suite / "export.json").write_text('{"apps": {}}')  # nothing to start: the URL is given
    server = serve_app(get_instance("portfolio_site"), "clean")
    try:
        proc, outcomes = run_suite(suite, WEBTESTER_APP_URL=server.url)
    finally:
        server.stop()
    assert proc.returncode == 0 and outcomes == {FT: "PASSED", CS: "PASSED"}, proc.stdout + proc.stderr
