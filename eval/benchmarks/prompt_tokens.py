"""Prompt tokens of the detection agent's first request per item, and per detection step of a recorded run.

For every bundled app (shipped build) and each gold item (the oracle mode's checklist), the benchmark
builds exactly the first request the detection agent sends: the opening messages
(:func:`webtester.agents.detection.detection_messages`) with the first observation of a fresh item page,
and the tool schemas bound with them (browser tools, ``run_probes``, ``record_verdict``). It prints per
app and overall the first request's tokens (mean, max) and the share of its parts (system prompt, tool
schemas, item + instruction, observation), counted by our estimate
(:func:`webtester.llm.context.estimate_tokens`) and, with ``--server URL --key K``, by the server: the
request is sent with ``max_tokens=1`` and ``usage.prompt_tokens`` is read (the items with the largest
estimate, ``--server-sample`` per app; each distinct request is sent once).

With ``--run RUN_DIR`` it prints instead the prompt tokens per detection step of a recorded run
(:func:`detection_step_tokens`, from the usage each exchange in ``exchanges.jsonl`` reports).

Usage: python -m webtester.eval.benchmarks.prompt_tokens [--app INDEX] [--server URL --key K]
[--server-sample 1] [--run RUN_DIR] [--json out.json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, messages_to_dict
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from rich.console import Console
from rich.table import Table

from webtester.agents.detection import detection_messages
from webtester.agents.llm_tester import detection_tools as tester_tools
from webtester.agents.llm_tester import first_page_chars
from webtester.agents.verdict import VERDICT_TOOL, VerdictDesk
from webtester.browser.session import BrowserSession
from webtester.bundled import load_bundled, serve_app
from webtester.llm.context import CHARS_PER_TOKEN, estimate_tokens
from webtester.llm.conversation import CHECKLIST_CHANNEL, message_text
from webtester.llm.factory import openai_model
from webtester.llm.recording import load_exchanges
from webtester.models import TestItem, oracle_items
from webtester.settings import Settings

PARTS = ("system", "tools", "item", "observation")
PART_NAMES = {"system": "system prompt", "tools": "tool schemas", "item": "item + instruction", "observation": "observation"}
_HEADERS = {"system": "system %", "tools": "tools %", "item": "item+instr. %", "observation": "page %"}
_PAGE_OPEN, _PAGE_CLOSE = "<<<PAGE\n", "\nPAGE>>>"


def detection_tools(item: TestItem, page: Any, toolset: Literal["all", "core"] = "all") -> list[BaseTool]:
    """The tools the LLM tester gives the detection agent for ``item`` on ``page``, in the order they are bound."""
    return [*tester_tools(page, None, toolset), VerdictDesk(item, page).tool()]


def tool_schemas(tools: Sequence[BaseTool]) -> list[dict[str, Any]]:
    """The tools as the OpenAI-style schemas ``bind_tools`` sends."""
    return [convert_to_openai_tool(t) for t in tools]


def first_request(
    item: TestItem, instruction: str, observation: str, tools: Sequence[BaseTool], max_tool_calls: int,
    toolset: Literal["all", "core"] = "all",
) -> tuple[list[BaseMessage], list[dict[str, Any]]]:
    """The messages and tool schemas of the detection agent's first request for ``item`` with ``toolset``."""
    messages = detection_messages(item, instruction, observation, max_tool_calls, page_chars=first_page_chars(toolset))
    return messages, tool_schemas(tools)


