"""A bounded crawl of a single-page app into a state-transition graph, guided by new DOM states and by the
app's own JavaScript coverage.

The crawl visits every same-origin route it finds, and on each route clicks the controls a user would try
(buttons, tabs, menu items, switches, and beyond those the first two cards or rows that open on a click: elements with a
pointer cursor that are no control), one at a time from the route's fresh state (a click that changed nothing is
followed by Escape, which closes what a state leaves out, such as a select's open option list). A state is what the page
shows (route, headings, dialog, control names); each click that leads to another state is an edge. Chromium's
precise coverage (a CDP session) counts the app's functions run so far; every edge records how many new ones
its click ran, and routes are explored in the order of the coverage their first view gained. Destructive
controls (delete, remove, log out, ...) are not clicked. Then one level deeper, within a few seconds: in a view
that a click opened on its route's page (a tab or section the app shows without a route of its own), the controls
that view added which open something to fill in ("Add transaction" in a "Transactions" tab), then its tabs, are
clicked, each reached again by the route and the click before it. Bounded by an action budget and a time limit.

The graph, with each state's visible text and controls, is what later steps search for the UI an item needs.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit

from playwright.sync_api import Page

from webtester.browser.watchdog import bounded, dismiss, evaluate, navigate, watchdog_of
from webtester.probes.session import CLICK_TIMEOUT_MS
from webtester.probes.signin import Gate

STATE_GRAPH_VERSION = 1
DESTRUCTIVE = re.compile(r"\b(delete|remove|clear|reset|log ?out|sign ?out|erase|discard|destroy|drop|empty)\b", re.I)
TEXT_LIMIT = 4000  # characters of visible text kept per state
NAME_LIMIT = 80  # characters of a control's name kept (the snapshot script cuts names there)
CLICKED_ROLES = ("button", "tab", "menuitem", "switch", "combobox", "card")
CARDS_PER_ROUTE = 2  # cards opened per route (a card: an element with a pointer cursor that is no control)
DEEPER_CLICKS = 4  # controls clicked in a view that a click on a route opened (a tab's own "Add" button)
#: what is clicked one level deeper: controls that open something to fill in (first), and tabs
OPENS_FORM = re.compile(r"^\W*(add|new|create|post|write|compose|book|reserve|schedule|start|upload|edit|assign|invite|"
                        r"register|apply|request|record|plan)\b", re.I)
DEEPER_SECONDS = 6.0  # the most the crawl spends one level deeper than its routes

SNAPSHOT_JS = r"""() => {
  const MAX_CARDS = 12;
  const vis = el => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
  const name = el => (el.getAttribute('aria-label') || el.innerText || el.value || el.title ||
                      el.getAttribute('placeholder') || '').replace(/\s+/g, ' ').trim().slice(0, 80);
  // an icon-only button is known by its icon (lucide-react names it in a class: "lucide lucide-trash-2")
  const icon = el => { const svg = el.querySelector('svg[class*="lucide-"]');
    const c = svg ? [...svg.classList].find(k => k.startsWith('lucide-')) : null;
    return c ? c.slice(7).replace(/-\d+$/, '').replace(/-/g, ' ') : ''; };
  document.querySelectorAll('[data-wt-c]').forEach(el => el.removeAttribute('data-wt-c'));
  const controls = [];
  const sel = 'a[href], button, [role=button], [role=tab], [role=menuitem], [role=switch], [role=link], ' +
              '[role=combobox], summary, select, input, textarea';
  let i = 0;
  for (const el of document.querySelectorAll(sel)) {
    if (!vis(el) || controls.length >= 150) continue;
    const tag = el.tagName.toLowerCase();
    let role = el.getAttribute('role') || (tag === 'a' ? 'link' : tag === 'select' ? 'combobox' :
               ['input', 'textarea'].includes(tag) ? (el.type || 'text') : tag === 'summary' ? 'button' : 'button');
    const label = el.id ? (document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.innerText || '') : '';
    el.setAttribute('data-wt-c', String(i));
    controls.push({i, role, tag, name: name(el), icon: icon(el), label: label.trim().slice(0, 80),
                   placeholder: el.getAttribute('placeholder') || '', href: tag === 'a' ? el.href : '',
                   disabled: !!el.disabled || el.getAttribute('aria-disabled') === 'true',
                   options: tag === 'select' ? [...el.options].map(o => o.text.trim()).slice(0, 30) : []});
    i += 1;
  }
  // cards and rows that open something on a click (a pointer cursor that their parent does not have), in no control
  let cards = 0;
  for (const el of document.querySelectorAll('div, li, tr, article, section, td, img')) {
    if (cards >= MAX_CARDS || controls.length >= 150) break;
    if (el.closest(sel) || getComputedStyle(el).cursor !== 'pointer' || !vis(el)) continue;
    if (el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer') continue;
    const text = (el.innerText || el.getAttribute('aria-label') || el.getAttribute('alt') || '').trim();
    if (!text) continue;
    el.setAttribute('data-wt-c', String(i));
    controls.push({i, role: 'card', tag: el.tagName.toLowerCase(), name: text.split('\n')[0].replace(/\s+/g, ' ').slice(0, 80),
                   icon: '', label: '', placeholder: '', href: '', disabled: false, options: []});
    i += 1; cards += 1;
  }
  const dialog = [...document.querySelectorAll('[role=dialog], [role=alertdialog], dialog[open]')].some(vis);
  const headings = [...document.querySelectorAll('h1, h2, h3, h4, [role=heading]')].filter(vis)
                   .map(h => h.innerText.replace(/\s+/g, ' ').trim()).filter(Boolean).slice(0, 40);
  return {url: location.href, title: document.title, dialog, headings, controls,
          text: (document.body?.innerText || '').replace(/[ \t]+/g, ' ').replace(/\n\s*\n+/g, '\n').trim()};
}"""


@dataclass
class CrawlState:
    """One distinct view of the app."""

    id: str
    url: str
    title: str
    headings: list[str]
    text: str
    controls: list[dict[str, Any]]
    dialog: bool
    via: str | None = None  # the edge label that first led here (None: a route opened by URL)
    screenshot: str | None = None  # path of the view's screenshot, relative to the run folder


@dataclass
class CrawlEdge:
    source: str
    action: str
    target: str
    new_functions: int = 0


@dataclass
class StateGraph:
    """The crawl's result (JSON-ready via :meth:`to_dict`)."""

    states: list[CrawlState] = field(default_factory=list)
    edges: list[CrawlEdge] = field(default_factory=list)
    routes: list[str] = field(default_factory=list)
    coverage: dict[str, Any] = field(default_factory=dict)
    environment: list[str] = field(default_factory=list)  # third-party requests blocked or unreachable here
    actions: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    trace: str | None = None  # the Playwright trace of the crawl's page, relative to the run folder
    version: int = STATE_GRAPH_VERSION

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "StateGraph":
        graph = cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__ and k not in ("states", "edges")})
        graph.states = [CrawlState(**s) for s in data.get("states", [])]
        graph.edges = [CrawlEdge(**e) for e in data.get("edges", [])]
        return graph

    def state(self, state_id: str) -> CrawlState | None:
        return next((s for s in self.states if s.id == state_id), None)

    def edges_to(self, state_id: str) -> list[CrawlEdge]:
        """The edges (clicks) that lead to a state from its route, in order (none for a route's own view)."""
        state = self.state(state_id)
        edges: list[CrawlEdge] = []
        seen = {state_id}
        while state is not None and state.via is not None:
            edge = next((e for e in self.edges if e.target == state.id and e.action == state.via), None)
            if edge is None or edge.source in seen:
                break
            edges.insert(0, edge)
            seen.add(edge.source)
            state = self.state(edge.source)
        return edges

    def path_to(self, state_id: str) -> list[str]:
        """The steps that reach a state from its route: ``open URL`` then the clicks of the edges leading there."""
        edges = self.edges_to(state_id)
        first = self.state(edges[0].source if edges else state_id)
        return ([f"open {first.url}"] if first is not None else []) + [f"click {e.action}" for e in edges]


