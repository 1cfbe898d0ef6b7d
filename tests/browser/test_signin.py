"""Getting past a sign-in page in real Chromium: the demo account the page shows, an account created through the
app's own sign-up form, signing in again after a page load forgot the session, and the crawl and the probes
reaching what is behind the sign-in."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from webtester.baseline.crawl import crawl
from webtester.browser.launcher import start_app
from webtester.browser.session import ItemPage
from webtester.probes.session import ProbeSession
from webtester.probes.signin import Gate, sign_in

pytestmark = pytest.mark.browser

INDEX = """<!doctype html><html><head><title>App</title></head><body><div id="root"></div>
<script src="/app.js"></script></body></html>"""

# the session lives in memory only: every page load shows the sign-in form again
DEMO_APP = """
const root = document.getElementById('root');
let user = null;
function render() {
  if (!user) {
    root.innerHTML = '<form id="f"><h1>Sign in</h1><label for="e">Email</label><input id="e" type="email">' +
      '<label for="p">Password</label><input id="p" type="password"><button type="submit">Sign in</button>' +
      '<p>Demo account: demo@notes.app / secret42</p><p id="err"></p></form>';
    document.getElementById('f').onsubmit = ev => {
      ev.preventDefault();
      const e = document.getElementById('e').value, p = document.getElementById('p').value;
      if (e === 'demo@notes.app' && p === 'secret42') { user = e; render(); }
      else document.getElementById('err').textContent = 'Invalid email or password';
    };
    return;
  }
  if (location.hash === '#/settings') { root.innerHTML = '<h1>Settings</h1><a href="#/">Notes</a>'; return; }
  root.innerHTML = '<h1>My notes</h1><a href="#/settings">Settings</a><button id="n">New note</button>';
  document.getElementById('n').onclick = () => { root.insertAdjacentHTML('beforeend', '<div role="dialog"><h2>New note</h2></div>'); };
}
window.addEventListener('hashchange', render);
render();
"""

# no demo account: one has to be created first (kept in localStorage), then used on the sign-in form
SIGNUP_APP = """
const root = document.getElementById('root');
const accounts = () => JSON.parse(localStorage.getItem('accounts') || '{}');
function landing() {
  root.innerHTML = '<h1>Welcome to Budget</h1><button id="go">Log in</button>';
  document.getElementById('go').onclick = login;
}
function login(message) {
  root.innerHTML = '<form id="f"><h1>Log in</h1><p>' + (typeof message === 'string' ? message : '') + '</p>' +
    '<input id="e" type="email" placeholder="Email"><input id="p" type="password" placeholder="Password">' +
    '<button type="submit">Log in</button><button type="button" id="reg">Create an account</button><p id="err"></p></form>';
  document.getElementById('reg').onclick = register;
  document.getElementById('f').onsubmit = ev => {
    ev.preventDefault();
    const e = document.getElementById('e').value, p = document.getElementById('p').value;
    if (accounts()[e] === p) dashboard(e); else document.getElementById('err').textContent = 'Unknown account';
  };
}
function register() {
  root.innerHTML = '<form id="f"><h1>Create account</h1><input id="n" placeholder="Full name">' +
    '<input id="e" type="email" placeholder="Email"><input id="p" type="password" placeholder="Password">' +
    '<input id="c" type="password" placeholder="Confirm password"><label><input id="t" type="checkbox"> I agree</label>' +
    '<button type="submit">Sign up</button><p id="err"></p></form>';
  document.getElementById('f').onsubmit = ev => {
    ev.preventDefault();
    const v = id => document.getElementById(id).value;
    if (!v('n') || !v('e') || v('p').length < 8 || v('p') !== v('c') || !document.getElementById('t').checked) {
      document.getElementById('err').textContent = 'Please fill in every field'; return;
    }
    localStorage.setItem('accounts', JSON.stringify({...accounts(), [v('e')]: v('p')}));
    login('Account created, please log in');
  };
}
function dashboard(email) { root.innerHTML = '<h1>Dashboard</h1><p>Signed in as ' + email + '</p>'; }
landing();
"""

# the session lives in memory only, and a page load does not send the user back to the sign-in page: the header
# offers "Log in" again and the reply box is disabled until the user signs in
FORUM_APP = """
const root = document.getElementById('root');
let user = null, menu = false;
window.stickyMenu = false;  // a menu that Escape does not close
function render() {
  const header = '<header>' + (user ? 'Hi ' + user + ' <button id="acct">Account</button>' +
    (menu ? '<div role="menu">Profile</div>' : '') : '<button id="login">Log in</button>') + '</header>';
  document.body.style.pointerEvents = menu ? 'none' : '';  // an open menu takes every click, as Radix menus do
  if (location.hash === '#/login') {
    root.innerHTML = header + '<form id="f"><h1>Log in</h1><input id="e" type="email" placeholder="Email">' +
      '<input id="p" type="password" placeholder="Password"><button type="submit">Log in</button></form>';
    document.getElementById('f').onsubmit = ev => { ev.preventDefault(); user = document.getElementById('e').value; location.hash = '#/'; };
  } else if (location.hash === '#/thread') {
    root.innerHTML = header + '<h1>Thread</h1><textarea id="r" ' + (user ? 'placeholder="Write a reply"' :
      'disabled placeholder="You need to be logged in to reply"') + '></textarea>';
  } else {
    root.innerHTML = header + '<h1>Forum</h1><a href="#/thread">A thread</a>';
  }
  const login = document.getElementById('login');
  if (login) login.onclick = () => { location.hash = '#/login'; };
  const acct = document.getElementById('acct');
  if (acct) acct.onclick = () => { menu = true; render(); };
}
window.addEventListener('hashchange', render);  // the header's menu stays open across routes
document.addEventListener('keydown', ev => { if (ev.key === 'Escape' && !window.stickyMenu) { menu = false; render(); } });
render();
"""

# one route, a path router, a session in memory: the sign-in form until signed in, then a dashboard whose dialog
# stays open until closed; an unknown route logs a "not found" error naming it, as generated apps do
ONE_ROUTE_APP = """
const root = document.getElementById('root');
let user = null, dialog = false;
function render() {
  if (location.pathname !== '/') {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
    dialog = false;  // the dashboard is unmounted, its state gone
    root.innerHTML = '<h1>Not found</h1>'; return;
  }
  if (!user) {
    root.innerHTML = '<form id="f"><h1>Sign in</h1><input id="e" type="email" placeholder="Email">' +
      '<input id="p" type="password" placeholder="Password"><button type="submit">Sign in</button></form>';
    document.getElementById('f').onsubmit = ev => { ev.preventDefault(); user = document.getElementById('e').value; render(); };
    return;
  }
  root.innerHTML = '<h1>Workouts</h1><button id="open">Log workout</button>' + (dialog ? '<div role="dialog">Log a workout</div>' : '');
  document.getElementById('open').onclick = () => { dialog = true; render(); };
}
window.addEventListener('popstate', render);
render();
"""

PLAIN_APP = """document.getElementById('root').innerHTML = '<h1>Recipes</h1><button id="b">Sign up for news</button>';"""


# after signing in, an onboarding asks for a language (cards, "Continue" disabled until one is chosen) before the
# app itself; the choice lives in memory, so every sign-in asks again
ONBOARDING_APP = """
const root = document.getElementById('root');
function signIn() {
  root.innerHTML = '<form id="f"><h1>Sign in</h1><input id="e" type="email" placeholder="Email">' +
    '<input id="p" type="password" placeholder="Password"><button type="submit">Sign in</button>' +
    '<p>Demo: learner@lingo.app / hola123</p></form>';
  document.getElementById('f').onsubmit = ev => {
    ev.preventDefault();
    if (document.getElementById('e').value === 'learner@lingo.app' && document.getElementById('p').value === 'hola123') pick();
  };
}
function pick() {
  history.pushState({}, '', '/select-language');
  root.innerHTML = '<h1>Which language?</h1><div><div class="lang" style="cursor:pointer">Spanish</div>' +
    '<div class="lang" style="cursor:pointer">French</div></div><button id="go" disabled>Continue</button>';
  root.querySelectorAll('.lang').forEach(l => l.onclick = () => { document.getElementById('go').disabled = false; });
  document.getElementById('go').onclick = () => {
    history.pushState({}, '', '/dashboard');
    root.innerHTML = '<h1>Dashboard</h1><p>Lesson 1: Greetings</p>';
  };
}
signIn();
"""


def _serve(tmp_path, name: str, script: str):
    site = tmp_path / name
    site.mkdir()
    (site / "index.html").write_text(INDEX)
    (site / "app.js").write_text(script)
    return start_app(site)


@contextmanager
def _fresh_page(browser):
    """A page in a browser context of its own (empty storage), closed afterwards."""
    context = browser.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()


def _heading(page) -> str:
    return page.locator("h1").first.inner_text()


def test_the_demo_account_shown_is_used_and_a_forgotten_session_is_signed_in_again(tmp_path, browser):
    with _serve(tmp_path, "demo", DEMO_APP) as app, _fresh_page(browser) as page:
        page.goto(app.url)
        gate = Gate()
        step = gate.arrive(page, app.url)
        assert step == 'signed in as "demo@notes.app" with password "secret42" (the demo account the page shows)'
        assert _heading(page) == "My notes"

        page.goto(app.url + "#/settings")  # a page load: the in-memory session is gone
        page.reload()
        assert _heading(page) == "Sign in"
        assert gate.arrive(page, app.url + "#/settings") == step
        assert _heading(page) == "Settings"  # signed in, then on to the route that was asked for


def test_a_page_that_offers_to_sign_in_again_after_a_page_load_is_signed_in(tmp_path, browser):
    """The app forgot the session on a page load without sending the user to its sign-in page: its header offers
    "Log in" again and the thread's reply box is disabled. The gate signs in with the credentials that worked and
    goes on to the thread, whose reply box can then be used."""
    with _serve(tmp_path, "forum", FORUM_APP) as app, _fresh_page(browser) as page:
        page.goto(app.url)
        gate = Gate()
        step = gate.arrive(page, app.url)
        assert step is not None and "(any credentials)" in step
        page.goto(app.url + "#/thread")
        page.reload()
        assert page.locator("#r").is_disabled()
        assert gate.arrive(page, app.url + "#/thread") == step
        assert _heading(page) == "Thread" and page.locator("#r").is_enabled()
        page.goto(app.url + "#/thread")  # signed in already: nothing to do
        assert gate.arrive(page, app.url + "#/thread") is None and page.locator("#r").is_enabled()


def test_an_app_that_keeps_its_session_in_memory_is_opened_inside_without_signing_in_each_time(tmp_path, browser):
    """Once a page load signed the app out, later pages are opened inside the app (its router led to another
    route it has shown, then to the target): no page load, no sign-in, and the target's view is built afresh
    (a reply typed before is gone), also when the target is the route already shown."""
    with _serve(tmp_path, "forum", FORUM_APP) as app, _fresh_page(browser) as page:
        sess = ProbeSession.create(page, app.url, gate=Gate())
        sess.goto()
        assert sess.log.steps[-1].endswith("(any credentials)")
        assert not sess.gate.open_inside(page, app.url + "#/thread")  # no page load signed it out yet
        sess.goto(app.url + "#/thread")  # a page load: signed out, signed in again
        assert sess.gate.in_memory and len(sess.log.steps) == 2 and page.locator("#r").is_enabled()
        page.locator("#r").fill("a reply not sent")
        loads = []
        page.on("load", lambda _: loads.append(1))
        for _ in range(2):
            sess.goto(app.url + "#/thread")
            assert _heading(page) == "Thread" and page.locator("#r").is_enabled()
            assert page.locator("#r").input_value() == ""
        sess.goto()
        assert _heading(page) == "Forum" and "Hi " in page.locator("header").inner_text()
        assert loads == [] and len(sess.log.steps) == 2  # no page load, no sign-in step


def test_a_menu_left_open_is_closed_before_an_app_with_its_session_in_memory_is_opened_inside(tmp_path, browser):
    """The header's account menu, left open by a click, would stay open across the app's routes and take every
    click: it is closed (Escape) before the page is opened inside the app; a menu that Escape does not close makes
    the page load instead."""
    with _serve(tmp_path, "forum", FORUM_APP) as app, _fresh_page(browser) as page:
        sess = ProbeSession.create(page, app.url, gate=Gate())
        sess.goto()
        sess.goto(app.url + "#/thread")  # a page load: signed out, signed in again
        assert sess.gate.in_memory
        loads = []
        page.on("load", lambda _: loads.append(1))
        page.locator("#acct").click()
        sess.goto(app.url + "#/thread")
        assert page.locator("[role=menu]").count() == 0 and loads == []
        page.locator("#r").click(timeout=2000)  # takes clicks again
        page.locator("#acct").click()
        page.evaluate("() => { window.stickyMenu = true; }")
        sess.goto(app.url + "#/thread")
        assert loads and page.locator("[role=menu]").count() == 0  # loaded (and signed in) again
        assert _heading(page) == "Thread" and page.locator("#r").is_enabled()


def test_a_one_route_app_with_its_session_in_memory_is_rebuilt_through_a_route_no_app_has(tmp_path, browser):
    """With no other route shown, the router is led through :data:`NOWHERE_ROUTE`: the open dialog is gone, no
    page load, no sign-in, and the app's "not found" error about that route is not recorded."""
    with _serve(tmp_path, "one", ONE_ROUTE_APP) as app:
        item = ItemPage(browser, app.url)
        try:
            page = item.page
            sess = ProbeSession.create(page, app.url, gate=Gate())
            sess.goto()
            sess.goto()  # a page load: signed out, signed in again
            assert sess.gate.in_memory and len(sess.log.steps) == 2 and _heading(page) == "Workouts"
            page.locator("#open").click()
            assert page.locator("[role=dialog]").count() == 1
            loads = []
            page.on("load", lambda _: loads.append(1))
            sess.goto()
            assert _heading(page) == "Workouts" and page.locator("[role=dialog]").count() == 0
            assert loads == [] and len(sess.log.steps) == 2
            assert item.evidence.console_errors == []
            page.evaluate("console.error('404 Error: User attempted to access non-existent route:', '/other')")
            page.wait_for_timeout(100)
            assert len(item.evidence.console_errors) == 1  # the app's own errors are still recorded
        finally:
            item.close()


