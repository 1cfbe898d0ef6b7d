"""The agent's browser tools against a real static app in a real Chromium."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from webtester.browser.launcher import start_app
from webtester.browser.session import ItemPage
from webtester.browser.tools import make_browser_tools

pytestmark = pytest.mark.browser

STATIC_SITE = Path(__file__).resolve().parents[1] / "fixtures" / "static_site"


@pytest.fixture(scope="module")
def site():
    with start_app(STATIC_SITE) as app:
        yield app


@pytest.fixture()
def item(browser, site, tmp_path):
    page = ItemPage(browser, site.url, screenshot_dir=tmp_path / "shots")
    yield page
    page.close()


@pytest.fixture()
def other_origin():
    """A server on another origin that counts every request it receives."""
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<title>Other origin</title><h1>You left the app</h1>")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", hits
    server.shutdown()
    server.server_close()


def tools_for(item) -> dict:
    return {t.name: t for t in make_browser_tools(item)}


def ref_of(item, name: str, role: str | None = None) -> str:
    obs = item.last_observation or item.observe()
    for ref, info in obs.refs.items():
        if info.name == name and (role is None or info.role == role):
            return ref
    raise AssertionError(f"no element named {name!r} in the view:\n{obs.text}")


def test_tool_set_has_clear_schemas():
    from langchain_core.tools import BaseTool

    from webtester.browser.tools import _SPECS

    names = [s[0] for s in _SPECS]
    for wanted in ["observe", "navigate", "click", "fill", "type_text", "select_option", "check", "press_key", "hover",
                   "scroll", "wait_for", "go_back", "screenshot", "console_errors", "run_js", "run_steps"]:
        assert wanted in names
    assert "verdict" not in " ".join(names)
    for _, _, schema, description in _SPECS:
        assert description and issubclass(schema, object)
    assert BaseTool  # the tools are LangChain tools (checked on a live page below)


def test_click_and_fill_through_references_change_the_page(item):
    tools = tools_for(item)
    view = tools["observe"].invoke({})
    assert "URL: " + item.base_url in view and "Title: Counter demo" in view
    assert 'button "Increment" [' in view
    out = tools["click"].invoke({"ref": ref_of(item, "Increment")})
    assert out.startswith('Clicked button "Increment"')
    assert "- Count: 0" in out and "+ Count: 1" in out
    assert "Task 1" not in out  # only what changed comes back
    out = tools["fill"].invoke({"ref": ref_of(item, "Your name"), "text": "Grace", "press_enter": True})
    assert "Hello, Grace!" in out
    out = tools["check"].invoke({"ref": ref_of(item, "Send me news")})
    assert "unchecked" in out and "checked" in out.split("+ ", 1)[1]
    out = tools["select_option"].invoke({"ref": ref_of(item, "Size"), "options": ["Large"]})
    assert '= "Large"' in out
    out = tools["press_key"].invoke({"key": "Tab"})
    assert out.startswith("Pressed Tab")
    # the steps name the elements by locators a person can reuse, not by the view's references
    assert item.evidence.steps[:2] == ['click page.get_by_role("button", name="Increment", exact=True)',
                                       'fill page.get_by_role("textbox", name="Your name", exact=True) \'Grace\'']


def test_folded_items_can_be_expanded_and_used(item):
    tools = tools_for(item)
    view = tools["observe"].invoke({})
    assert "more similar listitem items" in view and "Task 30" in view
    container = view.split("observe ref=")[1].split()[0]
    expanded = tools["observe"].invoke({"ref": container})
    assert "Task 30 · button \"Done\"" in expanded
    done_30 = expanded.split("Task 30 · button \"Done\" [")[1].split("]")[0]
    out = tools["click"].invoke({"ref": done_30})
    assert "Task 30 (done)" in out
    assert "Changes (- removed, + added):" in out and "Title:" not in out  # a diff, not the whole page again


def test_tools_answer_errors_as_text_and_never_raise(item, site):
    tools = tools_for(item)
    tools["observe"].invoke({})
    out = tools["click"].invoke({"ref": "e999"})
    assert out.startswith("Error:") and "not on the current page" in out
    assert tools["click"].invoke({"ref": "the save button"}).startswith("Error:")
    assert tools["click"].invoke({}).startswith("Error: invalid arguments for click: ref")
    assert tools["fill"].invoke({"ref": ref_of(item, "Increment"), "text": "x"}).startswith("Error: fill")
    assert tools["wait_for"].invoke({"text": "never shown anywhere", "timeout": 0.5}).startswith("Error:")
    old = ref_of(item, "Increment")
    tools["navigate"].invoke({"url": "second.html"})
    out = tools["click"].invoke({"ref": old})
    assert out.startswith("Error:") and "latest page view" in out


def test_console_and_page_errors_and_failed_requests_are_captured(browser, site):
    item = ItemPage(browser, site.url + "broken.html")
    try:
        tools = tools_for(item)
        item.page.wait_for_timeout(300)
        report = tools["console_errors"].invoke({})
        assert "Failed to load settings: boom" in report
        assert "TypeError: Cannot read properties of undefined (reading 'items')" in report
        assert "api/missing.json: HTTP 404" in report
        out = tools["click"].invoke({"ref": ref_of(item, "Crash")})
        assert "Browser reported:" in out and "undefinedFunctionCall is not defined" in out
        evidence = item.evidence.to_model()
        assert any("boom" in e for e in evidence.console_errors)
        assert any("ReferenceError" in e for e in evidence.page_errors)
        assert any("404" in e for e in evidence.failed_requests)
    finally:
        item.close()


def test_the_browser_stays_on_the_app_origin(item, other_origin):
    other_url, hits = other_origin
    tools = tools_for(item)
    tools["observe"].invoke({})
    # the navigate tool refuses other origins and file://
    assert "outside the app under test" in tools["navigate"].invoke({"url": other_url})
    assert "outside the app under test" in tools["navigate"].invoke({"url": "file:///etc/passwd"})
    # a navigation started by the page itself is answered locally, never sent
    out = tools["run_js"].invoke({"script": f"location.href = {other_url!r}; return 1"})
    assert "Blocked: outside the app under test" in out or "Blocked" in item.page.title()
    item.page.wait_for_timeout(200)
    assert item.page.title() == "Blocked: outside the app under test"
    # so do requests made by scripts
    tools["go_back"].invoke({})
    fetched = tools["run_js"].invoke({"script": f"try {{ await fetch({other_url!r} + 'api'); return 'reached'; }} catch (e) {{ return 'failed: ' + e }}"})
    assert "failed:" in fetched and "reached" not in fetched
    # and a link to another site
    out = tools["click"].invoke({"ref": ref_of(item, "Partner offers")})
    assert "Blocked: outside the app under test" in out
    assert "navigation to https://partner.example.org/offers" in out
    assert hits == []  # nothing ever reached the other origin
    blocked = "\n".join(item.evidence.blocked_requests)
    assert other_url in blocked
    # the page's own third-party image is the network policy's doing: an environment event, not a failed request
    environment = "\n".join(item.evidence.environment)
    assert "cdn.example.net/banner.png (image): blocked by the network policy 'offline'" in environment
    assert not any("cdn.example.net" in r for r in item.evidence.failed_requests)
    assert item.evidence.to_model().environment == item.evidence.environment


def test_downloads_are_refused_and_new_tabs_recorded(browser, site):
    item = ItemPage(browser, site.url + "second.html")
    try:
        tools = tools_for(item)
        tools["observe"].invoke({})
        tools["click"].invoke({"ref": ref_of(item, "Download report")})
        tools["click"].invoke({"ref": ref_of(item, "Open home in a new tab")})
        deadline = time.monotonic() + 5
        while (not item.evidence.downloads or not item.evidence.popups) and time.monotonic() < deadline:
            item.page.wait_for_timeout(100)
        assert item.evidence.downloads and "report.csv" in item.evidence.downloads[0]
        assert item.evidence.popups and "index.html" in item.evidence.popups[0]
        assert len(item.context.pages) == 1  # the new tab was closed; the test goes on in the original one
    finally:
        item.close()


def test_dialogs_are_answered_and_recorded(item):
    tools = tools_for(item)
    tools["observe"].invoke({})
    out = tools["click"].invoke({"ref": ref_of(item, "Delete all")})
    assert "+ confirmed" in out and "dialog: confirm 'Delete everything?' (accepted)" in out
    assert "dismissed" in tools["set_dialog_answer"].invoke({"accept": False})
    out = tools["click"].invoke({"ref": ref_of(item, "Delete all")})
    assert "cancelled" in out and "(dismissed)" in out


def test_run_js_runs_in_the_page_with_a_timeout(item):
    tools = tools_for(item)
    tools["observe"].invoke({})
    assert tools["run_js"].invoke({"script": "return document.title"}).startswith('Script returned: "Counter demo"')
    assert "(expression)" not in tools["run_js"].invoke({"script": "return [1, {a: 2}]"})
    start = time.monotonic()
    out = tools["run_js"].invoke({"script": "while (true) {}", "timeout": 1})
    assert out.startswith("Error:") and "stopped" in out
    out = tools["run_js"].invoke({"script": "await new Promise(r => setTimeout(r, 50)); while (true) {}", "timeout": 1})
    assert out.startswith("Error:") and "stopped" in out
    assert time.monotonic() - start < 15
    assert "Error:" in tools["run_js"].invoke({"script": "throw new Error('nope')"})
    # the page still works afterwards
    assert "+ Count: 1" in tools["click"].invoke({"ref": ref_of(item, "Increment")})


def test_run_steps_batches_actions_and_checks(item):
    tools = tools_for(item)
    tools["observe"].invoke({})
    out = tools["run_steps"].invoke({"steps": [
        {"action": "click", "role": "button", "name": "Increment"},
        {"action": "click", "ref": ref_of(item, "Increment")},
        {"action": "expect_text", "css": "#count", "value": "2"},
        {"action": "fill", "label": "Your name", "value": "Lin"},
        {"action": "press", "label": "Your name", "value": "Enter"},
        {"action": "expect_text", "value": "Hello, Lin!"},
        {"action": "read_text", "css": "#greeting"},
    ]})
    assert out.startswith("All steps succeeded"), out
    assert '7. read_text css \'#greeting\' → "Hello, Lin!"' in out
    assert "+ Count: 2" in out
    out = tools["run_steps"].invoke({"steps": [
        {"action": "expect_text", "css": "#count", "value": "99"},
        {"action": "click", "role": "button", "name": "Increment"},
    ]})
    assert out.startswith("Some steps failed") and "EXPECTATION FAILED" in out and "1 step(s) not run" in out
    out = tools["run_steps"].invoke({"steps": [{"action": "goto", "value": "https://example.org/"}]})
    assert "outside the app under test" in out
    assert tools["run_steps"].invoke({"steps": [{"action": "fill", "css": "#name"}]}).startswith("Error: invalid arguments")


def test_screenshots_and_traces_are_saved(playwright_instance, site, tmp_path):
    import zipfile

    from webtester.browser.session import BrowserSession

    with BrowserSession(trace_dir=tmp_path / "traces", playwright=playwright_instance) as session:
        item = session.new_item_page(site.url, trace_name="FT-01 counter", screenshot_dir=tmp_path / "shots")
        tools = tools_for(item)
        out = tools["screenshot"].invoke({"label": "start page"})
        path = Path(out.split("Saved screenshot ")[1])
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.parent == tmp_path / "shots"
        tools["click"].invoke({"ref": ref_of(item, "Increment")})
        item.close()
        trace = tmp_path / "traces" / "FT-01-counter.zip"
        assert item.evidence.trace == str(trace) and trace.exists()
        with zipfile.ZipFile(trace) as z:
            names = z.namelist()
        assert any(n.endswith(".trace") for n in names) and any(n.endswith(".network") for n in names)
        assert item.evidence.to_model().screenshots == [str(path)]


def test_every_item_starts_from_the_app_default_data(browser, site):
    first = ItemPage(browser, site.url)
    try:
        first.page.evaluate("localStorage.setItem('cart', '3 items'); document.cookie = 'seen=1'")
        assert first.page.evaluate("localStorage.getItem('cart')") == "3 items"
    finally:
        first.close()
    second = ItemPage(browser, site.url)
    try:
        assert second.page.evaluate("localStorage.getItem('cart')") is None
        assert second.page.evaluate("document.cookie") == ""
        assert second.page.viewport_size == {"width": 1280, "height": 720}
    finally:
        second.close()
