"""Where a model call sits in a run: its channel (checklist or a test item) and turn.

Scripted models, replay and the stub endpoint pick their reply by this key, so
they need no state of their own: the channel comes from the call's metadata
(``webtester_channel``) or from the ``Test item id:`` line of the prompt, and the
turn is the number of model replies already in the conversation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

CHANNEL_KEY = "webtester_channel"
CHECKLIST_CHANNEL = "checklist"
_ITEM_LINE = re.compile(r"^Test item id:\s*(\S+)", re.M)


def channel_from_texts(texts: Sequence[str]) -> str:
    """The channel named by the opening messages of a conversation (system + first user)."""
    for text in texts[:2]:
        match = _ITEM_LINE.search(text or "")
        if match:
            return match.group(1)
    return CHECKLIST_CHANNEL


def message_text(message: BaseMessage | Mapping[str, Any]) -> str:
    """The plain text of a LangChain message or an OpenAI-style message dict."""
    content = message.get("content") if isinstance(message, Mapping) else message.content
    if isinstance(content, str):
        return content
    parts = []
    for part in content or []:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, Mapping) and part.get("type") == "text":
            parts.append(str(part.get("text", "")))
    return "\n".join(parts)


def conversation_key(messages: Sequence[BaseMessage], metadata: Mapping[str, Any] | None = None) -> tuple[str, int]:
    """``(channel, turn)`` of a model call made with ``messages``."""
    channel = (metadata or {}).get(CHANNEL_KEY) or channel_from_texts([message_text(m) for m in messages])
    turn = sum(isinstance(m, AIMessage) for m in messages)
    return str(channel), turn
