"""Getting past a sign-in page, as a tester given no account would: with the demo account the page shows, else
with any credentials (many generated apps accept any), else by creating an account through the app's own
sign-up form and signing in with it.

An app behind a sign-in form shows nothing else to a crawl that never signs in: its features all look absent
and its forms are never reached. :func:`sign_in` signs in once (also when the start page only links to a
sign-in page) and returns the credentials that worked; :func:`sign_in_again` uses them when a later navigation
lands on the sign-in form again, or on a page that offers to sign in again (an app that keeps the session in
memory forgets it on every page load), and then goes on to the route that was asked for inside the app, as its
own links would. Once a page load has signed such an app out, :meth:`Gate.open_inside` opens later pages inside
the app instead of loading them, so that each one does not cost a sign-in.

Every step is bounded: at most :data:`ATTEMPTS` credential pairs and one sign-up, each waiting at most
:data:`WAIT_MS` for the form to go away.
"""

from __future__ import annotations

import re
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import urlsplit

from webtester.browser.session import ACTION_TIMEOUT_MS, NOWHERE_ROUTE
from webtester.browser.watchdog import dismiss, evaluate
from webtester.probes.journal import _BODY_TEXT_JS
from webtester.probes.steps import take_choice_steps

__all__ = ["Gate", "SignIn", "credential_candidates", "sign_in", "sign_in_again", "signin_form_shown"]

ATTEMPTS = 3
WAIT_MS = 3000  # an app that "calls its server" may take a moment before it lets the user in
ANY_EMAIL = "tester@example.com"
ANY_PASSWORD = "Passw0rd!23"
NEW_NAME = "Test User"
NEW_USERNAME = "tester"
NEW_ACCOUNT = "a new account"

EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
DEMO_WORDS = re.compile(r"\b(demo|test|sample|example|try|default|credentials?)\b", re.IGNORECASE)
DEMO_PAIR = re.compile(rf"({EMAIL}|\b[A-Za-z][\w.-]{{2,}})\s*(?:/|\|)\s*([^\s/|,;()@]{{3,}})(?![\w@])")
LABELLED = re.compile(rf"(?:e-?mail|user(?:name)?|login)\s*:\s*({EMAIL}|[\w.-]{{3,}})[\s\S]{{0,80}}?password\s*:\s*(\S{{3,}})",
                      re.IGNORECASE)
OPENS_SIGNIN = re.compile(r"^\s*(sign ?in|log ?in|login)\b", re.IGNORECASE)
OPENS_SIGNUP = re.compile(r"\b(sign ?up|register|create (?:an |your |new )?account|get started|join)\b", re.IGNORECASE)
NOT_A_PASSWORD = {"password", "username", "email", "sign", "login"}

FORM_JS = r"""(mark) => {
  const vis = e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
                     return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const pw = [...document.querySelectorAll('input[type=password]')].filter(vis);
  if (!pw.length) return null;
  const box = pw[0].closest('form') || pw[0].closest('[role=dialog]') || document.body;
  const shape = {passwords: pw.length, inputs: [...box.querySelectorAll('input, textarea')].filter(vis).length};
  if (!mark) return shape;
  document.querySelectorAll('[data-wt-s]').forEach(e => e.removeAttribute('data-wt-s'));
  const hint = e => [e.name, e.id, e.placeholder, e.getAttribute('aria-label'), e.autocomplete,
                     ...[...(e.labels || [])].map(l => l.innerText)].filter(Boolean).join(' ').toLowerCase();
  const skip = ['hidden', 'submit', 'button', 'checkbox', 'radio', 'file', 'range', 'color'];
  const fields = [...box.querySelectorAll('input, textarea')].filter(vis).filter(e => !skip.includes(e.type))
    .map((e, i) => { e.setAttribute('data-wt-s', 'f' + i); return {key: 'f' + i, type: e.type || 'text', hint: hint(e)}; });
  const checks = [...box.querySelectorAll('input[type=checkbox], button[role=checkbox]')].filter(vis)
    .filter(e => !(e.checked || e.getAttribute('aria-checked') === 'true'))
    .map((e, i) => { e.setAttribute('data-wt-s', 'c' + i); return 'c' + i; });
  const buttons = [...box.querySelectorAll('button, input[type=submit]')].filter(vis);
  const submit = buttons.find(b => (b.type || '').toLowerCase() === 'submit')
    || buttons.find(b => /sign|log|continue|create|register|submit|enter|unlock/i.test(b.innerText || b.value || ''));
  if (submit) submit.setAttribute('data-wt-s', 'submit');
  return {shape, fields, checks, submit: submit ? (submit.innerText || submit.value || '').trim() : null};
}"""
OPENERS_JS = r"""(pattern) => {
  const vis = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const re = new RegExp(pattern, 'i');
  document.querySelectorAll('[data-wt-o]').forEach(e => e.removeAttribute('data-wt-o'));
  const hits = [...document.querySelectorAll('a, button, [role=tab], [role=button], [role=link]')]
    .filter(vis).filter(e => re.test((e.innerText || e.getAttribute('aria-label') || '').trim()));
  hits.forEach((e, i) => e.setAttribute('data-wt-o', String(i)));
  return hits.map(e => (e.innerText || e.getAttribute('aria-label') || '').trim().slice(0, 60));
}"""
Seen = Callable[[], object]

