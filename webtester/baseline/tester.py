"""The rule-based baseline behind the :class:`~webtester.agents.base.Tester` interface.

Checklist: :mod:`webtester.baseline.checklist` on the instruction and one look at the start page.
Detection: the first ``detect`` call of an instance runs the bounded exploration
(:mod:`webtester.baseline.explore`) on a fresh page of its own and saves it to
``<instance folder>/exploration.json``; every item is then decided from it
(:mod:`webtester.baseline.verdicts`). A resumed instance reuses the saved exploration.
No model is used; the same app gives the same checklist and verdicts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webtester.agents.base import Checklist, ChecklistError, ItemBudget
from webtester.artifacts import write_json
from webtester.baseline.checklist import number_items, plan_checklist
from webtester.baseline.explore import Exploration, Explorer
from webtester.baseline.verdicts import decide
from webtester.models import TestItem, Verdict

RULES_VERSION = "baseline-1"
EXPLORATION_FILE = "exploration.json"
PLAN_FILE = "baseline_plan.json"


class BaselineTester:
    """Checklist from rules, verdicts from deterministic probes (see the module docstring)."""

    name = "baseline"
    uses_item_page = False  # it explores once per instance in a browser of its own; the workflow passes the app's URL

    def __init__(self, *, max_actions: int = 260, time_limit: float | None = 420.0, browser_path: str | None = None,
                 look_at_app: bool = True) -> None:
        self.max_actions = max_actions
        self.time_limit = time_limit
        self.browser_path = browser_path
        self.look_at_app = look_at_app
        self.folder: Path | None = None
        self.run_dir: Path | None = None
        self._plan: dict[str, dict[str, Any]] = {}
        self._exploration: Exploration | None = None

    def describe(self) -> dict[str, Any]:
        return {
            "tester": self.name, "models": {}, "prompts": [], "scripted": False, "replayed": False,
            "rules_version": RULES_VERSION,
            "limits": {"max_actions": self.max_actions, "time_limit_seconds": self.time_limit},
        }

    def start_instance(self, index: str, folder: Path) -> None:
        self.folder = Path(folder)
        self.run_dir = self.folder.parent
        self._plan, self._exploration = {}, None
        plan = self.folder / PLAN_FILE
        if plan.exists():
            self._plan = json.loads(plan.read_text(encoding="utf-8"))
        saved = self.folder / EXPLORATION_FILE
        if saved.exists():
            self._exploration = Exploration.from_dict(json.loads(saved.read_text(encoding="utf-8")))

    # -- stage 1

    def generate_checklist(self, instruction: str, app_url: str, max_items: int) -> Checklist:
        notes: list[str] = []
        model = None
        if self.look_at_app:
            from webtester.baseline.survey import survey

            try:
                model = survey(app_url, executable=self.browser_path)
            except Exception as exc:  # the instruction alone still gives a checklist
                notes.append(f"the start page could not be read ({type(exc).__name__}); checklist from the instruction only")
        planned = plan_checklist(instruction, model, max_items)
        if not planned:
            raise ChecklistError("the baseline found no requirement in the instruction")
        items = number_items(planned)
        self._plan = {i.id: {"rule": p.rule, "target": p.target} for i, p in zip(items, planned)}
        if self.folder is not None:
            write_json(self.folder / PLAN_FILE, self._plan)
        counts = {d: sum(i.dimension.value == d for i in items) for d in ("functionality", "constraint", "interaction", "content")}
        notes.append("rule-based checklist: " + ", ".join(f"{n} {d}" for d, n in counts.items()))
        return Checklist(items=items, notes=notes)

    # -- stage 2

    def exploration(self, app: Any, instruction: str) -> Exploration:
        """The instance's exploration: saved, or run now on a fresh page (``app``: the app's URL, explored in
        a browser of the baseline's own, or an item page whose browser is used)."""
        if self._exploration is not None:
            return self._exploration
        from webtester.browser.session import ItemPage

        url = app if isinstance(app, str) else app.base_url

        def explore(browser: Any) -> Exploration:
            page = ItemPage(browser, url)
            try:
                explorer = Explorer(page.page, url, instruction=instruction, screenshot_dir=shots, relative_to=self.run_dir,
                                    accept_dialogs=False, max_actions=self.max_actions, time_limit=self.time_limit)
                return explorer.run(page.evidence)
            finally:
                page.close()

        shots = self.folder / "screenshots" / "explore" if self.folder else None
        if isinstance(app, str):
            from webtester.baseline.survey import with_own_browser

            result = with_own_browser(explore, executable=self.browser_path)
        else:
            result = explore(app.context.browser)
        self._exploration = result
        if self.folder is not None:
            write_json(self.folder / EXPLORATION_FILE, result.to_dict())
        return result

    def detect(self, item: TestItem, item_page: Any, budget: ItemBudget, *, instruction: str = "") -> Verdict:
        """The verdict for ``item`` from the instance's exploration (``item_page``: the app's URL, see
        ``uses_item_page``, or an item page)."""
        exploration = self.exploration(item_page, instruction)
        planned = self._plan.get(item.id)
        if planned is not None:
            return decide(item, exploration, rule=planned["rule"], target=planned["target"], planned=True)
        return decide(item, exploration)  # an item the baseline did not plan (oracle mode)
