"""Checklist generation: instruction -> at most N test items in four dimensions.

The model answers through structured output (:class:`ChecklistOutput`). A reply
that does not parse is first repaired (JSON in the text, code fences, dimension
aliases such as ``FT``, single bad items dropped); if nothing usable remains the
model is told what was wrong and asked again, a bounded number of times, and
then :class:`~webtester.agents.base.ChecklistError` is raised.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, Field, ValidationError, field_validator

from webtester.agents.base import Checklist, ChecklistError
from webtester.llm.framing import neutralize
from webtester.llm.structured import Reply, ReplyRejected, StructuredOutputError, ask_structured, json_in_text
from webtester.models import Dimension, TestItem, item_id
from webtester.prompts import load_prompt
from webtester.settings import DEFAULT_MAX_ITEMS

_ALIASES = {
    "ft": "functionality", "functional": "functionality", "function": "functionality",
    "cs": "constraint", "constraints": "constraint", "validation": "constraint",
    "ix": "interaction", "interactions": "interaction", "ux": "interaction",
    "ct": "content", "contents": "content",
}


class ChecklistEntry(BaseModel):
    """One test item: what is tested, how a user tests it, and what must be observed."""

    dimension: Dimension = Field(description="functionality | constraint | interaction | content")
    description: str = Field(min_length=3, description="what is tested, one sentence")
    action: str = Field(min_length=1, description="concrete steps a tester performs in the browser")
    expected: str = Field(min_length=1, description="the observable outcome that means the item passes")

    @field_validator("dimension", mode="before")
    @classmethod
    def _alias(cls, value: Any) -> Any:
        if isinstance(value, str):
            key = value.strip().lower()
            return _ALIASES.get(key, key)
        return value


class ChecklistOutput(BaseModel):
    """The test checklist for the web application."""

    items: list[ChecklistEntry] = Field(description="the test items, most important first")


def generate_checklist(
    model: BaseChatModel,
    instruction: str,
    app_url: str,
    max_items: int = DEFAULT_MAX_ITEMS,
    *,
    retries: int = 2,
    config: RunnableConfig | None = None,
) -> Checklist:
    """Ask ``model`` for a checklist; repair or retry (``retries`` times) replies that do not parse."""
    if max_items < 1:
        raise ValueError("max_items must be at least 1")
    messages: list[BaseMessage] = [
        SystemMessage(content=load_prompt("checklist").render(max_items=max_items)),
        HumanMessage(content=load_prompt("checklist_user").render(
            instruction=neutralize(instruction), app_url=app_url, max_items=max_items,
        )),
    ]
    try:
        answer = ask_structured(
            model, ChecklistOutput, messages, _check, repair_prompt=_repair_prompt, attempts=retries + 1,
            config=config, what="checklist",
        )
    except StructuredOutputError as exc:
        raise ChecklistError(f"checklist reply did not parse after {exc.attempts} attempts: {exc.problem}",
                             cost=exc.cost) from None
    entries, repair = answer.value
    notes = list(answer.rejected)
    if repair:
        notes.append(f"attempt {answer.attempts}: reply repaired ({repair})")
    items, more = finalize(entries, max_items)
    return Checklist(items=items, cost=answer.cost, notes=notes + more)


def _check(reply: Reply) -> tuple[list[ChecklistEntry], str]:
    """Usable entries and what was repaired (empty when nothing was); rejects a reply with none."""
    entries, problem, repaired = _entries(reply.parsed, reply.parsing_error, reply.raw)
    if not entries:
        raise ReplyRejected(problem)
    return entries, problem if repaired else ""


def _entries(parsed: Any, error: Any, raw: AIMessage) -> tuple[list[ChecklistEntry], str, bool]:
    """Valid entries, a description of what was wrong, and whether a repair was needed."""
    if isinstance(parsed, ChecklistOutput) and parsed.items:
        return parsed.items, "", False
    payload = _payload(raw)
    if payload is None:
        if raw.invalid_tool_calls:
            why = f"the arguments of {raw.invalid_tool_calls[0].get('name')!r} are not valid JSON"
        elif error:
            why = f"no parsable checklist in the reply ({_short(error)})"
        else:
            why = "the reply contained no checklist"
        return [], why, True
    items = payload.get("items") if isinstance(payload, dict) else payload
    if not isinstance(items, list):
        return [], "the checklist has no 'items' list", True
    good, bad = [], []
    for n, raw_item in enumerate(items, start=1):
        try:
            good.append(ChecklistEntry.model_validate(raw_item))
        except ValidationError as exc:
            bad.append(f"item {n}: {_short(exc)}")
    if not good:
        return [], "no valid item: " + "; ".join(bad[:5]), True
    return good, (f"dropped {len(bad)} invalid item(s): " + "; ".join(bad[:5])) if bad else "parsed leniently", True


def _payload(raw: AIMessage) -> Any:
    """The checklist JSON a reply carries: tool-call arguments, unparsed arguments, or JSON in the text."""
    if raw.tool_calls:
        return raw.tool_calls[0]["args"]
    candidates = [c.get("args") or "" for c in raw.invalid_tool_calls] + [raw.content if isinstance(raw.content, str) else ""]
    for text in candidates:
        data = json_in_text(str(text))
        if data is not None:
            return data
    return None


def _repair_prompt(problem: str) -> str:
    """What the model is told after a checklist reply that could not be used."""
    return f"Your checklist could not be used: {problem}. Call {ChecklistOutput.__name__} again with valid arguments."


def _short(exc: Any) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
    return " ".join(str(exc).split())[:300]


def _key(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def finalize(entries: list[ChecklistEntry], max_items: int) -> tuple[list[TestItem], list[str]]:
    """Drop duplicates, keep at most ``max_items``, number per dimension (FT-01, CS-01, ...) in FT/CS/IX/CT order."""
    notes: list[str] = []
    seen: set[str] = set()
    unique: list[ChecklistEntry] = []
    for entry in entries:
        key = _key(entry.description)
        if key in seen:
            notes.append(f"dropped duplicate item: {entry.description!r}")
            continue
        seen.add(key)
        unique.append(entry)
    if len(unique) > max_items:
        notes.append(f"kept the first {max_items} of {len(unique)} items")
        unique = unique[:max_items]
    items: list[TestItem] = []
    for dim in Dimension:
        group = [e for e in unique if e.dimension is dim]
        for n, e in enumerate(group, start=1):
            items.append(
                TestItem(id=item_id(dim, n), dimension=dim, description=e.description.strip(),
                         action=e.action.strip(), expected=e.expected.strip())
            )
    return items, notes
