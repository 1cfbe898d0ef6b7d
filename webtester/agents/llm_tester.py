"""The LLM tester: a chat model per stage (checklist, detection) behind the Tester interface.

Every model exchange is recorded to ``<instance folder>/exchanges.jsonl``; a
tester made from ``replay:RUN_DIR`` answers from such a record instead, and is
labelled ``replay`` (as a tester from ``scripted:FILE`` is labelled ``scripted``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from webtester.agents.base import AppPage, Checklist, ItemBudget, PageOpener
from webtester.agents.checklist import generate_checklist
from webtester.agents.detection import CORE_FIRST_PAGE_CHARS, FIRST_PAGE_CHARS, run_detection
from webtester.agents.verdict import VerdictDesk
from webtester.browser.tools import CORE_TOOLS, make_browser_tools
from webtester.llm.conversation import CHANNEL_KEY, CHECKLIST_CHANNEL
from webtester.llm.factory import (
    ModelSpec,
    endpoint_capabilities,
    make_chat_model,
    openai_options,
    replay_path,
    reported_models,
)
from webtester.llm.recording import ExchangeRecorder, replay_model
from webtester.models import TestItem, Verdict
from webtester.probes.tool import make_probe_tool
from webtester.prompts import load_prompt
from webtester.settings import CORE_TOOLS_WINDOW, Settings

PROMPTS = ("checklist", "checklist_user", "detection", "detection_user")


class LLMTester:
    """Checklist generation and defect detection driven by chat models."""

    def __init__(
        self,
        checklist_model: BaseChatModel,
        detection_model: BaseChatModel,
        *,
        name: str,
        models: dict[str, str] | None = None,
        record: bool = True,
        replay_from: str | Path | None = None,
        checklist_retries: int = 2,
        max_malformed: int = 3,
        settle_timeout: float = 4.0,
        toolset: Literal["auto", "all", "core"] = "all",
    ) -> None:
        self.checklist_model = checklist_model
        self.detection_model = detection_model
        self.name = name
        self.models = models or {}
        self.record = record and replay_from is None
        self.replay_from = Path(replay_from) if replay_from else None
        self.checklist_retries = checklist_retries
        self.max_malformed = max_malformed
        self.settle_timeout = settle_timeout
        self.toolset = toolset  # the detection agent's browser tools: all, CORE_TOOLS, or auto (see Settings)
        self.toolsets_used: set[str] = set()
        self.folder: Path | None = None
        self.run_dir: Path | None = None
        self._recorder: ExchangeRecorder | None = None

    @classmethod
    def from_specs(
        cls, checklist: str, detection: str | None = None, *, checklist_options: dict[str, Any] | None = None,
        **openai_kwargs: Any,
    ) -> "LLMTester":
        """A tester from model specs (``NAME``, ``scripted:FILE``, ``replay:RUN_DIR``); ``checklist_options``
        replace ``openai_kwargs`` for the checklist model."""
        c_spec, d_spec = ModelSpec.parse(checklist), ModelSpec.parse(detection or checklist)
        kinds = {c_spec.kind, d_spec.kind}
        if "replay" in kinds:
            if kinds != {"replay"} or c_spec.name != d_spec.name:
                raise ValueError("a replayed run replays both stages from one recording")
            model = replay_model(c_spec.name) if Path(c_spec.name).is_file() else None
            return cls(model, model, name="replay", models={"replay_from": c_spec.name}, replay_from=c_spec.name)  # type: ignore[arg-type]
        if "scripted" in kinds:
            name = "scripted"
        elif c_spec.name == d_spec.name:
            name = c_spec.label
        else:
            name = f"llm:{c_spec.name}+{d_spec.name}"
        return cls(
            make_chat_model(c_spec, **(checklist_options or openai_kwargs)),
            make_chat_model(d_spec, **openai_kwargs),
            name=name,
            models={"checklist": checklist, "detection": detection or checklist},
        )

    @classmethod
    def from_settings(cls, settings: Settings, model: str | None = None) -> "LLMTester":
        """A tester from :class:`webtester.settings.Settings` (``model`` overrides both stages)."""
        kwargs = openai_options(settings, "detection")  # both stages share the tester's endpoint
        stages = (model, model) if model else (settings.stage_model("checklist"), settings.stage_model("detection"))
        tester = cls.from_specs(*stages, checklist_options=openai_options(settings, "checklist"), **kwargs)
        tester.toolset = settings.detection_tools
        return tester

    # -- Tester interface -------------------------------------------------

    def describe(self) -> dict[str, Any]:
        stages = {"checklist": self.checklist_model, "detection": self.detection_model}
        models, notes = reported_models(self.models, stages)
        endpoints = endpoint_capabilities(stages)
        return {
            "tester": self.name,
            "models": models,
            **({"configured_models": self.models, "model_notes": notes} if notes else {}),
            **({"endpoints": endpoints} if endpoints else {}),
            "prompts": [load_prompt(p).record() for p in PROMPTS],
            "detection_tools": {"setting": self.toolset, "used": sorted(self.toolsets_used)},
            "scripted": self.name == "scripted",
            "replayed": self.replay_from is not None,
            "replayed_from": str(self.replay_from) if self.replay_from else None,
            "recording": self.record,
        }

    def start_instance(self, index: str, folder: Path) -> None:
        self.folder = Path(folder)
        self.run_dir = self.folder.parent
        self._recorder = ExchangeRecorder(self.folder / "exchanges.jsonl") if self.record else None
        if self.replay_from is not None:
            source = replay_path(self.replay_from, index)
            if source.resolve() == (self.folder / "exchanges.jsonl").resolve():
                raise ValueError("replay writes into the folder it replays from; choose another --out")
            model = replay_model(source)
            self.checklist_model = self.detection_model = model

    def _config(self, channel: str | None = None) -> RunnableConfig:
        config: RunnableConfig = {"callbacks": [self._recorder]} if self._recorder else {}
        if channel:
            config["metadata"] = {CHANNEL_KEY: channel}
        return config

    def prepare(self, app_url: str, pages: PageOpener, *, instruction: str = "") -> None:
        """Nothing to prepare: the model meets the app item by item."""

    def generate_checklist(self, instruction: str, app_url: str, max_items: int) -> Checklist:
        return generate_checklist(
            self.checklist_model, instruction, app_url, max_items, retries=self.checklist_retries,
            config=self._config(CHECKLIST_CHANNEL),
        )

    def item_toolset(self) -> Literal["all", "core"]:
        """The tool set of the next item: the configured one, or for ``auto`` the core set while the detection
        endpoint's context window is known to be under :data:`~webtester.settings.CORE_TOOLS_WINDOW`."""
        if self.toolset != "auto":
            return self.toolset
        known = getattr(self.detection_model, "known_window", None)
        window = known() if callable(known) else None
        return "core" if isinstance(window, int) and window < CORE_TOOLS_WINDOW else "all"

    def detect(self, item: TestItem, page: AppPage | None, budget: ItemBudget, *, instruction: str = "") -> Verdict:
        if page is None:
            raise ValueError("the LLM tester executes every item on a page of the app, and none was given")
        initial = page.observe().text
        desk = VerdictDesk(
            item, page, screenshot_dir=(self.folder / "screenshots") if self.folder else None,
            rel_root=self.run_dir, settle_timeout=self.settle_timeout,
        )
        shots = self.folder / "screenshots" / item.id if self.folder else None
        toolset = self.item_toolset()
        self.toolsets_used.add(toolset)
        return run_detection(
            self.detection_model, item, detection_tools(page, shots, toolset),
            desk, budget,
            instruction=instruction, observation=initial, config=self._config(), max_malformed=self.max_malformed,
            page_chars=first_page_chars(toolset),
        )


def detection_tools(page: AppPage, screenshot_dir: Path | None, toolset: Literal["all", "core"]) -> list[BaseTool]:
    """The tools the detection agent gets on ``page`` (before ``record_verdict``): every browser tool and
    ``run_probes``, or only :data:`~webtester.browser.tools.CORE_TOOLS` for the core set."""
    if toolset == "core":
        return make_browser_tools(page, screenshot_dir=screenshot_dir, only=CORE_TOOLS)
    return [*make_browser_tools(page, screenshot_dir=screenshot_dir), make_probe_tool(page)]


def first_page_chars(toolset: Literal["all", "core"]) -> int:
    """How much of the page view the item's opening message carries with ``toolset``."""
    return CORE_FIRST_PAGE_CHARS if toolset == "core" else FIRST_PAGE_CHARS