#: a menu, dialog or option list is open (or the page takes no clicks while one is): it would stay open when the
#: app's router leads to another route, where a page load closes it
OPEN_LAYER_JS = r"""() => getComputedStyle(document.body).pointerEvents === 'none' ||
  [...document.querySelectorAll('[role=menu], [role=dialog], [role=alertdialog], [role=listbox], [aria-modal=true]')]
    .some(e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')"""

#: lead the app's router to ``path?query#fragment`` (``[route, hashRoutes]``): a hash router (or a route that only
#: changes the hash) by its hash, any other by the history it listens to
CLIENT_ROUTE_JS = r"""([route, hashRoutes]) => {
  const [path, hash] = route.split('#');
  if (hashRoutes) { location.hash = hash || '/'; return; }
  history.pushState({}, '', path + (hash ? '#' + hash : ''));
  dispatchEvent(new PopStateEvent('popstate'));
  window.scrollTo(0, 0);
}"""


@dataclass(frozen=True)
class SignIn:
    """Credentials that got past the app's sign-in form, and where they came from."""

    identifier: str
    password: str
    source: str  # "the demo account the page shows", "any credentials", "a new account"
    username: str = ""  # a new account's user name, for forms that ask for one beside the e-mail address

    def describe(self) -> str:
        return f'signed in as "{self.identifier}" with password "{self.password}" ({self.source})'


@dataclass
class Gate:
    """What one run knows about the app's sign-in, shared by the pages it opens one after another: nothing yet,
    no sign-in asked for (or none got past it: not tried again), or the credentials that worked."""

    looked: bool = False
    signin: SignIn | None = None
    home: str | None = None  # where the app went after signing in, when the start page was its sign-in form
    in_memory: bool = False  # a page load signed the app out: it keeps its session in memory
    detour_signs_out: bool = False  # leading its router to another route signed it out (see open_inside)
    _entered: weakref.WeakSet = field(default_factory=weakref.WeakSet, repr=False)
    _routes: list[str] = field(default_factory=list, repr=False)  # the app's routes opened, as path?query#fragment

    def arrive(self, page: Any, target_url: str, *, settle: Any = None, seen: Seen | None = None) -> str | None:
        """After ``page`` opened ``target_url``: on the page's first arrival :meth:`enter`, later :meth:`resume`.
        What was done, as a step of the evidence ("signed in as ..."), or None when it did not sign in.
        ``seen`` is called while a sign-in or sign-up form is shown, before it is filled (a crawl records it:
        what the sign-in page shows is part of the app)."""
        route = _route(target_url)
        if route not in self._routes:
            self._routes.append(route)
        if page not in self._entered:
            self._entered.add(page)
            signin = self.enter(page, settle=settle, seen=seen)
        elif self.resume(page, target_url, settle=settle):
            self.in_memory, signin = True, self.signin
        else:
            signin = None
        return signin.describe() if signin is not None else None

    def open_inside(self, page: Any, target_url: str, *, settle: Any = None) -> bool:
        """Open ``target_url`` inside the app, without a page load, when the app keeps its session in memory (a
        page load signed it out before) and ``page`` is signed in on it: a page load would cost a sign-in every
        time. The app's router is led first to another route it has shown (else to :data:`NOWHERE_ROUTE`, whose
        "not found" the browser session does not record), then to the target, so the target's views are built
        afresh as after a load.
        A menu or dialog left open is closed first (Escape): the router would keep it open, where a load closes it.
        Whether the page shows the target, signed in (no sign-in form, no control offering to sign in) and with no
        menu or dialog open; when not,
        the caller loads the page (and :meth:`arrive`). An app that the detour itself signs out (its session held
        by the view the detour takes down) is not led again."""
        if not self.in_memory or self.detour_signs_out or page not in self._entered:
            return False
        now, wanted = urlsplit(page.url), urlsplit(target_url)
        if (now.scheme, now.netloc) != (wanted.scheme, wanted.netloc) or not _signed_in(page):
            return False
        target, current = _route(target_url), _route(page.url)
        hash_routes = wanted.fragment.startswith("/") or now.fragment.startswith("/")
        via = next((r for r in self._routes if r not in (target, current)),
                   f"/#{NOWHERE_ROUTE}" if hash_routes else NOWHERE_ROUTE)
        settle = settle or _pause(page)
        try:
            if evaluate(page, OPEN_LAYER_JS):
                dismiss(page)
                settle()
            for route in (via, target):
                evaluate(page, CLIENT_ROUTE_JS, [route, hash_routes])
                settle()
            shown = _route(page.url) == target and bool(_text(page).strip()) and not evaluate(page, OPEN_LAYER_JS)
        except Exception:
            return False
        if not _signed_in(page):
            self.detour_signs_out = True
            return False
        if shown and target not in self._routes:
            self._routes.append(target)
        return shown

    def enter(self, page: Any, *, settle: Any = None, seen: Seen | None = None) -> SignIn | None:
        """Sign in on ``page`` (just opened at the app's start): the first time by :func:`sign_in`, later with
        the credentials that worked. The credentials used, or None."""
        if not self.looked:
            self.looked = True
            start, on_form = page.url, signin_form_shown(page)
            self.signin = sign_in(page, settle=settle, seen=seen)
            if self.signin is None:
                return None
            signed_in_at = page.url
            if _onboard(page, settle) and page.url != signed_in_at:
                self.home = page.url
            elif on_form and page.url != start:
                self.home = page.url
            return self.signin
        if self.signin is not None and sign_in(page, settle=settle, known=self.signin, seen=seen) is not None:
            _onboard(page, settle)  # an account created again (a fresh browser context) is onboarded again
            return self.signin
        return None

    def resume(self, page: Any, target_url: str, *, settle: Any = None) -> bool:
        """After a navigation: sign in again when the page shows the sign-in form (see :func:`sign_in_again`)."""
        return self.signin is not None and sign_in_again(page, self.signin, target_url, settle=settle)