def _state_id(snap: dict[str, Any]) -> str:
    parts = urlsplit(snap["url"])
    names = sorted({c["name"] for c in snap["controls"] if c["name"] and c["role"] != "card"})[:60]  # cards show data
    key = "|".join([parts.path, parts.fragment, str(snap["dialog"]), *snap["headings"][:20], *names])
    return hashlib.sha1(key.encode()).hexdigest()[:10]


def _describe(control: dict[str, Any]) -> str:
    return f'{control["role"]} "{control["name"] or control["label"] or control["placeholder"]}"'


class JsCoverage:
    """The app's functions run so far, from Chromium's precise coverage (nothing when CDP is unavailable)."""

    def __init__(self, page: Page, origin: str) -> None:
        self.origin = origin
        self.functions: dict[tuple[str, int], bool] = {}
        self.page = page
        self.cdp: Any = None
        try:
            self.cdp = page.context.new_cdp_session(page)
            with bounded(page):
                self.cdp.send("Profiler.enable")
                self.cdp.send("Profiler.startPreciseCoverage", {"callCount": True, "detailed": False})
        except Exception:
            self.cdp = None

    @staticmethod
    def is_app_script(url: str, origin: str) -> bool:
        """A script of the app itself: same origin, not a dependency or the dev server's client."""
        return url.startswith(origin) and not re.search(r"/node_modules/|/@vite/|/@react-refresh|/\.vite/deps/", url)

    def take(self) -> int:
        """Merge the coverage since the last call; the number of functions run for the first time."""
        if self.cdp is None:
            return 0
        try:
            with bounded(self.page):
                result = self.cdp.send("Profiler.takePreciseCoverage")["result"]
        except Exception:
            return 0
        new = 0
        for script in result:
            url = script.get("url", "")
            if not self.is_app_script(url, self.origin):
                continue
            path = url.split("?")[0]
            for fn in script.get("functions", []):
                ranges = fn.get("ranges") or [{}]
                key = (path, int(ranges[0].get("startOffset", 0)))
                ran = int(ranges[0].get("count", 0)) > 0
                before = self.functions.get(key, False)
                self.functions[key] = before or ran
                new += int(ran and not before)
        return new

    def summary(self) -> dict[str, Any]:
        total = len(self.functions)
        ran = sum(self.functions.values())
        scripts = len({k[0] for k in self.functions})
        return {"available": self.cdp is not None, "functions": total, "functions_run": ran, "scripts": scripts,
                "share": round(ran / total, 4) if total else None}


