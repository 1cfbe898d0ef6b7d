"""The rule-based baseline behind the :class:`~webtester.agents.base.Tester` interface.

Preparation (once per instance, in pages of the run's browser): one look at the start page
(:mod:`webtester.baseline.survey`, saved to ``<instance folder>/start_page.json``), the crawl into a state
graph with the app's JavaScript coverage (:mod:`webtester.baseline.crawl`, ``state_graph.json``) and the
bounded probe exploration (:mod:`webtester.baseline.explore`, saved to ``exploration.json``). The three share
one wall-time budget per app (``prepare_seconds``): the exploration gets what the start page and the crawl left,
at most its own time limit.
Checklist: :mod:`webtester.baseline.checklist` on the instruction and the start page.
Detection: every item is decided from the exploration (:mod:`webtester.baseline.verdicts`); the item's own
page is not needed. A resumed instance reloads what preparation saved.
Traces: the crawl's and the exploration's pages are traced (``traces/prepare-crawl.zip``,
``traces/prepare-explore.zip``, when the run keeps traces); each verdict links the trace of the page work that
decided it: the crawl's for a Fail of the feature search (it searched the crawl's views), else the exploration's.
No model is used; the same app gives the same checklist and verdicts.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, Literal

from webtester.agents.base import AppPage, Checklist, ChecklistError, ItemBudget, PageOpener
from webtester.baseline.absence import AbsenceModel, AppVocabulary, shipped_model
from webtester.baseline.checklist import Met, number_items, plan_checklist
from webtester.baseline.crawl import StateGraph, crawl
from webtester.baseline.explore import Exploration, Explorer
from webtester.baseline.survey import page_model_from_dict, page_model_to_dict, survey
from webtester.baseline.verdicts import (
    ACTION_RULES,
    GLOBAL_RULES,
    PROBE_RULES,
    SPECIFIC_RULES,
    asked_action,
    decide,
    fail_probability,
    record_place,
    with_feature_search,
    without_action,
)
from webtester.browser.confinement import origin_of
from webtester.models import Dimension, Status, TestItem, Verdict
from webtester.probes.pagemodel import PageModel
from webtester.probes.signin import Gate
from webtester.runfolder import EXPLORATION_FILE, STATE_GRAPH_FILE, read_json, write_json
from webtester.settings import Settings

RULES_VERSION = "baseline-1"
CRAWL_TRACE = "prepare-crawl"
EXPLORE_TRACE = "prepare-explore"
PLAN_FILE = "baseline_plan.json"
START_PAGE_FILE = "start_page.json"
MIN_EXPLORE_SECONDS = 10.0  # the exploration's least time, whatever the start page and the crawl took
PROBE_SHARE = 0.9  # the probes' own limit, as a share of the preparation's budget


class BaselineTester:
    """Checklist from rules, verdicts from deterministic probes (see the module docstring)."""

    name = "baseline"
    needs_item_page = False  # every verdict comes from what preparation gathered

    @classmethod
    def from_settings(cls, settings: Settings) -> "BaselineTester":
        """The tester with the preparation budget of ``settings.explore_time_limit`` (the probes get 90% of it)."""
        budget = settings.explore_time_limit
        return cls(prepare_seconds=budget, time_limit=round(budget * PROBE_SHARE, 1))

    def __init__(self, *, max_actions: int = 260, time_limit: float | None = 45.0, look_at_app: bool = True,
                 crawl_actions: int = 50, crawl_time: float = 20.0, prepare_seconds: float | None = 50.0,
                 absence_model: AbsenceModel | None | Literal["shipped"] = "shipped") -> None:
        self.max_actions = max_actions
        self.time_limit = time_limit
        self.look_at_app = look_at_app
        self.crawl_actions = crawl_actions
        self.crawl_time = crawl_time
        self.prepare_seconds = prepare_seconds
        self.folder: Path | None = None
        self.run_dir: Path | None = None
        self._plan: dict[str, dict[str, Any]] = {}
        self._start_page: dict[str, Any] | None = None  # {"model": ...} or {"error": ...}
        self._exploration: Exploration | None = None
        self._graph: StateGraph | None = None
        self._vocab: AppVocabulary | None = None
        self._flagged: set[str] | None = None  # items the feature-search rule fails (set by plan_detection)
        self._planned_for: tuple[str, ...] = ()
        self.absence_model = shipped_model() if absence_model == "shipped" else absence_model

    @classmethod
    def from_preparation(cls, folder: Path, *, with_plan: bool = True, **options: Any) -> "BaselineTester":
        """A tester holding what an earlier run's preparation saved in ``folder``, deciding without writing
        there (to decide the same instance again, e.g. with another absence model). ``with_plan=False`` leaves
        out the checklist plan that run saved (an oracle decision of the same instance has no plan)."""
        tester = cls(**options)
        tester.start_instance(Path(folder).name, Path(folder))
        tester.folder = None
        if not with_plan:
            tester._plan = {}
        return tester

    def describe(self) -> dict[str, Any]:
        return {
            "tester": self.name, "models": {}, "prompts": [], "scripted": False, "replayed": False,
            "rules_version": RULES_VERSION,
            "limits": {"max_actions": self.max_actions, "time_limit_seconds": self.time_limit,
                       "crawl_actions": self.crawl_actions, "crawl_seconds": self.crawl_time,
                       "prepare_seconds": self.prepare_seconds},
            "absence_model": self.absence_model.trained_on if self.absence_model else None,
        }

    def start_instance(self, index: str, folder: Path) -> None:
        self.folder = Path(folder)
        self.run_dir = self.folder.parent
        self._plan = self._load(PLAN_FILE) or {}
        self._start_page = self._load(START_PAGE_FILE)
        saved = self._load(EXPLORATION_FILE)
        self._exploration = Exploration.from_dict(saved) if saved is not None else None
        graph = self._load(STATE_GRAPH_FILE)
        self._graph = StateGraph.from_dict(graph) if graph is not None else None
        self._vocab, self._flagged, self._planned_for = None, None, ()

    def _load(self, name: str) -> Any:
        path = self.folder / name if self.folder else None
        return read_json(path) if path is not None and path.exists() else None

    def _save(self, name: str, data: Any) -> None:
        if self.folder is not None:
            write_json(self.folder / name, data)

    # -- preparation

    def prepare(self, app_url: str, pages: PageOpener, *, instruction: str = "") -> None:
        """Look at the start page and explore the app, each in a fresh page of the run's browser (skipped for what
        a resumed instance already saved), within the preparation's wall-time budget."""
        started = time.monotonic()
        gate = Gate()  # the app's sign-in, found once and used by every page that follows
        if self.look_at_app and self._start_page is None:
            try:
                self._start_page = {"model": page_model_to_dict(survey(app_url, pages, gate=gate))}
            except Exception as exc:  # the instruction alone still gives a checklist
                self._start_page = {"error": type(exc).__name__}
            self._save(START_PAGE_FILE, self._start_page)
        if self._graph is not None:  # saved by a run that was stopped: its app may have had another port
            self._graph = rebased_graph(self._graph, app_url)
        app_url = gate.home or app_url  # an app whose start page is its sign-in form is explored from its home
        if self._graph is None:
            page = pages.new_page(app_url, trace_name=CRAWL_TRACE)
            try:
                shots = self.folder / "screenshots" / "crawl" if self.folder else None
                self._graph = crawl(page.page, app_url, max_actions=self.crawl_actions, time_limit=self.crawl_time,
                                    screenshot_dir=shots, relative_to=self.run_dir, gate=gate)
                self._graph.environment = list(page.evidence.environment)[:200]
            finally:
                page.close()
            self._graph.trace = self._relative(page.evidence.trace)
            self._save(STATE_GRAPH_FILE, self._graph.to_dict())
        if self._exploration is None:
            self._exploration = self._explore(app_url, pages, instruction, gate, self._explore_seconds(started))
            self._save(EXPLORATION_FILE, self._exploration.to_dict())

    def _explore_seconds(self, started: float) -> float | None:
        """The exploration's time limit: its own, cut to what the preparation's budget has left since ``started``."""
        if self.prepare_seconds is None:
            return self.time_limit
        left = max(MIN_EXPLORE_SECONDS, self.prepare_seconds - (time.monotonic() - started))
        return left if self.time_limit is None else min(self.time_limit, left)

    def _explore(self, app_url: str, pages: PageOpener, instruction: str, gate: Gate,
                 time_limit: float | None) -> Exploration:
        shots = self.folder / "screenshots" / "explore" if self.folder else None
        page = pages.new_page(app_url, trace_name=EXPLORE_TRACE)
        try:
            explorer = Explorer(page.page, app_url, instruction=instruction, screenshot_dir=shots, relative_to=self.run_dir,
                                accept_dialogs=False, max_actions=self.max_actions, time_limit=time_limit,
                                graph=self._graph, gate=gate)
            exploration = explorer.run(page.evidence)
        finally:
            page.close()
        exploration.trace = self._relative(page.evidence.trace)
        return exploration

    def _relative(self, trace: str | None) -> str | None:
        """A trace's path as verdicts record it: relative to the run folder."""
        if trace is None:
            return None
        path = Path(trace)
        return str(path.relative_to(self.run_dir)) if self.run_dir and path.is_relative_to(self.run_dir) else str(path)

    # -- stage 1

    def generate_checklist(self, instruction: str, app_url: str, max_items: int) -> Checklist:
        notes: list[str] = []
        model: PageModel | None = None
        if self._start_page and "model" in self._start_page:
            model = page_model_from_dict(self._start_page["model"])
        elif self._start_page:
            notes.append(f"the start page could not be read ({self._start_page['error']}); checklist from the instruction only")
        met = self._met()
        planned = plan_checklist(instruction, model, max_items, exercised={rule for rule, _, _ in met}, met=met)
        if not planned:
            raise ChecklistError("the baseline found no requirement in the instruction")
        items = number_items(planned)
        self._plan = {i.id: {"rule": p.rule, "target": p.target} for i, p in zip(items, planned)}
        self._save(PLAN_FILE, self._plan)
        counts = {d.value: sum(i.dimension is d for i in items) for d in Dimension}
        notes.append("rule-based checklist: " + ", ".join(f"{n} {d}" for d, n in counts.items()))
        return Checklist(items=items, notes=notes)

    def _met(self) -> list[Met]:
        """Where the exploration exercised each rule (with or without a finding): its findings first, then its
        coverage records."""
        if self._exploration is None:
            return []
        met: list[Met] = [(rule, *record_place(f)) for f in self._exploration.findings for rule in PROBE_RULES.get(f["probe"], ())]
        return met + [(c["probe"], *record_place(c)) for c in self._exploration.covered]

    # -- stage 2

    def detect(self, item: TestItem, page: AppPage | None, budget: ItemBudget, *, instruction: str = "") -> Verdict:
        """The verdict for ``item`` from the instance's exploration (``page`` is not used), linking the trace of
        the page work that decided it."""
        verdict = self._probe_verdict(item)
        assert self._exploration is not None
        verdict.evidence.trace = verdict.evidence.trace or self._exploration.trace
        planned = self._plan.get(item.id)
        if planned:
            action = planned["rule"] if planned["rule"] in ACTION_RULES else None
        else:
            action = asked_action(item.description)
        if action and self._graph is not None:
            verdict = without_action(verdict, item, self._vocabulary(instruction), action)
            if verdict.status is Status.failed:
                verdict.evidence.trace = self._graph.trace or verdict.evidence.trace
                return verdict
        if not self._searchable(item, verdict) or self._graph is None or self.absence_model is None:
            return verdict
        vocab = self._vocabulary(instruction)
        flagged = item.id in self._flagged if self._flagged is not None else None
        searched = with_feature_search(verdict, item, vocab, self.absence_model, flagged=flagged)
        if searched.status is Status.failed:  # the search failed it from the crawl's views
            searched.evidence.trace = self._graph.trace or verdict.evidence.trace
        return searched

    def plan_detection(self, items: list[TestItem], *, instruction: str = "") -> None:
        """Decide which items the feature-search rule fails, over all items of the instance at once (the rule
        also fails the app's most probable items; see :class:`~webtester.baseline.absence.AbsenceModel`)."""
        key = tuple(i.id for i in items)
        if self._graph is None or self.absence_model is None or key == self._planned_for:
            return
        vocab = self._vocabulary(instruction)
        # ranked over every item about a feature: when the app's most suspicious item already failed by a probe,
        # the rank rule adds no Fail
        probabilities = {i.id: fail_probability(i, vocab, self.absence_model) for i in items if self._about_a_feature(i)}
        self._flagged = self.absence_model.flagged(probabilities)
        self._planned_for = key

    def _probe_verdict(self, item: TestItem) -> Verdict:
        """The verdict of the probes alone (see :func:`~webtester.baseline.verdicts.decide`)."""
        if self._exploration is None:
            raise RuntimeError("the baseline was not prepared for this instance: no exploration")
        planned = self._plan.get(item.id)
        if planned is not None:
            return decide(item, self._exploration, rule=planned["rule"], target=planned["target"], planned=True)
        return decide(item, self._exploration)  # an item the baseline did not plan (oracle mode)

    def _searchable(self, item: TestItem, probes: Verdict) -> bool:
        """The feature search decides only what the probes left unchecked (an item they exercised without a
        problem keeps its Pass), and only items about a feature."""
        return probes.status is Status.error and self._about_a_feature(item)

    def _about_a_feature(self, item: TestItem) -> bool:
        """Items about the whole app (errors, images, layout...) name no feature to search for, nor do the baseline's
        own items about a date limit or a repeated submission (only their probe can decide them)."""
        planned = self._plan.get(item.id)
        return planned is None or planned["rule"] not in GLOBAL_RULES | SPECIFIC_RULES

    def _vocabulary(self, instruction: str) -> AppVocabulary:
        assert self._graph is not None
        if self._vocab is None:
            self._vocab = AppVocabulary.of(self._graph, instruction)
        return self._vocab


def _origin(url: str) -> str | None:
    try:
        return origin_of(url)
    except ValueError:
        return None


def rebase_urls(data: Any, old: str, new: str) -> Any:
    """A copy of JSON-ready ``data`` with the origin ``old`` replaced by ``new`` in every string (an origin ends
    where a path, query, fragment, quote, space or the string ends, so ``:5173`` never matches ``:51730``)."""
    pattern = re.compile(re.escape(old) + r"(?=[/?#\s\"')]|$)")

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub(new, value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        return value

    return walk(data)


def rebased_graph(graph: StateGraph, app_url: str) -> StateGraph:
    """``graph`` with its URLs moved to ``app_url``'s origin (a resumed run may serve the app on another port)."""
    urls = [*graph.routes, *(s.url for s in graph.states)]
    old, new = (_origin(urls[0]) if urls else None), _origin(app_url)
    if old is None or new is None or old == new:
        return graph
    return StateGraph.from_dict(rebase_urls(graph.to_dict(), old, new))