def _onboard(page: Any, settle: Any = None) -> bool:
    """Go through an onboarding shown right after signing in or up ("pick your language", then Continue: the app
    is behind it); whether there was one."""
    return bool(take_choice_steps(page, settle=settle or _pause(page)))


def signin_form_shown(page: Any) -> bool:
    """Whether the page shows a password field (a sign-in or sign-up form)."""
    try:
        return bool(evaluate(page, FORM_JS, False))
    except Exception:
        return False


def credential_candidates(text: str) -> list[SignIn]:
    """Credentials to try on a sign-in form, best first: demo accounts the page's text shows (``alex@x.com /
    demo123``, ``Email: a@b.c Password: pw``, or only demo e-mail addresses), then any credentials."""
    found: list[SignIn] = []

    def add(identifier: str, password: str, source: str) -> None:
        if all(c.identifier != identifier for c in found):
            found.append(SignIn(identifier, password, source))

    for m in LABELLED.finditer(text):
        add(m.group(1), m.group(2).rstrip(".,"), "the demo account the page shows")
    for word in DEMO_WORDS.finditer(text):
        window = text[word.start(): word.start() + 400]
        for m in DEMO_PAIR.finditer(window):
            identifier, password = m.group(1), m.group(2).rstrip(".,")
            if password.lower() in NOT_A_PASSWORD or identifier.lower() in NOT_A_PASSWORD | {"in", "out", "up"}:
                continue
            add(identifier, password, "the demo account the page shows")
        for email in re.findall(EMAIL, window)[:1]:  # one guess: other demo accounts share the unknown password
            add(email, "password123", "a demo e-mail the page shows (its password guessed)")
    add(ANY_EMAIL, ANY_PASSWORD, "any credentials")
    return found


def sign_in(page: Any, *, settle: Any = None, known: SignIn | None = None, seen: Seen | None = None) -> SignIn | None:
    """Sign in when the page shows a sign-in form or a control that opens one; the credentials that worked, or
    None (no sign-in asked for, or none of the attempts got past it). ``known``: try only these credentials."""
    settle = settle or _pause(page)
    if not _signin_form_reached(page, settle):
        return None
    if seen is not None:
        seen()
    if known is not None and known.source == NEW_ACCOUNT:
        return _sign_up(page, settle, seen)  # a fresh browser context knows no account: create it again
    if known is not None:
        return known if _submit(page, known, settle) else None
    text = _text(page)
    for candidate in credential_candidates(text)[:ATTEMPTS]:
        if _submit(page, candidate, settle):
            return candidate
    return _sign_up(page, settle, seen)


