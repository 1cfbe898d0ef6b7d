"""Ask a chat model for a structured answer: validate it, say what was wrong, retry a bounded number of times.

One loop serves every structured request (checklist generation, the LLM
judge): the model is bound to ``schema`` with ``with_structured_output``; each
reply goes to the caller's ``check``, which returns the usable value or raises
:class:`ReplyRejected` naming the problem. A rejected reply is answered with a
repair prompt (as the result of its tool calls, or as a user message when it
made none) and the model is asked again, at most ``attempts`` times in all;
then :class:`StructuredOutputError` carries the last problem. Every call's
tokens are counted, and a failed call is counted as a call.

A server that rejects the method asked for (an HTTP 400/500 naming ``response_format``,
``json_schema``, ``json_object`` or ``tool_choice``) is asked again with the next one in
:data:`FALLBACK_ORDER`: function calling, ``json_object``, then JSON in the text, validated
against ``schema`` here. The method that worked is kept in the model's
:class:`~webtester.llm.compat.EndpointMemory` and used first for the rest of the run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig, RunnableSequence
from pydantic import BaseModel, ValidationError

from webtester.errors import StepError
from webtester.llm.compat import endpoint_memory
from webtester.llm.usage import FAILED_CALL, ModelCallError, add_usage
from webtester.models import Cost

T = TypeVar("T")
Method = Literal["function_calling", "json_schema", "json_mode", "text"]
#: the methods tried, from the one asked for onwards, when a server rejects one
FALLBACK_ORDER: tuple[Method, ...] = ("json_schema", "function_calling", "json_mode", "text")
_REJECTED_FEATURE = re.compile(r"response_format|json_schema|json_object|'text'|tool_choice", re.I)


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


def json_in_text(text: str) -> Any:
    """The first JSON object or array in ``text`` (inside a code fence when there is one), or None."""
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


def fallback_method(method: Method, error: BaseException) -> Method | None:
    """The method to try after a server rejected ``method`` with ``error``; None when it did not reject it."""
    status = getattr(error, "status_code", None)
    if status not in (400, 422, 500) or not _REJECTED_FEATURE.search(str(error)):
        return None
    later = FALLBACK_ORDER[FALLBACK_ORDER.index(method) + 1:]
    return later[0] if later else None


def _json_instruction(schema: type[BaseModel]) -> HumanMessage:
    return HumanMessage(content="Answer with one JSON object only, no other text, matching this JSON schema:\n"
                        + json.dumps(schema.model_json_schema()))


def _invoke(model: BaseChatModel, schema: type[BaseModel], method: Method, history: list[BaseMessage],
            config: RunnableConfig | None) -> Any:
    """One structured request: LangChain's structured output, or for ``text`` JSON in the reply validated here."""
    if method in ("json_mode", "text"):
        history = [*history, _json_instruction(schema)]  # json_object and plain text carry no schema themselves
    if method != "text":
        chain = model.with_structured_output(schema, method=method)
        if not isinstance(chain, RunnableSequence):  # a model with its own structured output
            return model.with_structured_output(schema, method=method, include_raw=True).invoke(history, config=config)
        # the request is made here, on the caller's thread (``include_raw=True`` runs it on a worker thread that
        # Ctrl-C cannot stop: the interrupt then waits for the reply), and parsed as ``include_raw`` parses it
        raw = chain.first.invoke(history, config=config)
        try:
            parser = chain.last if len(chain.steps) == 2 else RunnableSequence(*chain.steps[1:])
            return {"raw": raw, "parsed": parser.invoke(raw, config=config), "parsing_error": None}
        except Exception as exc:
            return {"raw": raw, "parsed": None, "parsing_error": exc}
    raw = model.invoke(history, config=config)
    data = json_in_text(raw.content if isinstance(raw.content, str) else "")
    if data is None:
        return {"raw": raw, "parsed": None, "parsing_error": "the reply holds no JSON object"}
    try:
        return {"raw": raw, "parsed": schema.model_validate(data), "parsing_error": None}
    except ValidationError as exc:
        return {"raw": raw, "parsed": None, "parsing_error": exc}


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
    with the cost so far, the failed call counted; a call the server refused for its method is
    counted and asked again with the next method (see :func:`fallback_method`).
    """
    if attempts < 1:
        raise ValueError("attempts must be at least 1")
    memory = endpoint_memory(model)
    known = memory.structured_method if memory is not None else None
    if known in FALLBACK_ORDER and FALLBACK_ORDER.index(known) > FALLBACK_ORDER.index(method):
        method = known  # the server rejected ``method`` earlier in the run
    history = list(messages)
    cost, problem = Cost(), ""
    rejected: list[str] = []
    attempt = 0
    while attempt < attempts:
        try:
            result = _invoke(model, schema, method, history, config)
        except Exception as exc:
            fallback = fallback_method(method, exc)
            if fallback is None:
                raise ModelCallError(exc, cost + FAILED_CALL) from exc
            if memory is not None:
                memory.refused.append(method)
                memory.structured_method = fallback
            cost, method = cost + FAILED_CALL, fallback
            continue
        attempt += 1
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
