"""The baseline's bounded exploration of an app: visit the reachable pages, try deleting a listed entry, click the
controls, confirm the crawl's blank views and register its forms, run the list probes on the main list and the form
battery on every distinct form, with the static probes on every state seen. Bounded by an action budget
(deterministic) and a time limit (a safety net, noted when it is hit); the phases before the form batteries, which
find most defects, each take at most a share of the time left (:data:`PHASE_SHARES`)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

from playwright.sync_api import Page

from webtester.baseline.crawl import NAME_LIMIT, CrawlEdge, CrawlState, StateGraph
from webtester.browser.watchdog import evaluate
from webtester.probes.content import count_badges, mixed_currency
from webtester.probes.controls import probe_controls, probe_vote
from webtester.probes.deletion import probe_delete_confirmation
from webtester.probes.editing import probe_listed_edit
from webtester.probes.forms import CHANGING, CREATING, STEP_WORDS, probe_form
from webtester.probes.lists import ListProbe, search_fields
from webtester.probes.pagemodel import FormModel, PageModel, read_model
from webtester.probes.scan import (
    PLACEHOLDER,
    PLACEHOLDER_WORDS,
    SELECTOR_JS,
    broken_images,
    checked_image_count,
    placeholder_text,
    reported_errors,
    viewport_overflow,
)
from webtester.probes.session import BeforeAction, BudgetExceeded, ProbeSession, TimeUp
from webtester.probes.signin import Gate
from webtester.probes.steps import take_choice_steps

CURRENCY_WORDS = {"$": r"US dollars?|USD|\bdollars?\b|\$\d", "€": r"\beuros?\b|€|\bEUR\b", "£": r"\bpounds?\b|£|\bGBP\b"}
#: how far past its time limit the recording of the steps may take the exploration (the limit itself leaves it out)
RECORDING_GRACE_SECONDS = 3.0
MAX_NAV_CONTROLS = 4  # the app's navigation controls tried to get back to a form's view without loading the page

#: the app's own way between its views: visible buttons, tabs and same-origin links of a nav bar, a header or a tab
#: list (not in a dialog or form, not signing out or deleting), which switch the view without loading the page
_NAV_CONTROLS_JS = r"""(limit) => {
  const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const out = [];
  const found = document.querySelectorAll('nav a[href], nav button, header a[href], header button, [role=navigation] a[href], ' +
                                          '[role=navigation] button, [role=tablist] [role=tab]');
  for (const el of found) {
    if (!vis(el) || el.disabled || el.closest('[role=dialog], [role=alertdialog], form')) continue;
    if (el.tagName === 'A') { try { if (new URL(el.href).origin !== location.origin) continue; } catch (e) { continue; } }
    const text = (el.innerText || el.getAttribute('aria-label') || '').trim();
    if (!text || text.length > 40 || /log ?out|sign ?out|delete|remove|reset|clear/i.test(text)) continue;
    out.push(window.__wtSelector(el));
    if (out.length >= limit) break;
  }
  return out;
}"""
#: the share of the time left that each phase may take before the next one starts (the last ones take what is left)
PHASE_SHARES = {"deletion": 0.25, "controls": 0.4, "crawled views": 0.5, "lists": 0.3}
MULTI_CURRENCY = re.compile(r"\b(pick|choose|select|switch)\w*\b[^.]{0,40}\bcurrenc", re.IGNORECASE)


@dataclass
class Exploration:
    """What the exploration found and exercised (JSON-ready via :meth:`to_dict`)."""

    findings: list[dict] = field(default_factory=list)
    covered: list[dict] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)
    forms: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    actions: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    recording_seconds: float = 0.0  # of ``seconds``, spent recording the steps (not counted against the time limit)
    trace: str | None = None  # the Playwright trace of the exploration's page, relative to the run folder
    phases: dict[str, float] = field(default_factory=dict)  # seconds each phase took (pages, lists, controls, forms, ...)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Exploration":
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


def expected_currency(instruction: str) -> str | None:
    """The one currency the instruction names, or None (none named, several, or a currency to choose)."""
    if MULTI_CURRENCY.search(instruction):
        return None
    named = [sym for sym, pattern in CURRENCY_WORDS.items() if re.search(pattern, instruction, re.IGNORECASE)]
    return named[0] if len(named) == 1 else None


@dataclass
class _FormSpot:
    name: str
    url: str
    openers: tuple[str, ...]  # the controls clicked, in order, on ``url`` to show the form (none: it is on the page)
    signature: str
    more_urls: list[str] = field(default_factory=list)  # other pages showing the same form
    shapes: frozenset[str] = frozenset()  # see :func:`_shapes`


class Explorer:
    """One exploration run (see the module docstring)."""

    def __init__(self, page: Page, start_url: str, *, instruction: str = "", screenshot_dir: Path | None = None,
                 relative_to: Path | None = None, accept_dialogs: bool = True, max_actions: int = 260,
                 time_limit: float | None = 420.0, max_pages: int = 6, max_forms: int = 5, max_controls: int = 18,
                 max_scans: int = 14, graph: StateGraph | None = None, gate: Gate | None = None) -> None:
        deadline = time.monotonic() + time_limit if time_limit else None
        wall_deadline = deadline + RECORDING_GRACE_SECONDS if deadline is not None else None
        self.sess = ProbeSession.create(page, start_url, screenshot_dir=screenshot_dir, relative_to=relative_to,
                                        accept_dialogs=accept_dialogs, max_actions=max_actions, deadline=deadline,
                                        wall_deadline=wall_deadline, gate=gate)
        self.page = page
        self.start_url = start_url
        self.instruction = instruction
        self.currency = expected_currency(instruction)
        self.multi_currency = bool(MULTI_CURRENCY.search(instruction))
        self.max_pages, self.max_forms, self.max_controls, self.max_scans = max_pages, max_forms, max_controls, max_scans
        self.forms: list[_FormSpot] = []
        self.pages: list[str] = []
        self.scans = 0
        self.graph = graph
        self.result = Exploration()

    # -- static probes on the current state

    def scan(self, where: str) -> None:
        if self.scans >= self.max_scans:
            return
        self.scans += 1
        page, shots = self.page, self.sess.shots
        images = checked_image_count(page)  # third-party images this environment cannot reach are not checked
        for finding in broken_images(page, shots):
            self.sess.keep(finding)
        if images:
            self.sess.ok("images", where, f"{images} images checked")
        journal = self.sess.journal
        for finding in placeholder_text(page, shots):
            shown = PLACEHOLDER.search(finding.message)
            self.sess.keep(finding, [journal.expect("expect_no_text", "failed", value=shown.group(0))] if shown else None)
        self.sess.ok("placeholder", where, "no placeholder-like text", expect=list(journal.absent(list(PLACEHOLDER_WORDS))))
        if self.scans == 1:
            for finding in viewport_overflow(page, shots):
                self.sess.keep(finding)
            self.sess.ok("layout", where, "checked for horizontal overflow")
        badges, compared = count_badges(page, shots)
        for finding in badges:
            self.sess.keep(finding)
        if compared and not badges:
            self.sess.ok("count", f"count badges on {where}", f"{compared} list header counts match their lists")
        if not self.multi_currency:
            hits = mixed_currency(page, shots, self.currency)
            for finding in hits:
                self.sess.keep(finding)
            if not hits:
                others = [c for c in CURRENCY_WORDS if self.currency and c != self.currency]
                self.sess.ok("currency", where, f"amounts checked (expected {self.currency or 'one currency'})",
                             expect=list(journal.absent(others)))

    # -- forms

    def _register_forms(self, model: PageModel, url: str, openers: tuple[str, ...] = ()) -> None:
        for form in model.forms:
            if not form.visible or not form.submit or form.role == "search" or any(f.type == "search" for f in form.fields):
                continue
            shapes = _shapes(form)
            same = next((s for s in self.forms if s.shapes & shapes), None)
            if same is not None:
                if same.signature == form.signature and not openers and not same.openers and url != same.url \
                        and url not in same.more_urls:
                    same.more_urls.append(url)
                continue
            if len(self.forms) >= self.max_forms:
                return
            self.forms.append(_FormSpot(form.name or form.submit_text or "form", url, openers, form.signature,
                                        shapes=shapes))

    def _reopen(self, spot: _FormSpot):
        def reopen() -> FormModel | None:
            # a form that is gone from its page (e.g. one review per book, already written) is looked for on
            # the other pages that showed it
            for url in [spot.url, *spot.more_urls]:
                self.sess.goto(url)
                if not self._click_all(spot.openers):
                    continue
                form = self._shown(spot)
                if form is not None:
                    return form
            return None

        return reopen

    def _shown(self, spot: _FormSpot) -> FormModel | None:
        """The form of ``spot`` as the page shows it now (None when it is not visible)."""
        return next((f for f in read_model(self.page).forms if f.signature == spot.signature and f.visible), None)

    def _reopen_here(self, spot: _FormSpot):
        def reopen_here() -> FormModel | None:
            # the form where it is now, or opened again from this page: nothing the app holds in memory is lost
            form = self._shown(spot) or self._opened_here(spot)
            if form is not None:
                return form
            # the app went on to another view (the new entry's editor): back through its own navigation
            for control in self._nav_controls():
                if self._click_all((control,)) and (form := self._shown(spot) or self._opened_here(spot)) is not None:
                    return form
            return None

        return reopen_here

    def _opened_here(self, spot: _FormSpot) -> FormModel | None:
        """The form of ``spot`` opened from the page as it is: its last opener (a tab the app still shows), else
        all of them."""
        if not spot.openers:
            return None
        if self._click_all(spot.openers[-1:]) and (form := self._shown(spot)) is not None:
            return form
        return self._shown(spot) if len(spot.openers) > 1 and self._click_all(spot.openers) else None

    def _nav_controls(self) -> list[str]:
        """Selectors of the app's navigation controls shown now (see ``_NAV_CONTROLS_JS``)."""
        evaluate(self.page, SELECTOR_JS)
        return list(evaluate(self.page, _NAV_CONTROLS_JS, MAX_NAV_CONTROLS) or [])

    # -- the run

    def run(self, evidence: Any = None) -> Exploration:
        started = time.monotonic()
        res = self.result
        try:
            self._explore()
        except BudgetExceeded as exc:
            res.stopped = str(exc)
            res.notes.append(f"exploration stopped early: {exc}; later probes did not run")
        except Exception as exc:  # a probe that breaks must not lose what the others found
            res.stopped = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
            res.notes.append(f"exploration stopped by an error: {res.stopped}")
        log = self.sess.log
        if evidence is not None:
            for finding in reported_errors(self.start_url, list(evidence.console_errors), list(evidence.page_errors),
                                           list(evidence.failed_requests)):
                log.found(finding)
            log.ok("errors", "browser console", "console errors, page errors and failed requests were collected")
        res.findings = [f.to_dict() for f in log.findings]
        res.covered = [c.to_dict() for c in log.covered]
        res.steps = list(log.steps)
        res.pages = list(self.pages)
        res.forms = [f"{s.name} ({s.url}{', opened by ' + ', then '.join(s.openers) if s.openers else ''})" for s in self.forms]
        res.actions = self.sess.actions
        res.seconds = round(time.monotonic() - started, 2)
        res.recording_seconds = round(self.sess.journal.seconds, 2)
        return res

    @contextmanager
    def _phase(self, name: str, share: float | None = None) -> Iterator[None]:
        """Add the wall time of the block to the phase ``name`` of the result (also when the block stops it).

        With a ``share``, the block gets that share of the time left: when it is used up the block stops, a note
        says so, and the exploration goes on with the next phase (the whole time limit still stops everything)."""
        started = time.monotonic()
        sess = self.sess
        whole = sess.deadline
        if share is not None and whole is not None:
            now = time.monotonic() - sess.journal.seconds  # the deadline's clock leaves out the recording time
            sess.deadline = now + share * max(0.0, whole - now)
        try:
            yield
        except TimeUp:
            if whole is None or sess.deadline == whole or time.monotonic() - sess.journal.seconds > whole:
                raise
            self.result.notes.append(f"{name}: stopped after its share of the time ({share:.0%} of what was left)")
        finally:
            sess.deadline = whole
            phases = self.result.phases
            phases[name] = round(phases.get(name, 0.0) + time.monotonic() - started, 2)

    def _explore(self) -> None:
        sess = self.sess
        with self._phase("start page"):
            sess.goto()
            start = read_model(self.page)
            self.pages.append(self.page.url)
            self.scan("start page")
            self._register_forms(start, self.start_url)

        searched: list[str] = []  # other pages with a list and a search box
        listed: list[str] = [self.start_url]  # pages with a list
        with self._phase("pages"):
            for url in self._page_links(start):
                sess.goto(url)
                self.pages.append(url)
                sess.step(f"visited {url}")
                self.scan(url)
                model = read_model(self.page)
                self._register_forms(model, url)
                if model.list_sel and model.search_boxes():
                    searched.append(url)
                if model.list_sel:
                    listed.append(url)

        with self._phase("deletion", PHASE_SHARES["deletion"]):
            sess.goto()
            probe_delete_confirmation(sess, list(dict.fromkeys([self.start_url, *self.pages]))[:4])

        # the form batteries find most defects: each phase before them may take only a share of the time left
        def on_change(opener: str, after: dict) -> None:
            self.scan(f"after clicking {opener}")
            if after.get("url", "").split("#")[0] == self.start_url.split("#")[0] and urldefrag(after["url"])[1] == urldefrag(self.start_url)[1]:
                self._register_forms(read_model(self.page), self.start_url, (opener,))

        with self._phase("controls", PHASE_SHARES["controls"]):
            sess.goto()
            probe_controls(sess, max_controls=self.max_controls, on_change=on_change, known=self.pages)
        with self._phase("crawled views", PHASE_SHARES["crawled views"]):
            self._crawled_blanks()
            self._crawled_forms()
            self._choice_step_forms()

        # the list probes may take a share of the time only when a form battery is waiting for the rest
        with self._phase("lists", PHASE_SHARES["lists"] if self.forms else None):
            sess.goto()
            probed = [self._lists(read_model(self.page))]
            for url in searched[:2]:  # a search often has its own route (unless it lists what was probed already)
                sess.goto(url)
                probed.append(self._lists(read_model(self.page), probed))

        with self._phase("forms"):
            for spot in battery_order(self.forms):
                sess.step(f"form battery: {spot.name}")
                probe_form(sess, spot.name, self._reopen(spot), reopen_here=self._reopen_here(spot),
                           list_pages=list(dict.fromkeys([spot.url, self.start_url])))

        with self._phase("votes and edits"):
            sess.goto()
            probe_vote(sess)
            self._listed_edit(list(dict.fromkeys(listed))[:3])

    def _listed_edit(self, urls: list[str]) -> None:
        """An entry the app lists itself edited through its own edit control, on the first of ``urls`` that has one
        (last: the edit changes the app's data)."""
        for url in urls:
            self.sess.goto(url)
            if probe_listed_edit(self.sess, read_model(self.page)):
                return

    def _crawled_forms(self) -> None:
        """Forms the crawl saw on other routes or behind a button (e.g. a "New entry" dialog), registered with the
        route and the button that opens them."""
        if self.graph is None:
            return
        seen = set(self.pages)
        for url in self.graph.routes:
            if url not in seen and len(self.forms) < self.max_forms and self._route_shows_fields(url):
                self.sess.goto(url)
                self._register_forms(read_model(self.page), url)
        for edge in self.graph.edges:
            source, target = self.graph.state(edge.source), self.graph.state(edge.target)
            if len(self.forms) >= self.max_forms or source is None or target is None or not _new_fields(source, target):
                continue
            url, openers = self._way_to(edge, source)
            if self._follow(url, openers) is not None:
                self._register_forms(read_model(self.page), url, openers)

    def _choice_step_forms(self, limit: int = 3) -> None:
        """Forms behind steps that ask for a choice first (a booking's appliance and time slot, then its form): the
        crawled views that showed a disabled "Continue" / "Next" button are opened again and their choice steps
        gone through (:func:`~webtester.probes.steps.take_choice_steps`); a form then shown is registered with the
        whole way there."""
        if self.graph is None:
            return
        tried: set[str] = set()
        for state in self.graph.states:
            if limit <= 0 or len(self.forms) >= self.max_forms:
                return
            if not _asks_choice(state) or urldefrag(state.url)[0] in tried:
                continue
            tried.add(urldefrag(state.url)[0])
            limit -= 1
            path = self.graph.edges_to(state.id)
            source = self.graph.state(path[-1].source) if path else None
            url, openers = self._way_to(path[-1], source) if path and source else (state.url, ())
            if self._follow(url, openers) is None:
                continue
            steps = take_choice_steps(self.page, click=self.sess.click, settle=self.sess.settle)
            if steps:
                self.sess.step(f"{url}: went through {len(steps)} clicks of steps that ask for a choice first")
                self._register_forms(read_model(self.page), url, (*openers, *steps))

    def _crawled_blanks(self, limit: int = 3) -> None:
        """Clicks after which the crawl saw a blank page, repeated to confirm it and record the finding."""
        if self.graph is None:
            return
        for edge in self.graph.edges:
            source, target = self.graph.state(edge.source), self.graph.state(edge.target)
            if limit <= 0 or source is None or target is None or not _blank(target) or _blank(source):
                continue
            limit -= 1
            mark = self._follow(*self._way_to(edge, source))
            if mark is not None:
                self.sess.check_blank(edge.action, "clicking", mark)

    def _follow(self, url: str, openers: tuple[str, ...]) -> BeforeAction | None:
        """Open ``url`` and click ``openers`` in turn (a crawl edge's way, :meth:`_way_to`); the page just before the
        last click, or None when a control could not be clicked."""
        self.sess.goto(url)
        if not self._click_all(openers[:-1]):
            return None
        mark = self.sess.before_action()
        return mark if self._click_all(openers[-1:]) else None

    def _way_to(self, edge: CrawlEdge, source: CrawlState) -> tuple[str, tuple[str, ...]]:
        """The route to open and the controls to click there, in order, to take the crawl's ``edge`` from ``source``."""
        assert self.graph is not None
        path = self.graph.edges_to(source.id)
        first = self.graph.state(path[0].source) if path else None
        return (first or source).url, tuple(_opener(e) for e in [*path, edge])

    def _click_all(self, selectors: tuple[str, ...]) -> bool:
        """Click each of ``selectors`` in turn, letting the page settle after each; False when one could not be
        clicked."""
        for selector in selectors:
            self.sess.spend()
            try:
                self.sess.click(selector)
            except Exception:
                return False
            self.sess.settle()
        return True

    def _route_shows_fields(self, url: str) -> bool:
        """The route, as opened by its URL, showed form fields in the crawl."""
        assert self.graph is not None
        return any(s.url == url and s.via is None and _has_fields(s.controls) for s in self.graph.states)

    def _lists(self, model: PageModel, probed: list[list[str]] | None = None) -> list[str]:
        """Search and filter probes on the page's list, unless it lists the entries of one of the lists ``probed``
        already; the entries listed."""
        if not model.list_sel:
            return []
        probe = ListProbe(self.sess, model)
        entries = probe.items()
        if any(_same_entries(entries, other) for other in probed or []):
            self.sess.step("list: the same entries as a list already probed; not probed again")
            return entries
        searches = model.search_boxes()
        for box in searches[:1]:
            probe.search(box, search_fields(self.instruction))
        for f in model.filter_selects()[:3]:
            probe.filter_select(f, searches[0] if searches else None)
        boxes = model.filter_checkboxes()
        if boxes:
            probe.filter_checkboxes(boxes)
        for group in model.button_groups[:1]:
            probe.filter_buttons(group)
        return entries

    def _page_links(self, model: PageModel) -> list[str]:
        """Same-origin pages other than the start page (hash routes count; in-page anchors do not), a few of each shape."""
        start, _ = urldefrag(self.start_url)
        seen: list[str] = []
        shapes: dict[str, int] = {}
        for link in model.links:
            href = link["href"]
            base, frag = urldefrag(href)
            if not href.startswith(start.rsplit("/", 1)[0]) or href.startswith(("mailto:", "tel:")):
                continue
            if base == start and not frag.startswith(("/", "!")):
                continue  # an anchor on the start page
            if base == start and frag in ("/", "!/", ""):
                continue
            if href in seen:
                continue
            shape = re.sub(r"/[^/]+$", "/*", (frag or base))
            if shapes.get(shape, 0) >= 2:
                continue
            shapes[shape] = shapes.get(shape, 0) + 1
            seen.append(href)
            if len(seen) >= self.max_pages:
                break
        return seen


