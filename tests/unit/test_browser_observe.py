"""The compact observation: parsing Playwright's aria snapshot, rendering, folding, references, diffs."""

from __future__ import annotations

import pytest

from webtester.browser.aria import parse_aria_snapshot
from webtester.browser.mcp_format import mcp_format
from webtester.browser.observe import (
    StaleRefError,
    build_observation,
    diff,
    normalize_ref,
    observe,
    resolve_ref,
)

SNAPSHOT = """\
- generic [active] [ref=e1]:
  - banner [ref=e2]:
    - navigation "Main" [ref=e3]:
      - link "Home" [ref=e4] [cursor=pointer]:
        - /url: /
      - link "Partner: offers" [ref=e5] [cursor=pointer]:
        - /url: https://partner.example.org/x
  - main [ref=e6]:
    - heading "Tasks" [level=1] [ref=e7]
    - 'button "Say \\"hi\\": now" [ref=e8]'
    - generic [ref=e9]:
      - text: Name
      - textbox "Name" [ref=e10]: Ada
    - checkbox "Agree" [checked] [ref=e11]
    - combobox "Size" [ref=e12]:
      - option "S"
      - option "M" [selected]
    - generic [ref=e13] [cursor=pointer]: "42"
    - list [ref=e20]:
""" + "".join(
    f"""      - listitem [ref=e{100 + 2 * i}]:
        - text: Task {i}
        - button "Done" [ref=e{101 + 2 * i}]
"""
    for i in range(20)
)


def test_parser_reads_roles_names_attributes_refs_and_values():
    tree = parse_aria_snapshot(SNAPSHOT)
    nodes = {n.ref: n for n in tree.walk() if n.ref}
    assert nodes["e4"].role == "link" and nodes["e4"].name == "Home" and nodes["e4"].pointer
    assert nodes["e5"].props["url"] == "https://partner.example.org/x"
    assert nodes["e8"].role == "button" and nodes["e8"].name == 'Say "hi": now'  # single-quoted YAML key
    assert nodes["e10"].text == "Ada"
    assert nodes["e11"].attrs == {"checked": "true"}
    assert nodes["e7"].attrs["level"] == "1"
    assert nodes["e13"].text == "42" and nodes["e13"].pointer
    options = [c for c in nodes["e12"].children if c.role == "option"]
    assert [o.name for o in options] == ["S", "M"] and options[1].attrs == {"selected": "true"}


def test_render_keeps_every_interactive_reference_and_folds_repetition():
    obs = build_observation(SNAPSHOT, "http://127.0.0.1:9000/", "Demo")
    text = obs.text
    assert text.startswith("URL: http://127.0.0.1:9000/\nTitle: Demo")
    assert 'button "Say \'hi\': now" [e8]' in text
    assert 'textbox "Name" [e10] = "Ada"' in text
    assert "Name ·" not in text  # the label text repeated by its textbox is dropped
    assert 'checkbox "Agree" [e11] checked' in text
    assert 'combobox "Size" [e12] = "M" options: S | M' in text
    assert 'clickable "42" [e13]\n' in text  # a pointer-cursor element without an interactive role
    assert "→ https://partner.example.org/x" in text and "→ /" not in text  # only other origins' links
    # 20 similar list items: the first few shown, the rest folded with their labels and how to expand
    assert "Task 0 · button \"Done\" [e101]" in text
    assert "[e139]" not in text and "Task 19" in text
    assert "more similar listitem items (observe ref=e20" in text
    assert obs.folded > 0
    # every interactive element is in the registry, folded or not
    interactive = set(obs.interactive_refs())
    assert {"e4", "e5", "e8", "e10", "e11", "e12", "e13", "e139"} <= interactive
    assert "e7" in obs.refs and "e7" not in interactive  # headings are known but not actionable
    # much smaller than Playwright MCP's answer for the same snapshot
    assert len(text) < 0.5 * len(mcp_format("http://127.0.0.1:9000/", "Demo", SNAPSHOT))


def test_expanding_a_fold_lists_every_item_and_full_view_shows_local_links():
    expanded = build_observation(SNAPSHOT, "http://127.0.0.1:9000/", "Demo", ref="e20")
    assert all(f"[e{101 + 2 * i}]" in expanded.text for i in range(20))
    assert "more similar" not in expanded.text
    full = build_observation(SNAPSHOT, "http://127.0.0.1:9000/", "Demo", full=True)
    assert "[e139]" in full.text and 'link "Home" [e4] → /' in full.text
    with pytest.raises(StaleRefError):
        build_observation(SNAPSHOT, "http://127.0.0.1:9000/", "Demo", ref="e999")


