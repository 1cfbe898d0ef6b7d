"""A tiny OpenAI-compatible ``/v1/chat/completions`` endpoint on 127.0.0.1 serving scripted replies.

It exercises the real ``ChatOpenAI`` wire path (tool schemas sent, tool calls
and usage parsed) with no model. Replies come from a
:class:`~webtester.llm.scripted.Script`, chosen by the conversation's channel
and turn exactly as the scripted chat model chooses them. Some reply keys only
make sense here:

- ``{"http_error": 503, "times": 1}`` answers the first ``times`` requests at that
  position with that status (a transient failure the client retries) and then
  serves the rest of the reply; ``"error_message"`` sets the error message, and
  ``"echo_auth": true`` appends the request's ``Authorization`` header to it (a
  faulty endpoint that echoes the API key it was given);
- ``{"delay": 30}`` waits that many seconds before answering (an endpoint that
  does not answer in time); with ``"delay_times": N`` only the first N requests at that
  position wait (a slow first answer that a retry gets past).

``strict=True`` makes it behave like local servers with fewer features (as observed of
llama-cpp-python's server): HTTP 500 with a validation message for a message whose
``content`` is null, for a ``response_format`` other than ``text`` / ``json_object`` and for
``tool_choice: "required"``; tools sent without ``tool_choice`` are ignored (the reply's tool
calls come back as JSON text, as does a structured reply when no tool is bound); the reply names
``reported_model`` (default :data:`STRICT_MODEL`), not the model asked for. ``context_window=N``
answers a request whose rough size (four characters a token, plus ``max_tokens``) exceeds N with
HTTP 400 "This model's maximum context length is N tokens. However, you requested M tokens ..."
and ``GET /v1/models`` reports it as ``max_model_len`` (as vLLM does).

Run it standalone: ``python -m webtester.llm.stub_server SCRIPT.yaml [--port 8399] [--strict]
[--context-window N] [--reported-model NAME]`` and point ``OPENAI_BASE_URL`` at the printed URL.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from webtester.llm.conversation import conversation_key, message_text
from webtester.llm.scripted import Script, ScriptContext, ScriptedModelError, to_ai_message

_STUB_KEYS = ("http_error", "times", "error_message", "echo_auth")
#: the model name a strict stub reports when none is given
STRICT_MODEL = "stub-local-model.gguf"
_TEXT_TOOL = "answer"  # the tool a structured reply is written for when none is bound (strict mode)


def to_langchain(messages: list[dict[str, Any]]) -> list[BaseMessage]:
    """OpenAI chat messages as LangChain messages (enough for script matching)."""
    out: list[BaseMessage] = []
    for m in messages:
        role, content = m.get("role"), m.get("content") or ""
        if role in ("system", "developer"):
            out.append(SystemMessage(content=content))
        elif role == "user":
            out.append(HumanMessage(content=content))
        elif role == "assistant":
            calls = [
                {"name": c["function"]["name"], "args": _loads_or_raw(c["function"].get("arguments")), "id": c.get("id")}
                for c in m.get("tool_calls") or []
            ]
            out.append(AIMessage(content=content, tool_calls=[c for c in calls if isinstance(c["args"], dict)]))
        elif role == "tool":
            out.append(ToolMessage(content=content, tool_call_id=m.get("tool_call_id", "")))
    return out


def _loads_or_raw(text: str | None) -> Any:
    try:
        return json.loads(text or "{}")
    except json.JSONDecodeError:
        return text


def to_openai(message: AIMessage, model: str) -> dict[str, Any]:
    """A chat.completion response body for ``message``."""
    calls = [
        {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": json.dumps(c["args"])}}
        for c in message.tool_calls
    ] + [
        {"id": c.get("id") or "call_bad", "type": "function", "function": {"name": c.get("name") or "", "arguments": c.get("args") or ""}}
        for c in message.invalid_tool_calls
    ]
    reply: dict[str, Any] = {"role": "assistant", "content": message.content or None}
    if calls:
        reply["tool_calls"] = calls
    usage = message.usage_metadata or {"input_tokens": 0, "output_tokens": 0}
    return {
        "id": f"chatcmpl-stub-{time.time_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": reply, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {
            "prompt_tokens": usage["input_tokens"],
            "completion_tokens": usage["output_tokens"],
            "total_tokens": usage["input_tokens"] + usage["output_tokens"],
        },
    }


def _error(status: int, message: str) -> tuple[int, dict[str, Any]]:
    kind = "invalid_request_error" if status < 500 else "server_error"
    return status, {"error": {"message": message, "type": kind}}


def as_text(message: AIMessage) -> AIMessage:
    """``message`` as a server that ignored the tools answers: its tool calls' arguments written as JSON text."""
    args = [c["args"] for c in message.tool_calls]
    text = json.dumps(args[0] if len(args) == 1 else args)
    return AIMessage(content=f"{message_text(message)}{text}", usage_metadata=message.usage_metadata)