_FIELD_ROLES = {"text", "email", "number", "tel", "url", "date", "datetime-local", "time", "password", "textarea", "combobox"}


#: Form names of accounts and sign-in: their batteries run last, with the forms that change what exists.
_ACCOUNT_FORM = re.compile(r"\b(sign|log)\s?(in|up)\b|\blogin\b|\bregist|\baccount\b|\bpassword\b|\bprofile\b",
                           re.IGNORECASE)
#: A route that holds a form for a new entry (``/meeting/new``, ``/tasks/create``).
_CREATING_ROUTE = re.compile(r"/(new|create|add)\b", re.IGNORECASE)


def battery_order(forms: list[_FormSpot]) -> list[_FormSpot]:
    """The order the form batteries run in when time may not last for all: forms that create the app's own entries
    first, then the others, then accounts, settings and edits of existing entries; otherwise as found."""
    def rank(spot: _FormSpot) -> int:
        if _ACCOUNT_FORM.search(spot.name) or CHANGING.search(spot.name):
            return 2
        return 0 if CREATING.search(spot.name) or _CREATING_ROUTE.search(urldefrag(spot.url)[0]) else 1
    return sorted(forms, key=rank)


def _opener(edge: CrawlEdge) -> str:
    """The selector of the control a crawl edge clicked (its label is ``role "name"``); a card (no control) by the
    element that shows its first line exactly (the click reaches the card). A name the crawl cut short (a whole
    card's text on one button) is matched as the start of the name."""
    role, _, name = edge.action.partition(" ")
    if len(name) - 2 >= NAME_LIMIT:
        start = re.sub(r"[.*+?^${}()|[\]\\/]", lambda m: "\\" + m.group(0), name[1:-1])
        return f"text={name[1:-1]}" if role == "card" else f"role={role}[name=/^{start}/]"
    return f"text={name}" if role == "card" else f'role={role}[name={name}s]'


