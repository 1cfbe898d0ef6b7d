"""The workflow's typed state (JSON-ready values only, so every checkpoint serializes plainly)."""

from __future__ import annotations

from typing import Annotated, Any

from typing_extensions import TypedDict  # pydantic makes JSON schemas (LangGraph Studio) only of this one on 3.11

from webtester.models import Mode


def merge_verdicts(left: list[dict[str, Any]] | None, right: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Append new verdicts; an item that already has one keeps it (exactly one verdict per item)."""
    merged = list(left or [])
    seen = {v["item_id"] for v in merged}
    for verdict in right or []:
        if verdict["item_id"] not in seen:
            merged.append(verdict)
            seen.add(verdict["item_id"])
    return merged


class TesterState(TypedDict, total=False):
    """One instance's run: input, checklist, verdicts so far, and the outcome."""

    # input
    index: str
    instruction: str
    mode: Mode
    target: str  # what to start: a bundled app name, a static or npm folder, or a URL
    gold: list[dict[str, Any]]  # oracle mode: the gold checklist as TestItem records
    # progress
    app_url: str
    checklist: list[dict[str, Any]]  # TestItem records
    checklist_cost: dict[str, Any]  # Cost record
    checklist_notes: list[str]
    verdicts: Annotated[list[dict[str, Any]], merge_verdicts]  # Verdict records, one per item
    tool_calls_used: int  # instance budget spent so far
    instance_seconds: float  # wall-clock seconds the instance has run so far (its time limit counts them)
    failure: str | None  # why the instance could not be run, when it could not
    # outcome
    result: dict[str, Any]  # InstanceResult record
