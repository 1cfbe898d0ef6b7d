"""Fit a request into the endpoint's context window.

- :func:`context_overflow` reads a failed request's error: is it a context-length error
  (OpenAI's, vLLM's and llama.cpp's wordings), and what window and request size does it name;
- :func:`estimate_tokens` is a rough count (four characters a token) of messages and tool schemas,
  calibrated per endpoint by what its errors report;
- :func:`trim_messages` makes a conversation fit: old tool results (observations) first, then the
  page data of the opening message once a later observation exists, then the oldest observation
  kept is shortened. The system prompt, the item and the instruction and the latest observation are
  kept; trimmed content is replaced by a short ``[trimmed ...]`` note, so tool calls still have their
  results and the turn count is unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.exceptions import ContextOverflowError
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from webtester.llm.conversation import message_text

CHARS_PER_TOKEN = 4
#: a reply keeps at least this many tokens when the completion is cut to fit the window
MIN_COMPLETION = 128
_OVERFLOW = re.compile(
    r"maximum context length|context[ _]length|exceeds? the (?:available )?context|context[ _]window"
    r"|exceed_context_size|context size",
    re.I,
)
_WINDOW = (
    re.compile(r"maximum context length is (\d+)", re.I),
    re.compile(r"context (?:window|size|length) (?:is|of) (\d+)", re.I),
    re.compile(r"\"?n_ctx\"?\s*[:=]\s*(\d+)", re.I),
)
_PROMPT = (
    re.compile(r"\((\d+) in the messages", re.I),
    re.compile(r"\"?n_prompt_tokens\"?\s*[:=]\s*(\d+)", re.I),
    re.compile(r"messages resulted in (\d+) tokens", re.I),
)
_REQUESTED = re.compile(r"you requested (\d+) tokens", re.I)
_PAGE_FRAME = re.compile(r"(<<<PAGE\n)(.*?)(\nPAGE>>>)", re.S)


@dataclass(frozen=True)
class Overflow:
    """What a context-length error says: the window and the request's size in tokens (None: not stated)."""

    window: int | None
    prompt_tokens: int | None
    requested_tokens: int | None


def _first_int(patterns: Sequence[re.Pattern[str]], text: str) -> int | None:
    for pattern in patterns:
        found = pattern.search(text)
        if found:
            return int(found.group(1))
    return None


def context_overflow(error: BaseException) -> Overflow | None:
    """The :class:`Overflow` a failed request reports, or None when it is not a context-length error."""
    body = getattr(error, "body", None)
    text = f"{error} {json.dumps(body, default=str) if body is not None else ''}"
    status = getattr(error, "status_code", None)
    if not isinstance(error, ContextOverflowError) and not (status in (400, 413, 500) and _OVERFLOW.search(text)):
        return None
    requested = _REQUESTED.search(text)
    return Overflow(_first_int(_WINDOW, text), _first_int(_PROMPT, text), int(requested.group(1)) if requested else None)


def estimate_tokens(messages: Sequence[BaseMessage], tools: Any = None) -> int:
    """A rough token count of ``messages`` and the tool schemas sent with them."""
    chars = sum(len(message_text(m)) + 16 for m in messages)
    for m in messages:
        if isinstance(m, AIMessage) and m.tool_calls:
            chars += len(json.dumps([c.get("args") for c in m.tool_calls], default=str))
    if tools:
        chars += len(json.dumps(tools, default=str))
    return chars // CHARS_PER_TOKEN + 1


def _note(chars: int, what: str) -> str:
    return f"[trimmed: {what}, {chars} characters, to fit the context window]"


def _latest_tool_results(messages: Sequence[BaseMessage]) -> set[int]:
    """Indices of the tool results that answer the latest model reply (the latest observation)."""
    last_ai = max((i for i, m in enumerate(messages) if isinstance(m, AIMessage)), default=-1)
    return {i for i in range(last_ai + 1, len(messages)) if isinstance(messages[i], ToolMessage)}


def trim_messages(messages: Sequence[BaseMessage], over: int) -> tuple[list[BaseMessage], int]:
    """``messages`` with about ``over`` tokens' worth of content trimmed away; returns them and the tokens saved."""
    out = list(messages)
    need = over * CHARS_PER_TOKEN
    saved = 0
    keep = _latest_tool_results(out)
    old_results = [i for i, m in enumerate(out) if isinstance(m, ToolMessage) and i not in keep]
    for i in old_results:  # oldest observations and tool results first
        if saved >= need:
            break
        text = message_text(out[i])
        note = _note(len(text), "an earlier tool result")
        if len(text) > len(note):
            out[i] = out[i].model_copy(update={"content": note})
            saved += len(text) - len(note)
    opening = next((i for i, m in enumerate(out) if isinstance(m, HumanMessage)), None)
    if saved < need and opening is not None:  # the first observation, inside the opening message
        text = message_text(out[opening])
        page = _PAGE_FRAME.search(text)
        if page:
            later = any(isinstance(m, ToolMessage) for m in out)
            data = page.group(2)
            cut = data if later else data[: max(0, len(data) - (need - saved) - 80)]
            note = _note(len(data) - len(cut), "the first page view" if later else "the rest of the page view")
            kept = "" if later else cut + "\n"
            shorter = text[: page.start(2)] + kept + note + text[page.end(2):]
            if len(shorter) < len(text):
                out[opening] = out[opening].model_copy(update={"content": shorter})
                saved += len(text) - len(shorter)
    if saved < need:  # the latest observation itself, keeping its beginning
        for i in sorted(keep):
            text = message_text(out[i])
            room = max(200, len(text) - (need - saved) - 80)
            if room < len(text):
                out[i] = out[i].model_copy(update={"content": text[:room] + "\n" + _note(len(text) - room, "the rest")})
                saved += len(text) - room
            if saved >= need:
                break
    return out, saved // CHARS_PER_TOKEN