_OPTION_KINDS = ("checkbox", "radio")


def _shapes(form: FormModel) -> frozenset[str]:
    """Keys under which two views show one form, probed once: its signature (name and field labels); its name,
    button and kinds of fields (an "Edit task" dialog whose labels carry the row's values); its button and field
    labels (a booking dialog headed by the room it books, one per room). A group of checkboxes or radio buttons
    counts once: its options are often the app's own entries (an "Edit task" dialog offering every other task as a
    prerequisite), one fewer or more from one view to the next."""
    fields = [f for f in form.fields if f.kind not in _OPTION_KINDS]
    options = {(f.kind, f.label) for f in form.fields if f.kind in _OPTION_KINDS}
    kinds = sorted([*(f.kind for f in fields), *{kind for kind, _ in options}])
    labels = sorted([*(f.label for f in fields), *{label for _, label in options}])
    return frozenset({form.signature, "\x1f".join(["named", form.name, form.submit_text, *kinds]),
                      "\x1f".join(["labelled", form.submit_text, *labels])})


def _same_entries(entries: list[str], other: list[str]) -> bool:
    """Two lists of mostly the same entries (at least half of the shorter one in both: a start page's featured
    entries among all of them on a search route), whose search and filters need no second try."""
    shorter = min(len(entries), len(other))
    return shorter > 0 and len(set(entries) & set(other)) * 2 >= shorter


def _blank(state: CrawlState) -> bool:
    """A crawled view that shows nothing: no text, no control."""
    return len(state.text.strip()) < 3 and not state.controls


def _asks_choice(state: CrawlState) -> bool:
    """A crawled view with a disabled "Continue" / "Next" button (a step that asks for a choice first)."""
    return any(c.get("role") == "button" and c.get("disabled") and STEP_WORDS.match(c.get("name") or "")
               for c in state.controls)


def _has_fields(controls: list[dict]) -> bool:
    return any(c.get("role") in _FIELD_ROLES for c in controls)


def _new_fields(source: CrawlState, target: CrawlState) -> bool:
    """The click from ``source`` to ``target`` showed fields that ``source`` did not have (a search box or filters
    on every view are no form to open)."""
    def fields(state: CrawlState) -> set[tuple[str, str]]:
        return {(c["role"], c.get("name") or c.get("label") or c.get("placeholder") or "") for c in state.controls
                if c.get("role") in _FIELD_ROLES}

    return bool(fields(target) - fields(source))
