"""Checklist generation: instruction -> at most N test items in four dimensions.

The model answers through structured output (:class:`ChecklistOutput`). A reply
that does not parse is first repaired (JSON in the text, code fences, dimension
aliases such as ``FT``, single bad items dropped); if nothing usable remains the
model is told what was wrong and asked again, a bounded number of times, and
then :class:`~webtester.agents.base.ChecklistError` is raised.
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, Field, ValidationError, field_validator

from webtester.agents.base import Checklist, ChecklistError
from webtester.llm.usage import add_usage
from webtester.models import Cost, Dimension, TestItem
from webtester.prompts import load_prompt

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
    max_items: int = 20,
    *,
    retries: int = 2,
    config: RunnableConfig | None = None,
) -> Checklist:
    """Ask ``model`` for a checklist; repair or retry (``retries`` times) replies that do not parse."""
    if max_items < 1:
        raise ValueError("max_items must be at least 1")
    messages: list[BaseMessage] = [
        SystemMessage(content=load_prompt("checklist").render(max_items=max_items)),
        HumanMessage(content=load_prompt("checklist_user").render(instruction=instruction, app_url=app_url, max_items=max_items)),
    ]
    structured = model.with_structured_output(ChecklistOutput, method="function_calling", include_raw=True)
    cost, notes = Cost(), []
    problem = ""
    for attempt in range(retries + 1):
        out = structured.invoke(messages, config=config)
        raw: AIMessage = out["raw"]
        cost = add_usage(cost, raw)
        entries, problem, repaired = _entries(out.get("parsed"), out.get("parsing_error"), raw)
        if entries:
            if repaired:
                notes.append(f"attempt {attempt + 1}: reply repaired ({problem})")
            items, more = finalize(entries, max_items)
            return Checklist(items=items, cost=cost, notes=notes + more)
        notes.append(f"attempt {attempt + 1}: {problem}")
        messages += _feedback(raw, problem)
    raise ChecklistError(f"checklist reply did not parse after {retries + 1} attempts: {problem}", cost=cost)


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
        data = _json_in(str(text))
        if data is not None:
            return data
    return None


def _json_in(text: str) -> Any:
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    for chunk in ([fenced.group(1)] if fenced else []) + [text]:
        chunk = chunk.strip()
        start = min((i for i in (chunk.find("{"), chunk.find("[")) if i >= 0), default=-1)
        if start < 0:
            continue
        try:
            return json.JSONDecoder().raw_decode(chunk[start:])[0]
        except json.JSONDecodeError:
            continue
    return None


def _feedback(raw: AIMessage, problem: str) -> list[BaseMessage]:
    """Messages telling the model what was wrong with its reply."""
    msg = f"Your checklist could not be used: {problem}. Call {ChecklistOutput.__name__} again with valid arguments."
    clean = AIMessage(content=raw.content, tool_calls=raw.tool_calls)
    out: list[BaseMessage] = [clean]
    out += [ToolMessage(content=msg, tool_call_id=c["id"] or "") for c in raw.tool_calls]
    if not raw.tool_calls:
        out.append(HumanMessage(content=msg))
    return out


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
                TestItem(id=f"{dim.prefix}-{n:02d}", dimension=dim, description=e.description.strip(),
                         action=e.action.strip(), expected=e.expected.strip())
            )
    return items, notes