def test_an_app_whose_session_the_detour_takes_down_is_loaded_again_and_not_led_again(tmp_path, browser):
    """The session is held by the view itself (leaving the route signs out): the page is loaded and signed in
    as before, and later pages are loaded without trying the detour again."""
    script = ONE_ROUTE_APP.replace("dialog = false;  // the dashboard", "dialog = false; user = null;  // the dashboard")
    with _serve(tmp_path, "view", script) as app, _fresh_page(browser) as page:
        sess = ProbeSession.create(page, app.url, gate=Gate())
        sess.goto()
        sess.goto()
        assert sess.gate.in_memory and not sess.gate.detour_signs_out
        sess.goto()  # the detour signed it out: loaded and signed in again
        assert sess.gate.detour_signs_out and len(sess.log.steps) == 3 and _heading(page) == "Workouts"
        assert not sess.gate.open_inside(page, app.url) and _heading(page) == "Workouts"  # not tried again


def test_an_account_is_created_when_no_credentials_work_and_created_again_in_a_fresh_context(tmp_path, browser):
    with _serve(tmp_path, "signup", SIGNUP_APP) as app:
        gate = Gate()
        for _ in range(2):  # the second context has an empty localStorage: the account is created again
            with _fresh_page(browser) as page:
                page.goto(app.url)
                step = gate.arrive(page, app.url)
                assert step is not None and "(a new account)" in step
                assert _heading(page) == "Dashboard"
                assert page.evaluate("() => Object.keys(JSON.parse(localStorage.getItem('accounts')))") == ["tester@example.com"]


