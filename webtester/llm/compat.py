"""``ChatOpenAI`` for OpenAI-compatible servers that lack features (llama.cpp, vLLM, Ollama, LM Studio).

:class:`CompatChatOpenAI` differs from ``ChatOpenAI`` on the wire only where such servers need it:

- an assistant message with tool calls goes out with ``content: ""``, never ``null`` (a string is
  what such servers validate);
- the reply limit goes out as ``max_tokens`` (``max_completion_tokens`` is ignored by such servers),
  unless the endpoint refuses ``max_tokens`` and asks for ``max_completion_tokens`` (OpenAI's reasoning
  models): then the request is sent again with that, and so are the later ones;
- every request is kept within the context window, when known (:attr:`CompatChatOpenAI.context_window`,
  or learned from the first context-length error): the conversation is trimmed
  (:func:`webtester.llm.context.trim_messages`) and the reply limit cut to what is left; a request
  that fails with a context-length error is trimmed and retried once;
- a call given ``deadline`` (a ``time.monotonic()`` value, e.g. the end of a test item's time) has its
  request timeout cut to the time left, so a slow server cannot hold the caller past it (each retry of
  the client gets that bound too); a call made at or after the deadline raises :class:`DeadlinePassed`.

What it learns of the endpoint (the window, the token ratio, the structured-output method that works,
the model name the server reports, whether replies carry token counts and tool calls, how long the first
reply took) is kept in :attr:`CompatChatOpenAI.endpoint_memory` for the rest of the run; its
:meth:`EndpointMemory.capabilities` is what the run's manifest records of the endpoint. A reply whose
request was trimmed says so in ``response_metadata["context_trimmed"]``.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from langchain_openai import ChatOpenAI
from pydantic import PrivateAttr

from webtester.llm.context import MIN_COMPLETION, Overflow, context_overflow, estimate_tokens, trim_messages

TRIMMED_KEY = "context_trimmed"
#: where servers' model lists give the context window (vLLM, LM Studio, llama.cpp's llama-server, others)
_WINDOW_KEYS = ("max_model_len", "max_context_length", "context_length", "context_window", "n_ctx")
_WANTS_COMPLETION_PARAM = re.compile(r"max_tokens.*max_completion_tokens", re.I | re.S)


@dataclass
class EndpointMemory:
    """What a run has learned about its endpoint."""

    context_window: int | None = None  # tokens, from a context-length error
    token_ratio: float = 1.0  # the server's tokens per estimated token
    structured_method: str | None = None  # the structured-output method that worked after a fallback
    reported_model: str | None = None  # the model name the server reports in its replies
    max_completion_tokens: bool = False  # the endpoint wants the reply limit as max_completion_tokens
    refused: list[str] = field(default_factory=list)  # features the server refused: structured-output methods, ...
    replies: int = 0  # replies received
    first_reply_seconds: float | None = None  # how long the first request took
    usage_reported: bool | None = None  # the replies carry token counts
    tool_calls_seen: bool = False  # a reply to a request with tools held tool calls
    trimmed_requests: int = 0  # requests trimmed to fit the context window
    server_window: int | None = None  # the context window the server's model list reports
    models_listed: str | None = None  # what asking the server's model list gave: "window", "no window", or the error

    def capabilities(self) -> dict[str, Any]:
        """What the endpoint has shown so far, for the run's manifest (only what was observed)."""
        seen: dict[str, Any] = {
            "replies": self.replies,
            "reply_limit_parameter": "max_completion_tokens" if self.max_completion_tokens else "max_tokens",
        }
        optional = {"reported_model": self.reported_model, "first_reply_seconds": self.first_reply_seconds,
                    "usage_reported": self.usage_reported, "structured_method": self.structured_method,
                    "context_window": self.context_window, "server_context_window": self.server_window,
                    "model_list": self.models_listed}
        seen.update({k: v for k, v in optional.items() if v is not None})
        if self.tool_calls_seen:
            seen["tool_calls"] = True
        if self.refused:
            seen["refused"] = list(self.refused)
        if self.trimmed_requests:
            seen["trimmed_requests"] = self.trimmed_requests
        return seen


