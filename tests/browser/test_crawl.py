"""The crawl of a small single-page app: states, transitions, routes, JavaScript coverage, screenshots, and no
destructive click."""

from __future__ import annotations

import pytest

from webtester.baseline.crawl import crawl
from webtester.browser.launcher import start_app

pytestmark = pytest.mark.browser

INDEX = """<!doctype html><html><head><title>Notes</title></head><body><div id="root"></div>
<script src="/app.js"></script></body></html>"""
APP = """
const root = document.getElementById('root');
function unused() { return 'never called'; }
function render() {
  const route = location.hash;
  if (localStorage.getItem('wiped')) { root.innerHTML = '<h1>Wiped</h1>'; return; }
  if (route === '#/about') { root.innerHTML = '<h1>About</h1><p>Notes keeps your notes.</p><a href="#/">Home</a>'; return; }
  root.innerHTML = '<h1>My notes</h1><nav><a href="#/about">About</a></nav>' +
    '<button id="new">New note</button> <button id="wipe">Delete all</button>' +
    '<ul><li id="milk" style="cursor: pointer"><b>Buy milk</b><br>2 litres</li><li>Plain note</li></ul>' +
    '<button><svg class="lucide lucide-trash-2" width="16" height="16"></svg></button>';
  document.getElementById('new').onclick = () => {
    const d = document.createElement('div'); d.setAttribute('role', 'dialog');
    d.innerHTML = '<h2>New note</h2><label for="t">Title</label><input id="t" placeholder="Title">';
    root.appendChild(d);
  };
  // a card: no control, only a pointer cursor and a click handler
  document.getElementById('milk').onclick = () => { root.innerHTML = '<h1>Note: Buy milk</h1><p>2 litres, semi-skimmed</p>'; };
  document.getElementById('wipe').onclick = () => { localStorage.setItem('wiped', '1'); render(); };
}
window.addEventListener('hashchange', render);
render();
"""


