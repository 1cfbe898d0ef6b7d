"""Each deterministic probe fires on a page built to trigger it and stays silent on a clean page."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from webtester.browser.chromium import VIEWPORT
from webtester.browser.static_server import StaticServer
from webtester.probes import run_probes

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "probe_pages"


@pytest.fixture(scope="module")
def server():
    with StaticServer(PAGES) as s:
        yield s


def _answered(page, failed: list[str], seconds: float = 5.0) -> None:
    """Wait until every request the page made has its answer, and every failed one has reached ``failed`` (a busy
    machine delays both)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        bad = page.evaluate("() => performance.getEntriesByType('resource')"
                            ".filter(e => e.responseEnd === 0 || e.responseStatus >= 400).length")
        if len(failed) >= bad:
            return
        page.wait_for_timeout(50)


def _probe(browser, server, name, tmp_path):
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    console, errors, failed = [], [], []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    url = server.url + name
    page.goto(url)
    page.wait_for_timeout(100)
    _answered(page, failed)
    try:
        findings = run_probes(page, url, screenshot_dir=tmp_path / "shots", relative_to=tmp_path,
                              console_errors=console, page_errors=errors, failed_requests=failed)
    finally:
        context.close()
    return findings


@pytest.mark.browser
def test_clean_page_is_silent(browser, server, tmp_path):
    findings = _probe(browser, server, "clean.html", tmp_path)
    assert findings == [], [f.message for f in findings]


@pytest.mark.browser
@pytest.mark.parametrize(
    "page_name, expected",
    [
        ("errors.html", {"console-error", "page-error", "failed-request"}),
        ("broken_image.html", {"broken-image", "failed-request"}),
        ("placeholder.html", {"placeholder-text"}),
        ("overflow.html", {"viewport-overflow"}),
        ("dead_control.html", {"dead-control"}),
        ("forms.html", {"empty-form-accepted", "duplicate-submission", "state-lost-on-reload"}),
    ],
)
def test_probe_fires_on_its_page(browser, server, tmp_path, page_name, expected):
    findings = _probe(browser, server, page_name, tmp_path)
    kinds = Counter(f.probe for f in findings)
    assert set(kinds) == expected, [f"{f.probe}: {f.message}" for f in findings]
    for f in findings:
        assert f.page_url.endswith(page_name) and f.message and f.element
    on_page = [f for f in findings if f.probe not in {"console-error", "page-error", "failed-request"}]
    assert all(f.screenshot and (tmp_path / f.screenshot).is_file() for f in on_page)


@pytest.mark.browser
def test_undefined_is_a_word_of_a_page_about_program_errors(browser, server, tmp_path):
    """A developers' forum quotes "Cannot read properties of undefined": no leftover. A value never filled in
    (NaN) on the same page still is one."""
    assert [f.message for f in _probe(browser, server, "code_forum.html", tmp_path)] == []
    leaked = [f.message for f in _probe(browser, server, "code_forum.html?leak=1", tmp_path)]
    assert leaked == ["placeholder-like text 'NaN' in: 'Welcome back, NaN'"]


@pytest.mark.browser
def test_a_value_left_undefined_is_placeholder_text(browser, server, tmp_path):
    (found,) = _probe(browser, server, "leaked_value.html", tmp_path)
    assert found.probe == "placeholder-text" and "'undefined'" in found.message


@pytest.mark.browser
def test_finding_names_the_element(browser, server, tmp_path):
    (image,) = [f for f in _probe(browser, server, "broken_image.html", tmp_path) if f.probe == "broken-image"]
    assert "#hero" in image.element and "missing-mountain.jpg" in image.message
    (dead,) = _probe(browser, server, "dead_control.html", tmp_path)
    assert "Export CSV" in dead.element