def endpoint_memory(model: Any) -> EndpointMemory | None:
    """The :class:`EndpointMemory` of a chat model, or None for models that keep none (scripted, replay)."""
    memory = getattr(model, "endpoint_memory", None)
    return memory if isinstance(memory, EndpointMemory) else None


class DeadlinePassed(TimeoutError):
    """A model call asked for after its deadline."""


def _bounded(kwargs: dict[str, Any], configured: Any) -> dict[str, Any]:
    """``kwargs`` with a ``deadline`` turned into a request ``timeout`` of at most the time left."""
    deadline = kwargs.get("deadline")
    if deadline is None:
        return kwargs
    options = {k: v for k, v in kwargs.items() if k != "deadline"}
    left = float(deadline) - time.monotonic()
    if left <= 0:
        raise DeadlinePassed("the deadline passed before the request was sent")
    limit = configured if isinstance(configured, (int, float)) and configured > 0 else None
    options["timeout"] = min(limit, left) if limit else left
    return options


class CompatChatOpenAI(ChatOpenAI):
    """``ChatOpenAI`` that sends what servers lacking features accept, and fits requests to the context window."""

    context_window: int | None = None
    """The endpoint's context window in tokens, when known up front."""

    _memory: EndpointMemory = PrivateAttr(default_factory=EndpointMemory)

    @property
    def endpoint_memory(self) -> EndpointMemory:
        """What this model has learned about its endpoint."""
        return self._memory

    def _get_request_payload(self, input_: LanguageModelInput, *, stop: list[str] | None = None, **kwargs: Any) -> dict:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        tokens = payload.pop("max_completion_tokens", None)
        if tokens is not None and self._memory.max_completion_tokens:
            payload["max_completion_tokens"] = tokens
        elif tokens is not None:
            payload["max_tokens"] = tokens
        for message in payload.get("messages") or []:
            if isinstance(message, dict) and message.get("content") is None:
                message["content"] = ""
        return payload

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        sent, options, note = self._fit(messages, kwargs)
        started = time.monotonic()
        try:
            result = self._send(sent, stop, run_manager, options)
        except Exception as exc:
            overflow = context_overflow(exc)
            if overflow is None:
                raise
            self._learn(overflow, sent, options)
            retry, retry_options, note = self._fit(messages, kwargs)
            if note is None or (retry == sent and retry_options == options):
                raise  # nothing left to trim: the error stands
            result = self._send(retry, stop, run_manager, retry_options)
        self._remember(result, note, tools=bool(kwargs.get("tools")), seconds=time.monotonic() - started)
        return result

    def _send(self, messages: list[BaseMessage], stop: list[str] | None, run_manager: CallbackManagerForLLMRun | None,
              options: dict[str, Any]) -> ChatResult:
        """One request; sent again with ``max_completion_tokens`` when the endpoint refuses ``max_tokens``."""
        try:
            return super()._generate(messages, stop, run_manager, **_bounded(options, self.request_timeout))
        except Exception as exc:
            refused = getattr(exc, "status_code", None) == 400 and _WANTS_COMPLETION_PARAM.search(str(exc))
            if not refused or self._memory.max_completion_tokens:
                raise
            self._memory.max_completion_tokens = True
            return super()._generate(messages, stop, run_manager, **_bounded(options, self.request_timeout))

    def _window(self) -> int | None:
        known = [w for w in (self._memory.context_window, self.context_window, self._memory.server_window) if w]
        return min(known) if known else None

    def known_window(self) -> int | None:
        """The context window in tokens as far as it is known: configured, reported by the server's model list
        (asked once, on first use: vLLM's ``max_model_len``, LM Studio's ``max_context_length``, ...), or learned
        from a context-length error; None when nothing says."""
        if self._memory.models_listed is None and self.context_window is None:
            self._list_models()
        return self._window()

    def _list_models(self) -> None:
        """Ask ``GET /models`` for the served model's context window (a server that has no such list is fine)."""
        try:
            listed = self.root_client.with_options(timeout=10.0, max_retries=0).models.list()
            entries = [entry.model_dump() for entry in listed.data]
        except Exception as exc:  # noqa: BLE001 - an optional endpoint: its absence is recorded, never fatal
            self._memory.models_listed = f"not available: {type(exc).__name__}"
            return
        mine = [e for e in entries if e.get("id") == self.model_name] or (entries if len(entries) == 1 else [])
        for entry in mine:
            for key in _WINDOW_KEYS:
                value = entry.get(key) or (entry.get("meta") or {}).get(key)
                if isinstance(value, int) and value > 0:
                    self._memory.server_window = value
                    self._memory.models_listed = f"window from {key}"
                    return
        self._memory.models_listed = "no window"

    def _completion(self, options: dict[str, Any]) -> int:
        return int(options.get("max_tokens") or self.max_tokens or 0)

    def _fit(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> tuple[list[BaseMessage], dict[str, Any], str | None]:
        """The messages and options to send so the request fits the window, and a note of what was cut (None: nothing)."""
        window = self._window()
        if window is None:
            return messages, kwargs, None
        ratio = self._memory.token_ratio
        budget = window - window // 20  # a margin for the estimate
        prompt = math.ceil(estimate_tokens(messages, kwargs.get("tools")) * ratio)
        completion = self._completion(kwargs)
        floor = min(completion, max(MIN_COMPLETION, window // 4))
        if prompt + completion <= budget:
            return messages, kwargs, None
        notes = []
        out = messages
        if prompt + floor > budget:
            out, saved = trim_messages(messages, math.ceil((prompt + floor - budget) / ratio))
            if saved:
                prompt -= math.floor(saved * ratio)
                notes.append(f"about {math.floor(saved * ratio)} tokens of earlier content trimmed")
        options = dict(kwargs)
        if completion and prompt + completion > budget:
            options["max_tokens"] = max(MIN_COMPLETION, budget - prompt)
            notes.append(f"reply limited to {options['max_tokens']} tokens")
        if not notes:
            return messages, kwargs, None
        return out, options, f"context window {window} tokens: " + "; ".join(notes)

    def _learn(self, overflow: Overflow, sent: list[BaseMessage], options: dict[str, Any]) -> None:
        """Remember the window and how the server's token count compares with the estimate."""
        estimate = estimate_tokens(sent, options.get("tools"))
        prompt = overflow.prompt_tokens
        if prompt is None and overflow.requested_tokens is not None:
            prompt = overflow.requested_tokens - self._completion(options)
        if prompt and prompt > 0:
            self._memory.token_ratio = min(4.0, max(0.5, prompt / estimate))
        window = overflow.window or math.floor((prompt or estimate * self._memory.token_ratio) * 3 / 4)
        self._memory.context_window = min(window, self._memory.context_window or window)

    def _remember(self, result: ChatResult, note: str | None, *, tools: bool, seconds: float) -> None:
        memory = self._memory
        reported = (result.llm_output or {}).get("model_name")
        if reported:
            memory.reported_model = str(reported)
        if memory.replies == 0:
            memory.first_reply_seconds = round(seconds, 3)
        memory.replies += 1
        memory.trimmed_requests += bool(note)
        for generation in result.generations:
            message = generation.message
            usage = getattr(message, "usage_metadata", None)
            memory.usage_reported = bool(memory.usage_reported or usage)
            memory.tool_calls_seen |= tools and bool(getattr(message, "tool_calls", None))
            if note:
                message.response_metadata[TRIMMED_KEY] = note