class Crawler:
    """One crawl (see the module docstring)."""

    def __init__(self, page: Page, start_url: str, *, max_actions: int = 60, time_limit: float = 30.0,
                 max_routes: int = 10, clicks_per_route: int = 8, screenshot_dir: Path | None = None,
                 relative_to: Path | None = None, gate: Gate | None = None) -> None:
        self.page = page
        self.gate = gate
        self.screenshot_dir, self.relative_to = screenshot_dir, relative_to
        self.start_url = start_url
        parts = urlsplit(start_url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.max_actions, self.max_routes, self.clicks_per_route = max_actions, max_routes, clicks_per_route
        self.deadline = time.monotonic() + time_limit
        self.graph = StateGraph()
        self.coverage = JsCoverage(page, self.origin)
        self._tried: set[str] = set()
        self._shapes: dict[str, int] = {}

    def _budget_left(self) -> bool:
        if self.graph.actions >= self.max_actions:
            self.graph.stopped = f"action budget of {self.max_actions} used up"
            return False
        if time.monotonic() > self.deadline:
            self.graph.stopped = "time limit reached"
            return False
        stalled = watchdog_of(self.page).stalled
        if stalled:
            self.graph.stopped = stalled
            return False
        return True

    def _settle(self) -> None:
        try:
            self.page.wait_for_load_state("load", timeout=3000)
            evaluate(self.page, "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        except Exception:
            pass
        self.page.wait_for_timeout(150)

    def _snapshot(self) -> dict[str, Any] | None:
        try:
            return evaluate(self.page, SNAPSHOT_JS)
        except Exception:
            return None

    def _record(self, snap: dict[str, Any], via: str | None) -> CrawlState:
        state_id = _state_id(snap)
        known = self.graph.state(state_id)
        if known is not None:
            return known
        state = CrawlState(id=state_id, url=snap["url"], title=snap["title"], headings=snap["headings"],
                           text=snap["text"][:TEXT_LIMIT], dialog=snap["dialog"], via=via,
                           controls=[{k: c[k] for k in ("role", "name", "icon", "label", "placeholder", "href", "disabled", "options")
                                      if c.get(k)} for c in snap["controls"]])
        if self.screenshot_dir is not None:
            state.screenshot = self._screenshot(state_id)
        self.graph.states.append(state)
        return state

    def _screenshot(self, state_id: str) -> str | None:
        assert self.screenshot_dir is not None
        path = self.screenshot_dir / f"{state_id}.jpeg"
        try:
            self.screenshot_dir.mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(path), type="jpeg", quality=60, timeout=5000)
        except Exception:
            return None
        return str(path.relative_to(self.relative_to)) if self.relative_to else str(path)

    def _open(self, url: str) -> dict[str, Any] | None:
        self.coverage.take()
        self.graph.actions += 1
        if self.gate is not None and self.gate.open_inside(self.page, url, settle=self._settle):
            return self._snapshot()  # an app that keeps its session in memory: opened inside it, still signed in
        try:
            navigate(self.page, url, wait_until="load", timeout=15_000)
        except Exception:
            return None
        self._settle()
        if self.gate is not None:
            self.gate.arrive(self.page, url, settle=self._settle, seen=self._record_signin)
        return self._snapshot()

    def _record_signin(self) -> None:
        """Record the sign-in (or sign-up) form the gate is about to fill: its words are part of the app."""
        snap = self._snapshot()
        if snap is not None:
            self._record(snap, None)

    def _same_origin_route(self, href: str) -> str | None:
        if not href or not href.startswith(self.origin):
            return None
        base, frag = urldefrag(href)
        if frag and not frag.startswith(("/", "!")):
            href = base  # an in-page anchor
        return href

    def _admit(self, route: str) -> bool:
        """At most two routes of one shape (``/product/a``, ``/product/b``: one detail page is like another)."""
        parts = urlsplit(route)
        path = (parts.fragment if parts.fragment.startswith(("/", "!")) else parts.path).split("?")[0].rstrip("/")
        if path.count("/") < 2:
            return True
        shape = path.rsplit("/", 1)[0]
        self._shapes[shape] = self._shapes.get(shape, 0) + 1
        return self._shapes[shape] <= 2

    def run(self) -> StateGraph:
        started = time.monotonic()
        try:
            self._crawl()
        except Exception as exc:  # what was crawled so far stays usable
            self.graph.stopped = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
        self.coverage.take()
        self.graph.coverage = self.coverage.summary()
        self.graph.seconds = round(time.monotonic() - started, 2)
        return self.graph

    def _crawl(self) -> None:
        queue: list[tuple[int, str]] = [(0, self.start_url)]
        done: set[str] = set()
        while queue and len(self.graph.routes) < self.max_routes and self._budget_left():
            queue.sort(key=lambda q: -q[0])
            _, url = queue.pop(0)
            if url in done:
                continue
            done.add(url)
            snap = self._open(url)
            if snap is None:
                continue
            gain = self.coverage.take()
            route_state = self._record(snap, None)
            self.graph.routes.append(url)
            for control in snap["controls"]:
                route = self._same_origin_route(control.get("href", ""))
                if route and route not in done and all(route != q[1] for q in queue) and self._admit(route):
                    queue.append((gain, route))
            self._click_through(url, route_state, snap, queue, done)
        self._deeper(time.monotonic() + DEEPER_SECONDS)

    def _candidates(self, snap: dict[str, Any]) -> list[dict[str, Any]]:
        """The controls to click on a route: its buttons, tabs and menus (at most ``clicks_per_route``), then its
        first cards (one opened card is much like another), which do not take the controls' places."""
        picked: list[dict[str, Any]] = []
        cards: list[dict[str, Any]] = []
        for control in snap["controls"]:
            if control["role"] not in CLICKED_ROLES or control["tag"] == "select":
                continue
            name = control["name"]
            if not name or control["disabled"] or DESTRUCTIVE.search(name) or name in self._tried:
                continue
            (cards if control["role"] == "card" else picked).append(control)
        cards = cards[:CARDS_PER_ROUTE]
        return picked[: self.clicks_per_route] + cards

    def _click_through(self, url: str, route_state: CrawlState, snap: dict[str, Any], queue: list[tuple[int, str]],
                       done: set[str]) -> None:
        fresh = True
        for control in self._candidates(snap):
            if not self._budget_left():
                return
            self._tried.add(control["name"])
            if not fresh:
                current = self._open(url)
                if current is None:
                    return
                match = next((c for c in current["controls"] if c["name"] == control["name"] and c["role"] == control["role"]), None)
                if match is None:
                    continue
                control = {**control, "i": match["i"]}
            after, edge = self._click_into(route_state, control, snap["url"])
            fresh = after is not None and edge is None  # nothing changed: the route's state is still the one shown
            if fresh:  # a popup the state leaves out (a select's option list) would take the next click
                dismiss(self.page)
            if after is None or edge is None:
                continue
            route = self._same_origin_route(after["url"])
            if route and route not in done and all(route != q[1] for q in queue) and self._admit(route):
                queue.append((edge.new_functions, route))

    def _deeper(self, deadline: float) -> None:
        """Click the controls that a clicked view on a route's page added to it (see the module docstring)."""
        for edge in list(self.graph.edges):
            source, view = self.graph.state(edge.source), self.graph.state(edge.target)
            if source is None or view is None or source.via is not None or view.dialog or view.url != source.url:
                continue
            known = {(c.get("role"), c.get("name")) for c in source.controls}
            added = [c for c in view.controls if (c.get("role"), c.get("name")) not in known]
            usable = [c for c in added if c.get("name") and not c.get("disabled") and not DESTRUCTIVE.search(c["name"])
                      and c["name"] not in self._tried]
            picked = [c for c in usable if c.get("role") in ("button", "menuitem") and OPENS_FORM.search(c["name"])] + \
                     [c for c in usable if c.get("role") == "tab"]
            for control in picked[:DEEPER_CLICKS]:
                if not self._budget_left() or time.monotonic() > deadline:
                    return
                self._tried.add(control["name"])
                snap = self._reach(source.url, edge.action)
                if snap is None:
                    break
                match = next((c for c in snap["controls"] if c["name"] == control["name"] and c["role"] == control["role"]), None)
                if match is not None:
                    self._click_into(view, match, snap["url"])

    def _reach(self, url: str, via: str) -> dict[str, Any] | None:
        """The route ``url`` opened afresh and its control ``via`` (an edge label) clicked; the view shown then."""
        snap = self._open(url)
        if snap is None:
            return None
        match = next((c for c in snap["controls"] if _describe(c) == via), None)
        return self._click(match) if match is not None else None

    def _click(self, control: dict[str, Any]) -> dict[str, Any] | None:
        """Click ``control`` (of the last snapshot) and let the page settle: what it shows then (None when the click
        failed or nothing could be read)."""
        self.graph.actions += 1
        try:
            self.page.locator(f'[data-wt-c="{control["i"]}"]').first.click(timeout=CLICK_TIMEOUT_MS)
        except Exception:
            return None
        self._settle()
        return self._snapshot()

    def _click_into(self, source: CrawlState, control: dict[str, Any], url: str) -> tuple[dict[str, Any] | None, CrawlEdge | None]:
        """Click ``control`` of the view ``source`` (shown at ``url``): what the page shows then (None when the click
        failed or nothing could be read) and the edge recorded to the view it led to (None when it changed nothing)."""
        after = self._click(control)
        if after is None:
            return None, None
        label = _describe(control)
        target = self._record(after, label)
        gain = self.coverage.take()
        if target.id == source.id and after["url"] == url:
            return after, None
        edge = CrawlEdge(source.id, label, target.id, gain)
        self.graph.edges.append(edge)
        return after, edge


def crawl(page: Page, start_url: str, **limits: Any) -> StateGraph:
    """Crawl the app from ``start_url`` in ``page`` (see the module docstring)."""
    return Crawler(page, start_url, **limits).run()
