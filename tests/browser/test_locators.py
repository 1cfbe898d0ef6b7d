"""Steps recorded with locators a person can reuse, and performed through them (as the trace shows)."""

from __future__ import annotations

import json
import zipfile

import pytest

from webtester.browser.session import ItemPage
from webtester.browser.static_server import StaticServer
from webtester.browser.tools import make_browser_tools

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><title>Locators</title>
<main>
  <button onclick="document.querySelector('#out').textContent = 'saved'">Save</button>
  <p id="out">not saved</p>
  <label>Email <input name="email"></label>
  <section id="first"><button>Add</button></section>
  <section id="second"><button onclick="this.textContent = 'Added'">Add</button></section>
  <div style="cursor: pointer" onclick="this.textContent = 'Menu open'">Open menu</div>
</main>"""


@pytest.fixture()
def traced(browser, tmp_path):
    page = ItemPage(browser, "http://127.0.0.1:9/", trace_path=tmp_path / "traces" / "FT-01.zip", goto=False)
    page.page.set_content(PAGE)
    yield page
    page.close()


def _ref(item, name: str, role: str) -> str:
    obs = item.observe()
    return next(r for r, info in obs.refs.items() if info.name == name and info.role == role)


def _trace_events(path) -> list[dict]:
    with zipfile.ZipFile(path) as z:
        return [json.loads(line) for line in z.read("trace.trace").decode().splitlines() if line.strip()]


def test_a_click_by_reference_is_recorded_and_traced_by_role_and_name(traced):
    tools = {t.name: t for t in make_browser_tools(traced)}
    out = tools["click"].invoke({"ref": _ref(traced, "Save", "button")})
    assert 'via page.get_by_role("button", name="Save", exact=True)' in out and "saved" in out
    (action,) = traced.evidence.actions
    assert action.action == "click" and action.target == {"role": "button", "name": "Save"}
    assert action.locator == 'page.get_by_role("button", name="Save", exact=True)'
    assert traced.evidence.steps == [action.step] and action.step.startswith("click page.get_by_role(")
    evidence = traced.evidence.to_model()
    assert evidence.actions == [action]
    traced.close()

    events = _trace_events(traced.trace_path)
    clicks = [e for e in events if e.get("type") == "before" and e.get("method") == "click"]
    assert clicks and all(e["params"]["selector"].startswith('internal:role=button[name="Save"') for e in clicks)
    # the reference is only looked up (to find the element the locator must match); no action goes through it
    lookups = {"queryCount", "waitForSelector"}
    assert not any("aria-ref" in json.dumps(e.get("params", {})) for e in events
                   if e.get("type") == "before" and e.get("method") not in lookups)
    titles = [e.get("title") for e in events if e.get("method") == "tracingGroup"]
    assert action.step in titles  # the trace viewer lists the action under the reusable step


def test_a_field_an_ambiguous_button_and_a_clickable_text_get_locators_that_find_them_alone(traced):
    tools = {t.name: t for t in make_browser_tools(traced)}
    tools["fill"].invoke({"ref": _ref(traced, "Email", "textbox"), "text": "a@b.c"})
    second_add = [r for r, info in traced.observe().refs.items() if info.role == "button" and info.name == "Add"][1]
    out = tools["click"].invoke({"ref": second_add})
    assert "Added" in out  # the second of the two "Add" buttons was clicked
    menu = next(r for r, info in traced.observe().refs.items() if info.role == "generic" and info.interactive)
    tools["click"].invoke({"ref": menu})
    fill, add, text = traced.evidence.actions
    assert fill.target == {"role": "textbox", "name": "Email"} and fill.value == "a@b.c"
    # two buttons share role and name and text: a CSS path from the nearest unique id finds the one clicked
    assert add.target == {"css": "#second > button"} and add.locator == 'page.locator("#second > button")'
    # an element without a role a person could query by is found by its text
    assert text.target == {"text": "Open menu"} and traced.page.get_by_text("Menu open").count() == 1
    for recorded in (fill, add, text):
        assert not any("aria-ref" in (v or "") for v in (recorded.locator, recorded.step))


def test_batched_steps_record_the_reusable_locator_of_a_reference_and_of_a_query(traced):
    tools = {t.name: t for t in make_browser_tools(traced)}
    save = _ref(traced, "Save", "button")
    out = tools["run_steps"].invoke({"steps": [
        {"action": "click", "ref": save}, {"action": "fill", "label": "Email", "value": "x@y.z"},
        {"action": "expect_text", "value": "saved"}]})
    assert out.startswith("All steps succeeded"), out
    click, fill, expected = traced.evidence.actions
    assert click.locator == 'page.get_by_role("button", name="Save", exact=True)' and click.action == "click"
    assert fill.locator == 'page.get_by_label("Email")' and fill.target == {"label": "Email"} and fill.value == "x@y.z"
    assert (click.outcome, fill.outcome) == ("done", "done")
    # the expectation checks the whole page: recorded with no locator, and as held
    assert (expected.action, expected.locator, expected.value, expected.outcome) == ("expect_text", None, "saved", "held")


def test_navigations_and_expectations_are_recorded_with_their_outcome(browser, tmp_path):
    (tmp_path / "index.html").write_text(PAGE)
    with StaticServer(tmp_path) as server:
        traced = ItemPage(browser, server.url)
        try:
            _navigations_and_expectations(traced)
        finally:
            traced.close()


def _navigations_and_expectations(traced) -> None:
    tools = {t.name: t for t in make_browser_tools(traced)}
    out = tools["run_steps"].invoke({"steps": [
        {"action": "expect_visible", "role": "button", "name": "Save"},
        {"action": "goto", "value": "/#/elsewhere"},
        {"action": "expect_text", "value": "no such words here"}]})
    assert "EXPECTATION FAILED" in out, out
    visible, goto, missing = traced.evidence.actions
    assert (visible.action, visible.locator, visible.outcome) == (
        "expect_visible", 'page.get_by_role("button", name="Save")', "held")
    # a navigation is recorded relative to the app's origin, so that a replay can open it on another port
    assert (goto.action, goto.value, goto.outcome) == ("goto", "/#/elsewhere", "done")
    assert (missing.action, missing.outcome) == ("expect_text", "failed")
    tools["navigate"].invoke({"url": "/"})
    tools["press_key"].invoke({"key": "Tab"})
    assert [(r.action, r.value, r.outcome) for r in traced.evidence.actions[3:]] == [
        ("goto", "/", "done"), ("press", "Tab", "done")]