@pytest.fixture
def notes_app(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(INDEX)
    (site / "app.js").write_text(APP)
    with start_app(site) as app:
        yield app


def test_the_crawl_records_states_transitions_routes_and_coverage_without_destructive_clicks(notes_app, browser, tmp_path):
    context = browser.new_context()
    page = context.new_page()
    try:
        graph = crawl(page, notes_app.url, time_limit=20, screenshot_dir=tmp_path / "shots", relative_to=tmp_path)
        wiped = page.evaluate("() => localStorage.getItem('wiped')")
    finally:
        context.close()
    headings = [s.headings[0] for s in graph.states if s.headings]
    assert "My notes" in headings and "About" in headings and "Wiped" not in headings
    assert wiped is None  # "Delete all" was never clicked
    home = next(s for s in graph.states if s.headings[:1] == ["My notes"] and not s.dialog)
    assert {"role": "button", "icon": "trash"} in home.controls  # an icon-only button is known by its icon
    dialog = next(s for s in graph.states if s.dialog)
    assert dialog.via == 'button "New note"' and any(c.get("placeholder") == "Title" for c in dialog.controls)
    assert graph.path_to(dialog.id) == [f"open {notes_app.url}", 'click button "New note"']
    assert any(e.target == dialog.id and e.new_functions > 0 for e in graph.edges)  # the click ran new code
    assert any(r.endswith("#/about") for r in graph.routes)
    # a card with a pointer cursor is opened like a control, known by its first line; a plain list entry is not
    assert {"role": "card", "name": "Buy milk"} in home.controls and "Plain note" not in {c.get("name") for c in home.controls}
    detail = next(s for s in graph.states if s.headings[:1] == ["Note: Buy milk"])
    assert detail.via == 'card "Buy milk"'
    cov = graph.coverage
    assert cov["available"] and 0 < cov["functions_run"] < cov["functions"]  # unused() never ran
    assert all(s.screenshot and (tmp_path / s.screenshot).is_file() for s in graph.states)
    again = type(graph).from_dict(graph.to_dict())
    assert again.to_dict() == graph.to_dict()


def test_the_exploration_opens_a_crawled_card_again_by_its_first_line(notes_app, browser):
    from webtester.baseline.explore import _opener

    context = browser.new_context()
    page = context.new_page()
    try:
        graph = crawl(page, notes_app.url, time_limit=20)
        edge = next(e for e in graph.edges if e.action == 'card "Buy milk"')
        page.goto(notes_app.url)
        page.locator(_opener(edge)).first.click(timeout=5000)
        assert page.locator("h1").inner_text() == "Note: Buy milk"
    finally:
        context.close()


def test_cards_are_opened_beyond_the_clicks_a_route_gives_its_controls(notes_app, browser):
    """With room for one control click per route, the route's card is still opened: cards do not take the
    controls' places."""
    context = browser.new_context()
    page = context.new_page()
    try:
        graph = crawl(page, notes_app.url, time_limit=20, clicks_per_route=1)
    finally:
        context.close()
    actions = [e.action for e in graph.edges]
    assert 'card "Buy milk"' in actions and 'button "New note"' in actions, actions


TABS_APP = """
const root = document.getElementById('root');
const expenses = [];
let tab = 'overview';
function render() {
  const nav = '<nav><button id="t-over">Overview</button> <button id="t-exp">Expenses</button></nav>';
  if (tab === 'overview') {
    root.innerHTML = nav + '<h1>Overview</h1><p>' + expenses.length + ' expenses</p>';
  } else {
    root.innerHTML = nav + '<h1>Expenses</h1><button id="add">Add expense</button><ul>' +
      expenses.map(e => '<li>' + e.what + ' ' + e.amount + ' ' + e.date + '</li>').join('') + '</ul>';
    document.getElementById('add').onclick = openForm;
  }
  document.getElementById('t-over').onclick = () => { tab = 'overview'; render(); };
  document.getElementById('t-exp').onclick = () => { tab = 'expenses'; render(); };
}
function openForm() {
  const d = document.createElement('div'); d.setAttribute('role', 'dialog');
  d.innerHTML = '<h2>New expense</h2><form><label for="w">What</label><input id="w" required>' +
    '<label for="a">Amount</label><input id="a" type="number" required>' +
    '<label for="d">Date</label><input id="d" type="date" required><button type="submit">Save expense</button></form>';
  root.appendChild(d);
  d.querySelector('form').onsubmit = (ev) => {
    ev.preventDefault();
    expenses.push({what: d.querySelector('#w').value, amount: d.querySelector('#a').value, date: d.querySelector('#d').value});
    render();
  };
}
render();
"""


@pytest.fixture
def tabs_app(tmp_path):
    site = tmp_path / "tabs"
    site.mkdir()
    (site / "index.html").write_text(INDEX.replace("Notes", "Expenses"))
    (site / "app.js").write_text(TABS_APP)
    with start_app(site) as app:
        yield app


def test_a_form_behind_a_tab_and_a_button_is_crawled_and_probed(tabs_app, browser):
    """A tab the app shows without a route of its own ("Expenses") has an "Add expense" button that opens the form:
    the crawl clicks it from the tab's view, and the exploration opens the form by both clicks and probes it."""
    from webtester.baseline.explore import Explorer

    context = browser.new_context()
    page = context.new_page()
    try:
        graph = crawl(page, tabs_app.url, time_limit=20)
        form_view = next(s for s in graph.states if s.dialog)
        assert graph.path_to(form_view.id) == [f"open {tabs_app.url}", 'click button "Expenses"', 'click button "Add expense"']
        exploration = Explorer(page, tabs_app.url, graph=graph, time_limit=60, accept_dialogs=False).run()
    finally:
        context.close()
    assert any("New expense" in f and "then" in f for f in exploration.forms), exploration.forms
    assert any("submitted valid data" in s for s in exploration.steps), exploration.steps
    assert "future-date-accepted" in {f["probe"] for f in exploration.findings}, exploration.findings


def test_a_control_whose_name_the_crawl_cut_short_is_opened_again_by_the_start_of_its_name(browser):
    """A button holding a whole card's text (longer than the crawl keeps of a name, with characters a regular
    expression would read) is found again by the name's first characters, not waited for until the click times out."""
    from webtester.baseline.crawl import NAME_LIMIT, CrawlEdge
    from webtester.baseline.explore import _opener

    name = "Skyline Conference Room (A/B) [4K] Large conference room with a video wall and seats for 20 people"
    context = browser.new_context()
    page = context.new_page()
    try:
        page.set_content(f"<button>Short</button><button onclick=\"document.title = 'opened'\">{name}</button>")
        page.locator(_opener(CrawlEdge("a", f'button "{name[:NAME_LIMIT]}"', "b"))).first.click(timeout=2000)
        assert page.title() == "opened"
        assert _opener(CrawlEdge("a", 'button "Short"', "b")) == 'role=button[name="Short"s]'
    finally:
        context.close()


POPUP_APP = """
const root = document.getElementById('root');
root.innerHTML = '<h1>Orders</h1><button role="combobox" id="status">All statuses</button> <button id="reports">Reports</button>';
// like a styled select: the option list opens in a layer of its own and the page takes no clicks until Escape
document.getElementById('status').onclick = () => {
  const list = document.createElement('div'); list.setAttribute('role', 'listbox'); list.id = 'list';
  list.style.pointerEvents = 'auto';
  list.innerHTML = '<div role="option">Open</div><div role="option">Closed</div>';
  document.body.appendChild(list); document.body.style.pointerEvents = 'none';
};
document.addEventListener('keydown', (ev) => {
  if (ev.key !== 'Escape') return;
  const list = document.getElementById('list'); if (list) list.remove();
  document.body.style.pointerEvents = '';
});
document.getElementById('reports').onclick = () => { root.innerHTML = '<h1>Reports</h1><p>Sales by month</p>'; };
"""


def test_an_option_list_a_click_left_open_does_not_take_the_next_click(tmp_path, browser):
    """Opening a styled select changes no state (its options are no controls), but its layer covers the page: the
    crawl closes it with Escape, so the next control on the route is still clicked at once."""
    site = tmp_path / "popup"
    site.mkdir()
    (site / "index.html").write_text(INDEX.replace("Notes", "Orders"))
    (site / "app.js").write_text(POPUP_APP)
    context = browser.new_context()
    page = context.new_page()
    try:
        with start_app(site) as app:
            graph = crawl(page, app.url, time_limit=20)
    finally:
        context.close()
    assert any(s.headings[:1] == ["Reports"] for s in graph.states), [s.headings for s in graph.states]
    assert [e.action for e in graph.edges] == ['button "Reports"']


SLOW_CONTROLS_APP = """
const root = document.getElementById('root');
const notes = [];
let panel = 0;
function render() {
  let buttons = '';
  for (let i = 1; i <= 18; i++) buttons += '<button class="p" id="p' + i + '" data-i="' + i + '">Show panel ' + i + '</button> ';
  root.innerHTML = '<h1>Notes</h1>' + buttons + '<p>Panel ' + panel + '</p>' +
    '<form><label for="t">Title</label><input id="t"><button type="submit">Add note</button></form>' +
    '<ul>' + notes.map(n => '<li>' + n + '</li>').join('') + '</ul>';
  root.querySelectorAll('button.p').forEach(b => b.onclick = () => {
    const t = Date.now(); while (Date.now() - t < 700) {}  // a slow panel
    panel = b.dataset.i; render();
  });
  root.querySelector('form').onsubmit = (ev) => { ev.preventDefault(); notes.push(root.querySelector('#t').value); render(); };
}
render();
"""


def _explore_app(tmp_path, browser, app_js: str, query: str = "", **limits):
    """The exploration of a one-page app whose script is ``app_js``, opened with ``query``."""
    from webtester.baseline.explore import Explorer

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(INDEX)
    (site / "app.js").write_text(app_js)
    context = browser.new_context()
    page = context.new_page()
    try:
        with start_app(site) as app:
            return Explorer(page, app.url + query, accept_dialogs=False, **limits).run()
    finally:
        context.close()


def test_slow_controls_leave_the_form_battery_its_time(tmp_path, browser):
    """Eighteen slow controls would take the whole time limit: they stop after their share of it, and the form after
    them is still probed (its empty submission is accepted)."""
    exploration = _explore_app(tmp_path, browser, SLOW_CONTROLS_APP, time_limit=25)
    assert any(n.startswith("controls: stopped after its share") for n in exploration.notes), (exploration.notes, exploration.phases, exploration.steps, exploration.findings)
    assert "empty-form-accepted" in {f["probe"] for f in exploration.findings}, exploration.findings
    assert exploration.phases["controls"] < 15, exploration.phases


RULE_SETS_APP = """
const root = document.getElementById('root');
const bad = location.search.includes('bad=1');
const sets = [{name: 'Refund Request'}, {name: 'Escalation Process'}];
let view = 'list', current = null, dialog = false, error = '';
function render() {
  const nav = '<nav><button id="to-list">Rule Sets</button> <button id="to-editor">Editor</button></nav>';
  let body = '';
  if (view === 'list') {
    body = '<h1>Rule Sets</h1><button id="new">New Rule Set</button><ul>' +
      sets.map(s => '<li class="card"><h3>' + s.name + '</h3><p>0 steps</p></li>').join('') + '</ul>';
  } else {
    body = '<h1>Editor</h1><label for="n">Rule Set Name</label><input id="n" value="' + (current ? current.name : '') + '">' +
      '<p>No steps defined yet.</p>';
  }
  if (dialog) {
    body += '<div role="dialog" aria-label="Create New Rule Set"><h2>Create New Rule Set</h2>' +
      '<label for="name">Name</label><input id="name">' + (error ? '<p role="alert">' + error + '</p>' : '') +
      '<button id="cancel">Cancel</button> <button id="create">Create</button></div>';
  }
  root.innerHTML = nav + body;
  root.querySelector('#to-list').onclick = () => { view = 'list'; render(); };
  root.querySelector('#to-editor').onclick = () => { view = 'editor'; render(); };
  const open = root.querySelector('#new');
  if (open) open.onclick = () => { dialog = true; error = ''; render(); };
  if (dialog) {
    root.querySelector('#cancel').onclick = () => { dialog = false; render(); };
    root.querySelector('#create').onclick = () => {
      const name = root.querySelector('#name').value.trim();
      if (!name) { error = 'Name is required'; render(); return; }
      if (!bad && sets.some(s => s.name === name)) { error = 'A rule set with this name already exists'; render(); return; }
      current = {name}; sets.unshift(current); dialog = false; view = 'editor'; render();
    };
  }
}
render();
"""


@pytest.mark.parametrize("bad", [True, False])
def test_a_duplicate_is_looked_for_back_in_the_list_the_app_holds_in_memory(tmp_path, browser, bad):
    """Creating a rule set goes on to its editor and the list lives in memory only: the second equal submission is
    made without loading the page (back to the list through the app's own navigation), and the two entries are
    counted there; the app that refuses the second one is covered, not a finding."""
    # a generous limit: on a busy machine the battery still reaches its duplicate check (about 20 s when quiet)
    exploration = _explore_app(tmp_path, browser, RULE_SETS_APP, "?bad=1" if bad else "", time_limit=120, max_controls=3)
    found = [f for f in exploration.findings if f["probe"] == "duplicate-accepted"]
    checked = [c for c in exploration.covered if c["probe"] == "duplicate"]
    if bad:
        assert found and "2 entries with it are listed" in found[0]["message"], (exploration.findings, exploration.steps)
    else:
        assert not found and checked, (exploration.findings, exploration.covered, exploration.steps)
