"""Which tester ``--tester`` and ``--model`` mean: the LLM tester or the rule-based baseline.

Runs are labelled by :func:`webtester.models.tester_label` (a scripted or
replayed run is never labelled as a model's result).
"""

from __future__ import annotations

from webtester.agents.base import Tester
from webtester.agents.llm_tester import LLMTester
from webtester.baseline import BaselineTester
from webtester.settings import Settings, load_settings

TESTER_KINDS = ("llm", "baseline")


def make_tester(kind: str | None = None, *, settings: Settings | None = None, model: str | None = None) -> Tester:
    """The tester for ``--tester`` (``llm`` default, ``baseline``) and ``--model`` (name, ``scripted:F``, ``replay:DIR``)."""
    kind = kind or "llm"
    if kind not in (*TESTER_KINDS, "scripted", "replay"):
        raise ValueError(f"unknown tester {kind!r} (expected llm or baseline)")
    settings = settings if settings is not None else load_settings()
    if kind == "baseline":
        return BaselineTester.from_settings(settings)
    return LLMTester.from_settings(settings, model=model)
