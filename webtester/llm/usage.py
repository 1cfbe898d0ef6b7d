"""Token accounting from LangChain's ``usage_metadata``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage

from webtester.models import Cost


def add_usage(cost: Cost, message: AIMessage) -> Cost:
    """``cost`` plus one model call and the tokens ``message`` reports (0 when the endpoint reports none)."""
    usage: Mapping[str, Any] = message.usage_metadata or {}
    return cost + Cost(
        model_calls=1,
        input_tokens=int(usage.get("input_tokens", 0) or 0),
        output_tokens=int(usage.get("output_tokens", 0) or 0),
    )
