"""Getting past a sign-in page in real Chromium: the demo account the page shows, an account created through the
app's own sign-up form, signing in again after a page load forgot the session, and the crawl and the probes
reaching what is behind the sign-in."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from webtester.baseline.crawl import crawl
from webtester.browser.launcher import start_app
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

PLAIN_APP = """document.getElementById('root').innerHTML = '<h1>Recipes</h1><button id="b">Sign up for news</button>';"""


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