def test_diff_reports_only_changes_with_their_section():
    before = build_observation(SNAPSHOT, "http://127.0.0.1:9000/", "Demo")
    changed = SNAPSHOT.replace('checkbox "Agree" [checked] [ref=e11]', 'checkbox "Agree" [ref=e11]')
    after = build_observation(changed, "http://127.0.0.1:9000/", "Demo")
    out = diff(before, after)
    assert "- checkbox \"Agree\" [e11] checked" in out and "+ checkbox \"Agree\" [e11] unchecked" in out
    assert "@ main:" in out
    assert "Task 0" not in out  # unchanged parts are not repeated
    assert diff(after, after) == "No visible change on the page."
    moved = build_observation(changed, "http://127.0.0.1:9000/other", "Other")
    assert "URL: http://127.0.0.1:9000/other (was http://127.0.0.1:9000/)" in diff(after, moved)
    assert diff(None, after) == after.text


def test_normalize_ref_accepts_usual_spellings_and_rejects_others():
    assert normalize_ref("e12") == normalize_ref("[e12]") == normalize_ref("ref=e12") == "e12"
    assert normalize_ref("f2e7") == "f2e7"
    with pytest.raises(ValueError):
        normalize_ref("button Save")


PAGE = """<!doctype html><title>Refs</title>
<nav aria-label="Site"><a href="#a">First section of the site</a> <a href="#b">Second section of the site</a></nav>
<main><h1>Reference resolution</h1>
<p>This paragraph is long enough to keep the rest of the page out of the changed lines.</p>
<button onclick="document.querySelector('#out').textContent='clicked'">Go</button>
<p>Another paragraph that stays the same whatever happens on the page.</p>
<p id="out">idle</p><input aria-label="Query"><a href="#x">Anchor</a></main>"""


def test_references_resolve_to_live_elements(browser):
    page = browser.new_page()
    try:
        page.set_content(PAGE)
        obs = observe(page)
        go = next(r for r, info in obs.refs.items() if info.name == "Go")
        resolve_ref(page, obs, go).click()
        after = observe(page)
        assert go in after.refs  # the same element keeps its reference
        assert "+ clicked" in diff(obs, after)
        query = next(r for r, info in after.refs.items() if info.name == "Query")
        resolve_ref(page, after, query).fill("hello")
        assert 'textbox "Query" [' in observe(page).text and '= "hello"' in observe(page).text
        with pytest.raises(StaleRefError):
            resolve_ref(page, after, "e999")
    finally:
        page.close()


WIDGETS = """<title>Widgets</title><main><h1>Orders</h1>
<table><caption>Recent orders</caption><thead><tr><th>Order</th><th>Total</th><th>Action</th></tr></thead><tbody>
""" + "".join(f"<tr><td>#{i}</td><td>${i * 3}.00</td><td><button>Cancel</button></td></tr>" for i in range(12)) + """
</tbody></table>
<div role="dialog" aria-modal="true" aria-labelledby="dt"><h2 id="dt">Confirm</h2><p>Really cancel?</p><button>Yes</button></div>
<iframe srcdoc="<button onclick=&quot;this.textContent='Pressed inside'&quot;>Inside frame</button>"></iframe>
<details><summary>More info</summary><p>Hidden text</p></details>
<label>Volume <input type="range" value="30"></label>
<div role="switch" aria-checked="true" tabindex="0">Dark mode</div>
</main>"""


def test_tables_dialogs_frames_and_disclosures(browser):
    page = browser.new_page()
    try:
        page.set_content(WIDGETS)
        page.wait_for_timeout(200)  # the iframe's document
        obs = observe(page)
        text = obs.text
        assert 'table "Recent orders" [' in text and "\n  Order | Total | Action\n" in text
        assert '  #0 | $0.00 | button "Cancel" [' in text
        assert "more similar row items" in text and "#11" in text
        assert "dialog [" in text and 'h2 Confirm · Really cancel? · button "Yes" [' in text
        assert 'slider "Volume" [' in text and '= "30"' in text
        assert 'switch "Dark mode" [' in text and "] checked" in text
        inside = next(r for r, i in obs.refs.items() if i.name == "Inside frame")
        assert not inside.startswith("e")  # a reference into the iframe's document
        resolve_ref(page, obs, inside).click()
        summary = next(r for r, i in obs.refs.items() if i.name == "More info")
        assert f'clickable "More info" [{summary}]' in text
        resolve_ref(page, obs, summary).click()
        after = observe(page)
        assert "Pressed inside" in after.text and "Hidden text" in after.text
    finally:
        page.close()