def test_an_app_without_sign_in_is_left_untouched(tmp_path, browser):
    with _serve(tmp_path, "plain", PLAIN_APP) as app, _fresh_page(browser) as page:
        page.goto(app.url)
        gate = Gate()
        assert gate.arrive(page, app.url) is None and gate.looked and gate.signin is None
        assert sign_in(page) is None and _heading(page) == "Recipes"


def test_the_crawl_and_the_probes_reach_what_is_behind_the_sign_in(tmp_path, browser):
    with _serve(tmp_path, "crawl", DEMO_APP) as app:
        gate = Gate()
        with _fresh_page(browser) as page:
            graph = crawl(page, app.url, time_limit=20, gate=gate)
        headings = {h for s in graph.states for h in s.headings}
        assert {"My notes", "Settings", "New note"} <= headings
        signin = [s for s in graph.states if s.headings == ["Sign in"]]  # recorded once: its words are the app's
        assert len(signin) == 1 and "Demo account" in signin[0].text

        with _fresh_page(browser) as page:
            sess = ProbeSession.create(page, app.url, gate=gate)
            sess.goto(app.url + "#/settings")
            assert _heading(page) == "Settings"
            assert sess.log.steps[-1].startswith('signed in as "demo@notes.app"')


def test_an_onboarding_right_after_signing_in_is_gone_through_and_the_app_behind_it_is_home(tmp_path, browser):
    """After signing in, the app asks for a language before anything else: a language is chosen, "Continue"
    pressed, and the page it leads to is where the exploration starts; a later sign-in goes through it again."""
    with _serve(tmp_path, "onboarding", ONBOARDING_APP) as app:
        gate = Gate()
        for _ in range(2):
            with _fresh_page(browser) as page:
                page.goto(app.url)
                assert gate.arrive(page, app.url) is not None
                assert _heading(page) == "Dashboard"
        assert gate.home is not None and gate.home.endswith("/dashboard")
