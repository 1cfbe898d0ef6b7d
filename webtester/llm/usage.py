"""Model-call accounting: tokens from LangChain's ``usage_metadata``, and failed calls (a failed call is a call)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage

from webtester.errors import StepError
from webtester.models import Cost

#: One model call that gave no reply (it failed after the client's retries).
FAILED_CALL = Cost(model_calls=1)


class ModelCallError(StepError):
    """A model call that failed after the client's retries; ``cost`` includes it."""

    def __init__(self, error: BaseException, cost: Cost) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.cost = cost


def add_usage(cost: Cost, message: AIMessage) -> Cost:
    """``cost`` plus one model call and the tokens ``message`` reports (0 when the endpoint reports none)."""
    usage: Mapping[str, Any] = message.usage_metadata or {}
    return cost + Cost(
        model_calls=1,
        input_tokens=int(usage.get("input_tokens", 0) or 0),
        output_tokens=int(usage.get("output_tokens", 0) or 0),
    )
