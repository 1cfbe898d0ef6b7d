"""Scripted chat models: real LangChain chat models whose replies come from a script.

They drive the real workflow (real tool calls, real structured output, real
browser) without a model endpoint, for tests and demos. A run made with one is
labelled ``scripted`` and is never presented as a model's result.

A script maps a channel (``checklist``, a test item id, or ``*`` for any item)
to the replies of that conversation, by turn. A reply is a dict:

- ``{"content": "text"}`` — a plain answer, no tool call;
- ``{"tool_calls": [{"name": "click", "args": {...}}]}`` — tool calls;
- ``{"structured": {...}}`` — a call of the single bound tool (structured output);
- ``{"verdict": {"status": "fail", "issue": ..., "actual": ...}}`` — a ``record_verdict`` call;
- ``{"invalid_tool_call": {"name": ..., "args": "not json"}}`` — arguments that do not parse;
- ``{"raise": "message"}`` — the model call fails with :class:`ScriptedModelError`;
- ``{"message": <LangChain message dict>}`` — a stored reply, returned as is (replay);
- ``{"when_seen": REGEX, "then": reply, "else": reply}`` — ``then`` when a tool output so far
  matches REGEX (only the latest one with ``"in_last": true``; ``"unless_seen": REGEX`` must
  then not match), else ``else``: verdicts that follow what the app showed;
- a callable ``(ScriptContext) -> dict | AIMessage``, for replies that depend on what tools returned.

Inside ``args``, ``{"$match": "regex"}`` is replaced by the regex's first group
(or whole match) in the most recent tool output that matches it, e.g. to pick
an element reference out of the last observation.

Script files (YAML or JSON) look like::

    checklist:
      - structured: {items: [...]}
    items:
      FT-01:
        - tool_calls: [{name: click, args: {ref: {$match: 'button "Book" \\[ref=(\\w+)\\]'}}}]
        - verdict: {status: pass}
      "*": {replies: [{verdict: {status: error, reason: not scripted}}], repeat_last: true}
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage, messages_from_dict
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict

from webtester.errors import InputError, StepError
from webtester.llm.conversation import CHECKLIST_CHANNEL, conversation_key, message_text

VERDICT_TOOL = "record_verdict"
#: The scripts shipped with the package (package data of ``webtester.llm``), loadable by name.
SHIPPED_SCRIPTS = Path(__file__).resolve().parent / "scripts"
_SCRIPT_SUFFIXES = (".yaml", ".yml", ".json")


class ScriptedModelError(StepError):
    """A scripted model call that fails on purpose, or a script that cannot answer."""


class ScriptError(InputError):
    """A script file or reply that is malformed."""


@dataclass
class ScriptContext:
    """What a scripted reply can look at."""

    channel: str
    turn: int
    messages: Sequence[BaseMessage]
    tool_names: list[str]

    def tool_outputs(self) -> list[str]:
        """Texts of the tool results so far, most recent first."""
        return [message_text(m) for m in reversed(self.messages) if isinstance(m, ToolMessage)]

    def match(self, pattern: str) -> str:
        """First group (or whole match) of ``pattern`` in the most recent tool output that has it,
        falling back to the opening messages (which carry the first observation)."""
        texts = self.tool_outputs() + [message_text(m) for m in reversed(self.messages[:2])]
        for text in texts:
            found = re.search(pattern, text)
            if found:
                return found.group(1) if found.groups() else found.group(0)
        raise ScriptedModelError(f"[{self.channel} turn {self.turn}] no tool output matches {pattern!r}")


Reply = Mapping[str, Any] | Callable[[ScriptContext], Any]


@dataclass
class ChannelScript:
    """The replies of one conversation, by turn."""

    replies: list[Reply]
    repeat_last: bool = False

    def at(self, turn: int, channel: str) -> Reply:
        if turn < len(self.replies):
            return self.replies[turn]
        if self.repeat_last and self.replies:
            return self.replies[-1]
        raise ScriptedModelError(f"script has no reply for {channel!r} turn {turn} ({len(self.replies)} scripted)")


@dataclass
class Script:
    """Replies per channel; ``*`` answers any test item without its own entry."""

    channels: dict[str, ChannelScript] = field(default_factory=dict)
    name: str = "scripted"

    @classmethod
    def build(cls, spec: Mapping[str, Any], name: str = "scripted") -> "Script":
        """From ``{"checklist": [...], "items": {id: [...] | {"replies": [...], "repeat_last": bool}}}``."""
        unknown = set(spec) - {"checklist", "items", "name"}
        if unknown:
            raise ScriptError(f"unknown script keys {sorted(unknown)} (expected checklist, items, name)")
        channels: dict[str, ChannelScript] = {}
        entries = {CHECKLIST_CHANNEL: spec.get("checklist", []), **dict(spec.get("items") or {})}
        for channel, value in entries.items():
            if isinstance(value, Mapping):
                channels[str(channel)] = ChannelScript(list(value.get("replies", [])), bool(value.get("repeat_last")))
            elif isinstance(value, list):
                channels[str(channel)] = ChannelScript(list(value))
            else:
                raise ScriptError(f"script entry for {channel!r} must be a list of replies or a mapping")
        return cls(channels, name=str(spec.get("name", name)))

    @classmethod
    def load(cls, path: str | Path) -> "Script":
        """Load a YAML or JSON script file, or a shipped script by name (see :func:`script_path`)."""
        import yaml

        path = script_path(path)
        try:
            spec = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise ScriptError(f"{path}: not valid YAML/JSON: {exc}") from exc
        if not isinstance(spec, Mapping):
            raise ScriptError(f"{path}: a script is a mapping with 'checklist' and 'items'")
        return cls.build(spec, name=path.stem)

    def reply(self, ctx: ScriptContext) -> AIMessage:
        """The reply for a conversation position."""
        script = self.channels.get(ctx.channel)
        if script is None and ctx.channel != CHECKLIST_CHANNEL:
            script = self.channels.get("*")
        if script is None:
            raise ScriptedModelError(f"script has no entry for {ctx.channel!r}")
        return to_ai_message(script.at(ctx.turn, ctx.channel), ctx)


def shipped_scripts() -> list[str]:
    """Names of the scripts shipped with the package (``portfolio_site``...)."""
    return sorted(p.stem for p in SHIPPED_SCRIPTS.iterdir() if p.suffix in _SCRIPT_SUFFIXES)


def script_path(spec: str | Path) -> Path:
    """The script file of ``spec``: a path to a file, or the name of a shipped script (``portfolio_site``,
    with or without its suffix). Raises :class:`ScriptError` naming the shipped scripts when neither exists."""
    path = Path(spec)
    if path.is_file():
        return path
    if path.name == str(spec):  # a bare name: look among the shipped scripts
        stem = path.stem if path.suffix in _SCRIPT_SUFFIXES else path.name
        for suffix in _SCRIPT_SUFFIXES:
            shipped = SHIPPED_SCRIPTS / f"{stem}{suffix}"
            if shipped.is_file():
                return shipped
    raise ScriptError(f"script file not found: {path} (shipped scripts, by name: {', '.join(shipped_scripts())})")


def _resolve(value: Any, ctx: ScriptContext) -> Any:
    if isinstance(value, Mapping):
        if set(value) == {"$match"}:
            return ctx.match(str(value["$match"]))
        return {k: _resolve(v, ctx) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, ctx) for v in value]
    return value


def to_ai_message(reply: Reply, ctx: ScriptContext) -> AIMessage:
    """Turn a reply spec into the AIMessage a chat model returns."""
    if callable(reply):
        reply = reply(ctx)
    if isinstance(reply, AIMessage):
        return reply
    if not isinstance(reply, Mapping):
        raise ScriptError(f"[{ctx.channel} turn {ctx.turn}] a reply must be a mapping, got {type(reply).__name__}")
    if "when_seen" in reply:
        return to_ai_message(reply["then"] if _seen(reply, ctx) else reply["else"], ctx)
    if "raise" in reply:
        raise ScriptedModelError(str(reply["raise"]))
    if "message" in reply:
        (message,) = messages_from_dict([reply["message"]])
        if not isinstance(message, AIMessage):
            raise ScriptError(f"[{ctx.channel} turn {ctx.turn}] stored reply is not an AI message")
        return message
    calls: list[dict[str, Any]] = []
    for call in reply.get("tool_calls", []):
        calls.append({"name": call["name"], "args": _resolve(call.get("args", {}), ctx)})
    if "structured" in reply:
        if len(ctx.tool_names) != 1:
            raise ScriptError(f"[{ctx.channel} turn {ctx.turn}] 'structured' needs exactly one bound tool, got {ctx.tool_names}")
        calls.append({"name": ctx.tool_names[0], "args": _resolve(reply["structured"], ctx)})
    if "verdict" in reply:
        calls.append({"name": VERDICT_TOOL, "args": _resolve(reply["verdict"], ctx)})
    invalid = []
    if "invalid_tool_call" in reply:
        bad = reply["invalid_tool_call"]
        invalid.append(
            {"name": bad.get("name"), "args": str(bad.get("args", "")), "id": f"call_{ctx.turn}_bad",
             "error": "arguments are not valid JSON", "type": "invalid_tool_call"}
        )
    tool_calls = [
        {"name": c["name"], "args": c["args"], "id": f"call_{ctx.channel}_{ctx.turn}_{i}", "type": "tool_call"}
        for i, c in enumerate(calls)
    ]
    content = str(reply.get("content", ""))
    usage = reply.get("usage") or _estimate_usage(ctx.messages, content, tool_calls, invalid)
    return AIMessage(content=content, tool_calls=tool_calls, invalid_tool_calls=invalid, usage_metadata=usage)


def _seen(reply: Mapping[str, Any], ctx: ScriptContext) -> bool:
    outputs = ctx.tool_outputs()[:1] if reply.get("in_last") else ctx.tool_outputs()
    found = any(re.search(str(reply["when_seen"]), out) for out in outputs)
    unless = reply.get("unless_seen")
    return found and not (unless and any(re.search(str(unless), out) for out in outputs))


def _estimate_usage(messages: Sequence[BaseMessage], content: str, calls: list, invalid: list) -> dict[str, int]:
    """Token figures for a scripted reply (about four characters a token), so accounting is exercised."""
    inp = max(1, sum(len(message_text(m)) for m in messages) // 4)
    out = max(1, (len(content) + len(json.dumps(calls)) + len(json.dumps(invalid))) // 4)
    return {"input_tokens": inp, "output_tokens": out, "total_tokens": inp + out}


class ScriptedChatModel(BaseChatModel):
    """A chat model that answers from a :class:`Script`; supports ``bind_tools`` and ``with_structured_output``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    script: Script
    label: str = "scripted"

    @property
    def _llm_type(self) -> str:
        return self.label

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"label": self.label, "script": self.script.name}

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any):
        """Bind tools the way OpenAI-compatible models do (OpenAI tool schemas passed on every call)."""
        formatted = [convert_to_openai_tool(t) for t in tools]
        return self.bind(tools=formatted, tool_choice=tool_choice, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        metadata = run_manager.metadata if run_manager else None
        channel, turn = conversation_key(messages, metadata)
        names = [t["function"]["name"] for t in kwargs.get("tools") or []]
        message = self.script.reply(ScriptContext(channel, turn, messages, names))
        return ChatResult(generations=[ChatGeneration(message=message)])