def sign_in_again(page: Any, signin: SignIn, target_url: str, *, settle: Any = None) -> bool:
    """When a navigation to ``target_url`` landed on the sign-in form, or on a page that offers to sign in again
    (an app that forgot the session without sending the user to its sign-in page: "Log in" in its header, "Log in
    to reply" under a post): sign in with ``signin`` and go on to the target's route inside the app (a
    client-side navigation, which keeps a session held in memory). Whether it signed in."""
    settle = settle or _pause(page)
    if not _signin_form_reached(page, settle) or not _submit(page, signin, settle):
        return False
    wanted = urlsplit(target_url)
    now = urlsplit(page.url)
    if (now.path, now.fragment) != (wanted.path, wanted.fragment):
        try:  # a hash route changes with the hash; a path route with the history the app's router listens to
            evaluate(page, CLIENT_ROUTE_JS, [_route(target_url), now.path == wanted.path and bool(wanted.fragment)])
        except Exception:
            pass
        settle()
    return True


def _signed_in(page: Any) -> bool:
    """Neither a sign-in form nor a control offering to sign in is shown."""
    try:
        offers = evaluate(page, OPENERS_JS, OPENS_SIGNIN.pattern)
    except Exception:
        return False
    return not offers and not signin_form_shown(page)


def _route(url: str) -> str:
    """``url``'s place in the app: its path and query, and its fragment unless that is the root of a hash router."""
    parts = urlsplit(url)
    place = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return place + (f"#{parts.fragment}" if parts.fragment not in ("", "/") else "")


def _signin_form_reached(page: Any, settle: Any) -> bool:
    """Whether the page shows a sign-in form, as it is or once its own "Sign in" / "Log in" control is clicked."""
    return signin_form_shown(page) or (_click_opener(page, OPENS_SIGNIN.pattern, settle) and signin_form_shown(page))


def _pause(page: Any) -> Any:
    def pause() -> None:
        try:
            page.wait_for_load_state("load", timeout=3000)
        except Exception:
            pass
        page.wait_for_timeout(300)

    return pause


def _text(page: Any) -> str:
    try:
        return str(evaluate(page, _BODY_TEXT_JS) or "")
    except Exception:
        return ""


def _click_opener(page: Any, pattern: str, settle: Any) -> bool:
    """Click the first visible control whose text matches ``pattern``; whether one was clicked."""
    try:
        names = evaluate(page, OPENERS_JS, pattern)
        if not names:
            return False
        page.locator('[data-wt-o="0"]').first.click(timeout=ACTION_TIMEOUT_MS)
    except Exception:
        return False
    settle()
    return True


def _value(field: dict[str, Any], signin: SignIn) -> str:
    hint, kind, identifier = field["hint"], field["type"], signin.identifier
    if kind == "password":
        return signin.password
    if kind == "email" or "mail" in hint:
        return identifier if "@" in identifier else f"{identifier}@example.com"
    if re.search(r"user|login|account|identifier", hint):
        return signin.username or identifier
    if "name" in hint:
        return NEW_NAME
    if kind == "tel" or "phone" in hint:
        return "5551234567"
    if kind == "number":
        return "1"
    return "Test"


def _submit(page: Any, signin: SignIn, settle: Any) -> bool:
    """Fill the shown password form with ``signin`` and submit it; whether the form went away."""
    try:
        form = evaluate(page, FORM_JS, True)
        if not form:
            return True
        shape = form["shape"]
        for field in form["fields"]:
            page.locator(f'[data-wt-s="{field["key"]}"]').first.fill(_value(field, signin), timeout=ACTION_TIMEOUT_MS)
        for key in form["checks"]:
            page.locator(f'[data-wt-s="{key}"]').first.click(timeout=ACTION_TIMEOUT_MS)
        if form["submit"] is not None:
            page.locator('[data-wt-s="submit"]').first.click(timeout=ACTION_TIMEOUT_MS)
        else:
            page.locator('[data-wt-s="f0"]').first.press("Enter", timeout=ACTION_TIMEOUT_MS)
    except Exception:
        return False
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        settle()
        try:
            now = evaluate(page, FORM_JS, False)
        except Exception:
            now = shape
        if not now:
            return True
        if now != shape:
            return False  # another password form took its place (e.g. the sign-in form after a sign-up)
        page.wait_for_timeout(250)
    return False


def _sign_up(page: Any, settle: Any, seen: Seen | None) -> SignIn | None:
    """Create an account through the app's sign-up form, then sign in with it if the app asks."""
    if not _click_opener(page, OPENS_SIGNUP.pattern, settle) or not signin_form_shown(page):
        return None
    if seen is not None:
        seen()
    account = SignIn(ANY_EMAIL, ANY_PASSWORD, NEW_ACCOUNT, username=NEW_USERNAME)
    if _submit(page, account, settle):
        return account
    # some apps go on to their sign-in form after sign-up, others show it again behind its own tab or link
    if _submit(page, account, settle):
        return account
    if _click_opener(page, OPENS_SIGNIN.pattern, settle) and _submit(page, account, settle):
        return account
    return None