def request_parts(messages: Sequence[BaseMessage], tools: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Estimated tokens of each part of an opening request (:data:`PARTS`); they add up to its estimate."""
    system, user = message_text(messages[0]), message_text(messages[1])
    start, end = user.find(_PAGE_OPEN), user.rfind(_PAGE_CLOSE)
    page = len(user[start + len(_PAGE_OPEN):end]) if 0 <= start < end else 0
    chars = {
        "system": len(system) + 16,
        "tools": len(json.dumps(list(tools), default=str)) if tools else 0,
        "item": len(user) + 16 - page,
        "observation": page,
    }
    total = estimate_tokens(messages, list(tools))
    parts = {name: chars[name] // CHARS_PER_TOKEN for name in PARTS}
    parts["item"] += total - sum(parts.values())  # the estimate's rounding goes to the item part
    return parts


@dataclass
class Row:
    """One item's first request: its estimate by part, and the server's count when measured."""

    app: str
    item: str
    parts: dict[str, int]
    server: int | None = None

    @property
    def estimate(self) -> int:
        return sum(self.parts.values())


def _stats(values: Sequence[int]) -> dict[str, float]:
    return {"count": len(values), "mean": statistics.mean(values), "max": max(values)} if values else {"count": 0}


def summarize(rows: Sequence[Row]) -> dict[str, Any]:
    """Estimate and server count (mean, max) and each part's share of the estimate, over ``rows``."""
    total = sum(r.estimate for r in rows) or 1
    server = [r.server for r in rows if r.server is not None]
    return {
        "items": len(rows),
        "estimate": _stats([r.estimate for r in rows]),
        "server": _stats(server),
        "shares": {p: sum(r.parts[p] for r in rows) / total for p in PARTS},
        "server_per_estimate": (statistics.mean(r.server / r.estimate for r in rows if r.server is not None)
                                if server else None),
    }


def _request_key(messages: Sequence[BaseMessage], tools: Sequence[Mapping[str, Any]]) -> str:
    payload = json.dumps([messages_to_dict(list(messages)), list(tools)], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass
class ServerCounter:
    """Prompt tokens of a request as the server counts them (``max_tokens=1``; each distinct request sent once)."""

    model: BaseChatModel
    cache: dict[str, int] = field(default_factory=dict)

    @classmethod
    def connect(cls, base_url: str, api_key: str, model: str = "local", timeout: float = 600) -> "ServerCounter":
        return cls(openai_model(model, base_url=base_url, api_key=api_key, max_tokens=1, timeout=timeout,
                                max_retries=0))

    def count(self, messages: Sequence[BaseMessage], tools: Sequence[Mapping[str, Any]]) -> int:
        key = _request_key(messages, tools)
        if key not in self.cache:
            reply = self.model.bind_tools(list(tools), tool_choice="auto").invoke(list(messages))
            tokens = (getattr(reply, "usage_metadata", None) or {}).get("input_tokens")
            if not tokens:
                raise RuntimeError("the server reported no prompt tokens (usage.prompt_tokens)")
            self.cache[key] = int(tokens)
        return self.cache[key]


def bench_app(session: BrowserSession, instance: Any, max_tool_calls: int,
              counter: ServerCounter | None = None, server_sample: int = 1,
              toolset: Literal["all", "core"] = "all") -> list[Row]:
    """First-request rows of every gold item of a bundled app; the ``server_sample`` largest are sent to ``counter``."""
    running = serve_app(instance, "shipped")
    try:
        page = session.new_item_page(running.url)
        try:
            observation = page.observe().text  # as the LLM tester takes it: a fresh item page, observed once
            requests = []
            for item in oracle_items(instance):
                messages, tools = first_request(item, instance.instruction, observation,
                                                detection_tools(item, page, toolset), max_tool_calls, toolset)
                requests.append((Row(instance.index, item.id, request_parts(messages, tools)), messages, tools))
        finally:
            page.close()
    finally:
        running.stop()
    if counter is not None:
        for row, messages, tools in sorted(requests, key=lambda r: -r[0].estimate)[:server_sample]:
            row.server = counter.count(messages, tools)
    return [row for row, _, _ in requests]


# ----------------------------------------------------------------------------- recorded runs


def _exchange_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if (path / "exchanges.jsonl").is_file():
        return [path / "exchanges.jsonl"]
    return sorted(path.glob("*/exchanges.jsonl"))


def _prompt_tokens(entry: Mapping[str, Any]) -> int | None:
    usage = ((entry.get("response") or {}).get("data") or {}).get("usage_metadata") or {}
    tokens = usage.get("input_tokens")
    return int(tokens) if tokens else None


def _is_detection(entry: Mapping[str, Any]) -> bool:
    tools = entry.get("tools")
    return VERDICT_TOOL in tools if tools else entry.get("channel") != CHECKLIST_CHANNEL


def detection_step_tokens(path: str | Path) -> dict[str, Any]:
    """Prompt tokens per detection step of a recorded run (a run folder, an instance folder or an exchanges file).

    Each step is the last recorded exchange of an item's ``(channel, turn)``; its prompt tokens are the usage
    its reply reports. Returns ``first`` (the first request of each item) and ``all`` (every step), each with
    ``count``, ``mean`` and ``max``, and ``steps`` / ``unreported`` (steps without usage: failed or not reported).
    """
    first: list[int] = []
    every: list[int] = []
    steps = unreported = 0
    for file in _exchange_files(Path(path)):
        for (_, turn), entry in sorted(load_exchanges(file).items()):
            if not _is_detection(entry):
                continue
            steps += 1
            tokens = _prompt_tokens(entry)
            if tokens is None:
                unreported += 1
                continue
            every.append(tokens)
            if turn == 0:
                first.append(tokens)
    return {"steps": steps, "unreported": unreported, "first": _stats(first), "all": _stats(every)}


def step_tokens_line(figures: Mapping[str, Any]) -> str:
    """One line quoting :func:`detection_step_tokens`'s figures."""

    def part(name: str) -> str:
        s = figures[name]
        return f"{name} mean {s['mean']:.0f}, max {s['max']}" if s["count"] else f"{name}: none reported"

    return (f"prompt tokens per detection step ({figures['steps']} steps, {figures['unreported']} without usage): "
            f"{part('first')}; {part('all')}")


# ----------------------------------------------------------------------------- command line


def _fmt(stats: Mapping[str, Any]) -> str:
    return f"{stats['mean']:.0f} / {stats['max']}" if stats.get("count") else "-"


def _print(console: Console, rows: Sequence[Row]) -> dict[str, Any]:
    apps = list(dict.fromkeys(r.app for r in rows))
    summaries = {app: summarize([r for r in rows if r.app == app]) for app in apps}
    summaries["overall"] = summarize(rows)
    table = Table("app", "items", "estimate mean / max", "server mean / max (sent)", *(_HEADERS[p] for p in PARTS),
                  caption="first detection request, tokens; parts: " + ", ".join(PART_NAMES[p] for p in PARTS))
    for name, s in summaries.items():
        sent = f" ({s['server']['count']})" if s["server"]["count"] else ""
        table.add_row(name, str(s["items"]), _fmt(s["estimate"]), _fmt(s["server"]) + sent,
                      *(f"{100 * s['shares'][p]:.0f}" for p in PARTS))
    console.print(table)
    ratio = summaries["overall"]["server_per_estimate"]
    if ratio is not None:
        console.print(f"server tokens per estimated token: {ratio:.2f}")
    return summaries


def main(argv: list[str] | None = None) -> int:
    """Print the first detection request's tokens per bundled app, or a recorded run's tokens per step."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app", action="append", help="only this bundled app (repeatable)")
    parser.add_argument("--server", help="an OpenAI-compatible base URL (e.g. http://127.0.0.1:8000/v1) to count tokens")
    parser.add_argument("--key", default="not-needed", help="the server's API key")
    parser.add_argument("--model", default="local", help="the model name sent to the server")
    parser.add_argument("--server-sample", type=int, default=1, help="items per app sent to the server (largest first)")
    parser.add_argument("--run", type=Path, help="print the prompt tokens per detection step of this recorded run")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--tools", choices=("all", "core"), default="all",
                        help="the detection agent's tool set (Settings.detection_tools)")
    args = parser.parse_args(argv)
    console = Console(width=max(Console().width, 120))
    if args.run:
        figures = detection_step_tokens(args.run)
        console.print(step_tokens_line(figures))
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2))
        return 0
    instances = [i for i in load_bundled() if not args.app or i.index in args.app]
    counter = ServerCounter.connect(args.server, args.key, args.model) if args.server else None
    budget = Settings().max_tool_calls_per_item
    rows: list[Row] = []
    with BrowserSession() as session:
        for inst in instances:
            rows.extend(bench_app(session, inst, budget, counter, args.server_sample, args.tools))
    summaries = _print(console, rows)
    if args.json:
        args.json.write_text(json.dumps({"rows": [{**r.__dict__, "estimate": r.estimate} for r in rows],
                                         "summary": summaries}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

