"""Ask a chat model for a structured answer: validate it, say what was wrong, retry a bounded number of times.

One loop serves every structured request (checklist generation, the LLM
judge): the model is bound to ``schema`` with ``with_structured_output``; each
reply goes to the caller's ``check``, which returns the usable value or raises
:class:`ReplyRejected` naming the problem. A rejected reply is answered with a
repair prompt (as the result of its tool calls, or as a user message when it
made none) and the model is asked again, at most ``attempts`` times in all;
then :class:`StructuredOutputError` carries the last problem. Every call's
tokens are counted, and a failed call is counted as a call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel

from webtester.errors import StepError
from webtester.llm.usage import FAILED_CALL, ModelCallError, add_usage
from webtester.models import Cost

T = TypeVar("T")
Method = Literal["function_calling", "json_schema", "json_mode"]


class ReplyRejected(ValueError):
    """Raised by a check: the reply cannot be used; the message says why (it is shown to the model)."""


class StructuredOutputError(StepError):
    """No usable structured answer within the attempt bound."""

    def __init__(self, message: str, *, problem: str, attempts: int, cost: Cost) -> None:
        super().__init__(message)
        self.problem = problem
        self.attempts = attempts
        self.cost = cost


@dataclass(frozen=True)
class Reply:
    """One model reply: the raw message and what structured-output parsing made of it."""

    raw: AIMessage
    parsed: Any
    parsing_error: Any


@dataclass
class StructuredAnswer(Generic[T]):
    """The accepted value, the attempts it took, what was wrong with the rejected ones, and the cost."""

    value: T
    attempts: int
    cost: Cost
    rejected: list[str] = field(default_factory=list)  # "attempt N: problem", one per rejected reply


def repair_messages(raw: AIMessage, text: str) -> list[BaseMessage]:
    """The rejected reply and the repair prompt ``text``, answering each of its tool calls.

    Arguments that did not parse are not sent back (some endpoints refuse them);
    a reply without a usable tool call gets ``text`` as a user message.
    """
    calls = [c for c in raw.tool_calls if c.get("id")]
    out: list[BaseMessage] = [AIMessage(content=raw.content, tool_calls=calls)]
    out += [ToolMessage(content=text, tool_call_id=str(c["id"])) for c in calls]
    if not calls:
        out.append(HumanMessage(content=text))
    return out


def ask_structured(
    model: BaseChatModel,
    schema: type[BaseModel],
    messages: Sequence[BaseMessage],
    check: Callable[[Reply], T],
    *,
    repair_prompt: Callable[[str], str],
    attempts: int,
    method: Method = "function_calling",
    config: RunnableConfig | None = None,
    what: str = "structured answer",
) -> StructuredAnswer[T]:
    """Ask ``model`` for a ``schema`` answer until ``check`` accepts one, at most ``attempts`` times.

    ``repair_prompt(problem)`` is the text sent back after a rejected reply.
    A model call that fails (after the client's own retries) raises :class:`ModelCallError`
    with the cost so far, the failed call counted.
    """
    if attempts < 1:
        raise ValueError("attempts must be at least 1")
    structured = model.with_structured_output(schema, method=method, include_raw=True)
    history = list(messages)
    cost, problem = Cost(), ""
    rejected: list[str] = []
    for attempt in range(1, attempts + 1):
        try:
            result = structured.invoke(history, config=config)
        except Exception as exc:
            raise ModelCallError(exc, cost + FAILED_CALL) from exc
        out: dict[str, Any] = result if isinstance(result, dict) else {"parsed": result}  # include_raw gives a dict
        raw = out.get("raw")
        if not isinstance(raw, AIMessage):
            raw = AIMessage(content="")
        cost = add_usage(cost, raw)
        reply = Reply(raw=raw, parsed=out.get("parsed"), parsing_error=out.get("parsing_error"))
        try:
            value = check(reply)
        except ReplyRejected as exc:
            problem = str(exc)
            rejected.append(f"attempt {attempt}: {problem}")
            history += repair_messages(raw, repair_prompt(problem))
            continue
        return StructuredAnswer(value=value, attempts=attempt, cost=cost, rejected=rejected)
    raise StructuredOutputError(
        f"no usable {what} after {attempts} attempts: {problem}", problem=problem, attempts=attempts, cost=cost,
    )