class StubServer:
    """Serve ``script`` at ``http://127.0.0.1:<port>/v1`` until :meth:`stop`.

    ``requests`` keeps every request body received, for inspection; ``strict``, ``context_window``
    and ``reported_model``: see the module's description.
    """

    def __init__(
        self, script: Script, port: int = 0, *, strict: bool = False, context_window: int | None = None,
        reported_model: str | None = None,
    ) -> None:
        self.script = script
        self.strict = strict
        self.context_window = context_window
        self.reported_model = reported_model or (STRICT_MODEL if strict else None)
        self.requests: list[dict[str, Any]] = []
        self._failures: Counter[tuple[str, int]] = Counter()
        self._delays: Counter[tuple[str, int]] = Counter()
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                return

            def do_GET(self) -> None:  # noqa: N802
                if not self.path.rstrip("/").endswith("/models"):
                    return self._send(404, {"error": {"message": f"unknown path {self.path}"}})
                entry: dict[str, Any] = {"id": server.reported_model or "stub", "object": "model"}
                if server.context_window:
                    entry["max_model_len"] = server.context_window  # as vLLM reports it
                self._send(200, {"object": "list", "data": [entry]})

            def do_POST(self) -> None:  # noqa: N802
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": f"unknown path {self.path}"}})
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                status, payload = server.answer(body, authorization=self.headers.get("Authorization", ""))
                self._send(status, payload)

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting (timeout)
                    pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="llm-stub", daemon=True)
        self._thread.start()

    def answer(self, body: dict[str, Any], *, authorization: str = "") -> tuple[int, dict[str, Any]]:
        """Status and JSON body for one chat-completions request (``authorization``: its header)."""
        with self._lock:
            self.requests.append(body)
        refused = self.refusal(body)
        if refused is not None:
            return refused
        messages = to_langchain(body.get("messages", []))
        channel, turn = conversation_key(messages)
        names = [t["function"]["name"] for t in body.get("tools") or []]
        ctx = ScriptContext(channel, turn, messages, names or ([_TEXT_TOOL] if self.strict else []))
        try:
            script = self.script.channels.get(channel) or self.script.channels.get("*")
            spec = script.at(turn, channel) if script else None
            if isinstance(spec, dict) and "delay" in spec:
                with self._lock:
                    self._delays[(channel, turn)] += 1
                    delayed = "delay_times" not in spec or self._delays[(channel, turn)] <= int(spec["delay_times"])
                if delayed:
                    time.sleep(float(spec["delay"]))
                spec = {k: v for k, v in spec.items() if k not in ("delay", "delay_times")}
            if isinstance(spec, dict) and "http_error" in spec:
                with self._lock:
                    self._failures[(channel, turn)] += 1
                    failing = self._failures[(channel, turn)] <= int(spec.get("times", 1))
                if failing:
                    error = str(spec.get("error_message") or "stub transient failure")
                    if spec.get("echo_auth"):
                        error += f" {authorization}"
                    return int(spec["http_error"]), {"error": {"message": error, "type": "server_error"}}
                spec = {k: v for k, v in spec.items() if k not in _STUB_KEYS}
            message = to_ai_message(spec, ctx) if spec is not None else self.script.reply(ctx)
        except ScriptedModelError as exc:
            return 400, {"error": {"message": str(exc), "type": "invalid_request_error"}}
        if self.strict and message.tool_calls and not (names and body.get("tool_choice")):
            message = as_text(message)
        return 200, to_openai(message, self.reported_model or str(body.get("model", "stub")))

    def refusal(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        """The error a strict or size-limited server gives ``body``, or None when it serves it."""
        messages = body.get("messages") or []
        if self.strict:
            for i, m in enumerate(messages):
                if m.get("content") is None:
                    return _error(500, f"1 validation error: messages.{i}.content: Input should be a valid string")
            kind = (body.get("response_format") or {}).get("type", "text")
            if kind not in ("text", "json_object"):
                return _error(500, "1 validation error: response_format.type: Input should be 'text' or 'json_object'")
            if body.get("tool_choice") == "required":
                return _error(500, "tool_choice 'required' is not supported")
        if self.context_window:
            tools = body.get("tools") if body.get("tool_choice") or not self.strict else None
            prompt = (len(json.dumps(messages)) + len(json.dumps(tools or []))) // 4
            completion = int(body.get("max_tokens") or 0)
            if prompt + completion > self.context_window:
                return _error(400, f"This model's maximum context length is {self.context_window} tokens. However, you "
                                   f"requested {prompt + completion} tokens ({prompt} in the messages, {completion} in "
                                   "the completion). Please reduce the length of the messages or completion.")
        return None

    @property
    def url(self) -> str:
        """The base URL for ``OPENAI_BASE_URL`` (ends in ``/v1``)."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> "StubServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    """Serve a script file until interrupted."""
    parser = argparse.ArgumentParser(description="Local OpenAI-compatible stub endpoint serving a script.")
    parser.add_argument("script", help="YAML/JSON script file (see webtester.llm.scripted)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--strict", action="store_true", help="behave like a local server with fewer features")
    parser.add_argument("--context-window", type=int, default=None, help="refuse requests over this many tokens")
    parser.add_argument("--reported-model", default=None, help="the model name the replies report")
    args = parser.parse_args(argv)
    server = StubServer(Script.load(args.script), port=args.port, strict=args.strict,
                        context_window=args.context_window, reported_model=args.reported_model)
    print(f"OPENAI_BASE_URL={server.url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
