"""Record every model exchange of a run, and replay a run from the record with no network.

Recording is a LangChain callback handler, so it works for any chat model
(``ChatOpenAI`` included): each finished call appends one JSON line to
``exchanges.jsonl`` with its channel and turn, a digest of the request, the
messages new since the previous reply, and the reply (or the error), with every
secret redacted (:mod:`webtester.redact`).

Replay serves the recorded replies by ``(channel, turn)`` through a
:class:`~webtester.llm.scripted.ScriptedChatModel` labelled ``replay``; a
recorded error is raised again, so a replayed run takes the same path and
reaches the same verdicts.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage, messages_to_dict
from langchain_core.outputs import LLMResult

from webtester.errors import StepError
from webtester.llm.conversation import conversation_key
from webtester.llm.scripted import ChannelScript, Script, ScriptedChatModel
from webtester.redact import redact, redact_data


class ReplayError(StepError):
    """An exchanges file that cannot be replayed."""


def _digest(messages: list[BaseMessage]) -> str:
    payload = json.dumps(messages_to_dict(messages), sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


class ExchangeRecorder(BaseCallbackHandler):
    """Appends each model exchange to a JSONL file (thread-safe)."""

    raise_error = False

    def __init__(self, path: str | Path, *, stage: str = "") -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.stage = stage
        self._pending: dict[UUID, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self.count = 0

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], *, run_id: UUID,
        metadata: dict[str, Any] | None = None, **kwargs: Any,
    ) -> None:
        convo = messages[0]
        channel, turn = conversation_key(convo, metadata)
        last_ai = max((i for i, m in enumerate(convo) if isinstance(m, AIMessage)), default=-1)
        params = (kwargs.get("invocation_params") or {})
        self._pending[run_id] = {
            "channel": channel,
            "turn": turn,
            "model": params.get("model") or params.get("model_name") or (serialized or {}).get("name"),
            "tools": [t.get("function", {}).get("name") for t in params.get("tools") or [] if isinstance(t, dict)],
            "request_sha": _digest(convo),
            "new_messages": messages_to_dict(convo[last_ai + 1 :]),
            "started": time.time(),
        }

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        entry = self._pending.pop(run_id, None)
        if entry is None:
            return
        message = response.generations[0][0].message  # type: ignore[union-attr]
        entry["response"] = messages_to_dict([message])[0]
        reported = message.response_metadata.get("model_name")
        if reported:
            entry["reported_model"] = reported  # the model the server says answered
        self._write(entry)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        entry = self._pending.pop(run_id, None)
        if entry is None:
            return
        entry["error"] = f"{type(error).__name__}: {error}"
        self._write(entry)

    def _write(self, entry: dict[str, Any]) -> None:
        entry["seconds"] = round(time.time() - entry.pop("started"), 3)
        line = redact(json.dumps(redact_data(entry), ensure_ascii=False, default=str))
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            self.count += 1


def load_exchanges(path: str | Path) -> dict[tuple[str, int], dict[str, Any]]:
    """The last recorded exchange per ``(channel, turn)`` (a retried call overrides its failed try)."""
    path = Path(path)
    if not path.exists():
        raise ReplayError(f"no recorded exchanges at {path}")
    table: dict[tuple[str, int], dict[str, Any]] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            key = (str(entry["channel"]), int(entry["turn"]))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"{path}:{lineno}: not a recorded exchange ({exc})") from exc
        if "response" not in entry and "error" not in entry:
            raise ReplayError(f"{path}:{lineno}: exchange has neither response nor error")
        table[key] = entry
    return table


def replay_script(path: str | Path) -> Script:
    """A script that answers each ``(channel, turn)`` with its recorded reply or error."""
    table = load_exchanges(path)
    by_channel: dict[str, dict[int, dict[str, Any]]] = {}
    for (channel, turn), entry in table.items():
        by_channel.setdefault(channel, {})[turn] = entry
    channels = {}
    for channel, turns in by_channel.items():
        replies: list[Any] = []
        for turn in range(max(turns) + 1):
            recorded = turns.get(turn)
            if recorded is None:
                replies.append({"raise": f"replay: no recorded exchange for {channel!r} turn {turn}"})
            elif "response" in recorded:
                replies.append({"message": recorded["response"]})
            else:
                replies.append({"raise": f"replayed model error: {recorded['error']}"})
        channels[channel] = ChannelScript(replies)
    return Script(channels, name=f"replay:{path}")


def replay_model(path: str | Path) -> ScriptedChatModel:
    """A chat model that replays ``exchanges.jsonl`` with no network."""
    return ScriptedChatModel(script=replay_script(path), label="replay")
