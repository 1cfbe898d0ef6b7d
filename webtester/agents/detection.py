"""The defect-detection agent: a tool-calling loop that executes one test item.

The loop gives the model the browser tools plus ``record_verdict`` and runs
their calls until a verdict is recorded. It enforces:

- the budget: every tool call (verdict included) spends one unit of the item's
  and the instance's budget; model turns are bounded too. An item with no
  verdict when the budget runs out is an ``error``, never a pass;
- malformed calls (arguments that are not JSON, that do not fit the tool's
  schema, unknown tools): the model is told what was wrong; after
  ``max_malformed`` in a row the item is an ``error`` naming the problem;
- the last tool call of the budget is kept for the verdict: with one call left, the model is asked for its
  verdict with ``tool_choice`` naming ``record_verdict`` (below), so a model that keeps exploring still ends
  with a verdict rather than an exhausted budget;
- a model that stops calling tools is nudged at most ``max_idle`` times; the last nudge asks for the verdict
  with ``tool_choice`` naming ``record_verdict`` (a server that refuses a named ``tool_choice`` gets the plain
  nudge, and the endpoint's memory keeps the refusal for the rest of the run), so a model that answers in text
  still records its verdict through a tool call;
- a model call that raises ends the item as ``error`` with the steps so far (the
  failed call counted); a request the model's client trimmed to fit the context
  window (:mod:`webtester.llm.compat`) is noted in the steps;
- the tools are sent with ``tool_choice: "auto"`` (servers ignore tools sent without it);
- the item's deadline (``ItemBudget.deadline``): checked between steps; a model request in progress
  is bounded by the time left (``deadline``, honoured by :class:`~webtester.llm.compat.CompatChatOpenAI`)
  and a browser step by the page timeouts; past it the item is an ``error`` naming the limit;
- one verdict per item: calls after the verdict in the same model message are not
  run; each is answered with a tool error, and a second ``record_verdict`` is noted
  in the recorded verdict's evidence as a conflict (never dropped).

Page text and the instruction enter the prompt neutralized
(:func:`webtester.llm.framing.neutralize`), so they cannot end their data frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolCall, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from pydantic import BaseModel, ValidationError

from webtester.agents.base import ItemBudget
from webtester.agents.verdict import VERDICT_TOOL, VerdictDesk
from webtester.browser.watchdog import PageUnresponsive
from webtester.llm.compat import TRIMMED_KEY, endpoint_memory
from webtester.llm.conversation import CHANNEL_KEY
from webtester.llm.framing import neutralize
from webtester.llm.usage import FAILED_CALL, add_usage
from webtester.models import Cost, Evidence, Status, TestItem, Verdict
from webtester.prompts import load_prompt

_STEP_CHARS = 160
#: the most characters of the instruction and of the first page view the opening message carries
INSTRUCTION_CHARS = 2_000
FIRST_PAGE_CHARS = 3_000
#: the first page view's cap with the core tool set (a small context window): its top, the observe tool shows the rest
CORE_FIRST_PAGE_CHARS = 300
_NOT_GIVEN = "(not given: derive it from the description)"
NUDGE = "Continue with a browser tool, or record the verdict with record_verdict."
ASK_VERDICT = ("Record the verdict now with record_verdict, from what you have observed: pass, fail (with issue and "
               "actual) or error (with reason).")
LAST_CALL = "One tool call is left for this item. " + ASK_VERDICT
#: HTTP statuses with which servers refuse a request feature (here: a named tool_choice)
_REFUSED_STATUS = (400, 422, 500, 501)
#: how the endpoint's memory records a server that refuses a named tool_choice (not asked again in the run)
NAMED_CHOICE = "named tool_choice"


def cap_lines(text: str, limit: int, more: str) -> str:
    """``text`` cut after its last whole line within ``limit`` characters, ending with a line that says how many
    lines were left out (``more``: what to do about them); ``text`` itself when it fits."""
    if len(text) <= limit:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit and kept:
            break
        kept.append(line[:limit])
        size += len(line) + 1
    return "\n".join(kept) + f"\n(truncated: {len(lines) - len(kept)} more lines; {more})"


def detection_messages(item: TestItem, instruction: str, observation: str, max_tool_calls: int, *,
                       page_chars: int = FIRST_PAGE_CHARS) -> list[BaseMessage]:
    """The opening messages of an item's conversation; the instruction and the page view are capped
    (:data:`INSTRUCTION_CHARS`, ``page_chars``), so the first request stays small."""
    user = load_prompt("detection_user").render(
        item_id=item.id, dimension=item.dimension.value, description=item.description,
        action=item.action or _NOT_GIVEN, expected=item.expected or _NOT_GIVEN,
        instruction=cap_lines(neutralize(instruction), INSTRUCTION_CHARS, "the item says what to test") or "(not given)",
        max_tool_calls=max_tool_calls,
        observation=cap_lines(neutralize(observation), page_chars, "use the observe tool to see more"),
    )
    return [SystemMessage(content=load_prompt("detection").render()), HumanMessage(content=user)]


def _text(output: Any) -> str:
    if isinstance(output, ToolMessage):
        output = output.content
    return output if isinstance(output, str) else str(output)


def _step(call_name: str, args: Any, result: str) -> str:
    first = " ".join(result.split())[:_STEP_CHARS]
    return f"{call_name}({args}) -> {first}"


def run_detection(
    model: BaseChatModel,
    item: TestItem,
    tools: Sequence[BaseTool],
    desk: VerdictDesk,
    budget: ItemBudget,
    *,
    instruction: str = "",
    observation: str = "",
    config: RunnableConfig | None = None,
    max_malformed: int = 3,
    max_idle: int = 2,
    page_chars: int = FIRST_PAGE_CHARS,
) -> Verdict:
    """Execute ``item`` with the model driving ``tools``; return exactly one verdict (cost filled in)."""
    by_name = {t.name: t for t in tools}
    by_name[VERDICT_TOOL] = desk.tool()
    bound = model.bind_tools(list(by_name.values()), tool_choice="auto")  # servers ignore tools sent without it
    verdict_only = model.bind_tools(list(by_name.values()), tool_choice=VERDICT_TOOL)
    messages = detection_messages(item, instruction, observation, budget.limit, page_chars=page_chars)
    cfg: RunnableConfig = {**(config or {})}
    cfg["metadata"] = {**cfg.get("metadata", {}), CHANNEL_KEY: item.id}
    cost = Cost()
    steps: list[str] = []
    malformed = idle = 0
    last_problem = ""
    memory = endpoint_memory(model)
    ask_verdict = last_call_asked = False
    named_choice_refused = memory is not None and NAMED_CHOICE in memory.refused

    def ended(status: Status, reason: str) -> Verdict:
        return Verdict(
            item_id=item.id, status=status, evidence=Evidence(steps=steps, notes=reason),
            cost=cost.model_copy(update={"tool_calls": budget.used}),
        )

    def out_of_time() -> Verdict:
        return ended(Status.error, f"{budget.time_limit} reached: no verdict recorded")

    while desk.verdict is None:
        if budget.out_of_time():
            return out_of_time()
        if not budget.may_call_model():
            return ended(Status.error, f"no verdict recorded: {budget.exhausted_reason()}")
        if budget.remaining == 1 and not last_call_asked and not named_choice_refused:
            ask_verdict = last_call_asked = True
            steps.append(f"one tool call left: verdict asked for (tool_choice {VERDICT_TOOL})")
            messages.append(HumanMessage(content=LAST_CALL))
        budget.model_calls += 1
        request = verdict_only if ask_verdict else bound
        try:
            ai: AIMessage = request.invoke(messages, config=cfg, **_time_left(budget))
        except Exception as exc:
            cost += FAILED_CALL
            if budget.out_of_time():
                steps.append(f"model call cut at the {budget.time_limit}: {type(exc).__name__}: {exc}")
                return out_of_time()
            if ask_verdict and getattr(exc, "status_code", None) in _REFUSED_STATUS:
                steps.append(f"the server refused tool_choice {VERDICT_TOOL}: {type(exc).__name__}: {exc}; "
                             "asked in text")
                ask_verdict, named_choice_refused = False, True
                if memory is not None and NAMED_CHOICE not in memory.refused:
                    memory.refused.append(NAMED_CHOICE)
                continue
            steps.append(f"model call failed: {type(exc).__name__}: {exc}")
            return ended(Status.error, f"model call failed: {type(exc).__name__}: {exc}")
        cost = add_usage(cost, ai)
        if ai.response_metadata.get(TRIMMED_KEY):
            steps.append(f"request trimmed: {ai.response_metadata[TRIMMED_KEY]}")
        messages.append(ai)
        ask_verdict = False
        if not ai.tool_calls and not ai.invalid_tool_calls:
            idle += 1
            if idle > max_idle:
                return ended(Status.error, "the model stopped calling tools without recording a verdict")
            if idle == max_idle and not named_choice_refused:
                ask_verdict = True
                steps.append(f"the model answered {idle} times without a tool call: verdict asked for "
                             f"(tool_choice {VERDICT_TOOL})")
            messages.append(HumanMessage(content=ASK_VERDICT if ask_verdict else NUDGE))
            continue
        idle = 0
        for bad in ai.invalid_tool_calls:
            malformed += 1
            last_problem = f"arguments of {bad.get('name')!r} are not valid JSON: {bad.get('error') or bad.get('args')!r}"
            steps.append(f"malformed call: {last_problem}")
            messages.append(ToolMessage(content=f"Error: {last_problem}. Call the tool again with valid JSON arguments.",
                                        tool_call_id=bad.get("id") or "invalid"))
        for call in ai.tool_calls:
            if desk.verdict is not None:  # one verdict per item: answered, not run
                result = desk.after_verdict(call["name"], call.get("args"))
                steps.append(_step(call["name"], call.get("args"), result))
                messages.append(ToolMessage(content=result, tool_call_id=call.get("id") or "", name=call["name"]))
                continue
            if budget.out_of_time():
                return out_of_time()
            if not budget.spend():
                return ended(Status.error, f"no verdict recorded: {budget.exhausted_reason()}")
            try:
                result, ok = _run_tool(by_name, call)
            except PageUnresponsive as exc:  # bounded by the page's watchdog; no later step can work there
                steps.append(_step(call["name"], call.get("args"), f"Error: {exc}"))
                return ended(Status.error, f"{exc}: the item could not be completed")
            if ok is None:
                malformed += 1
                last_problem = result
            else:
                malformed = 0
            steps.append(_step(call["name"], call.get("args"), result))
            messages.append(ToolMessage(content=result, tool_call_id=call.get("id") or "", name=call["name"]))
        if desk.verdict is None and malformed >= max_malformed:
            return ended(Status.error, f"{malformed} malformed tool calls in a row; last: {last_problem}")
    verdict = desk.verdict
    verdict.evidence.steps = steps + verdict.evidence.steps
    verdict.cost = cost.model_copy(update={"tool_calls": budget.used})
    return verdict


def _time_left(budget: ItemBudget) -> dict[str, float]:
    """The request option that bounds a model call by the item's deadline (none without a deadline)."""
    return {} if budget.deadline is None else {"deadline": budget.deadline}


def _invalid_arguments(tool: BaseTool, args: Any) -> str | None:
    """Why ``args`` do not fit the tool's schema (checked here, whatever the tool does with bad input)."""
    schema = tool.args_schema
    if not isinstance(args, dict):
        return "arguments must be a JSON object"
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        try:
            schema.model_validate(args)
        except ValidationError as exc:
            return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in exc.errors()[:3])
    return None


def _run_tool(by_name: dict[str, BaseTool], call: ToolCall) -> tuple[str, bool | None]:
    """Run one tool call. Returns the text for the model and True (ran), False (tool error) or None (malformed)."""
    tool = by_name.get(call["name"])
    if tool is None:
        return f"Error: unknown tool {call['name']!r}; available: {', '.join(sorted(by_name))}", None
    args = call.get("args") or {}
    problems = _invalid_arguments(tool, args)
    if problems:
        return f"Error: invalid arguments for {call['name']}: {problems}. Fix them and call again.", None
    try:
        return _text(tool.invoke(args)), True
    except PageUnresponsive:
        raise
    except Exception as exc:  # the tool ran and failed (e.g. element not found): the model sees it and adapts
        return f"Error: {call['name']} failed: {type(exc).__name__}: {exc}", False
