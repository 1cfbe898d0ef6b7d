"""The workflow's nodes. Each reads the state, does one job through the run context, returns an update.

The run context is LangGraph's runtime context (``runtime.context``), given by
whoever invokes the graph (:mod:`webtester.graphs.run`, or the graphs of
:mod:`webtester.graphs.studio` for LangGraph's own tooling).

No node lets an ordinary exception escape: an app that does not start, a
tester that cannot prepare or a checklist that cannot be generated fails the
instance (with the reason); an item that cannot be executed gets an ``error``
verdict and the run goes on.

Time is bounded per item (``Settings.item_time_limit``: the tester gets the
deadline in its :class:`~webtester.agents.base.ItemBudget`) and per instance
(``Settings.instance_time_limit``: an item still running at the instance's limit
ends there, items not reached get ``error`` verdicts, and the results are written).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from webtester.agents.base import AppPage, InstanceBudget, ItemBudget
from webtester.graphs.context import RunContext
from webtester.graphs.state import TesterState
from webtester.models import Cost, Evidence, InstanceResult, Status, TestItem, Verdict


def _items(state: TesterState) -> list[TestItem]:
    return [TestItem.model_validate(d) for d in state.get("checklist") or []]


def _pending(state: TesterState) -> list[TestItem]:
    done = {v["item_id"] for v in state.get("verdicts") or []}
    return [i for i in _items(state) if i.id not in done]


def _brief(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:500]}" if text else type(exc).__name__


def _app_stopped(ctx: RunContext, exc: Exception) -> dict[str, Any]:
    """The app went down and a restart did not bring it back: nothing more can run (the instance fails)."""
    ctx.emit("app_failed", error=_brief(exc))
    return {"failure": f"app stopped during the run: {_brief(exc)}"}


# -- nodes -----------------------------------------------------------------


def start_app(state: TesterState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Start the app under test (static folder, npm project, or URL)."""
    ctx = runtime.context
    try:
        url = ctx.app.ensure()
    except Exception as exc:
        ctx.emit("app_failed", error=_brief(exc))
        return {"failure": f"app did not start: {_brief(exc)}"}
    ctx.emit("app_started", url=url)
    return {"app_url": url, "failure": None}


def prepare_tester(state: TesterState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Let the tester prepare for the instance (e.g. explore the app) in pages of the run's browser."""
    ctx = runtime.context
    started = time.perf_counter()
    try:  # the app's current URL: a resumed run has started the app again, maybe on another port
        app_url = ctx.app.ensure()
    except Exception as exc:
        return _app_stopped(ctx, exc)
    try:
        ctx.tester.prepare(app_url, ctx.browser, instruction=state.get("instruction", ""))
    except Exception as exc:
        ctx.emit("prepare_failed", error=_brief(exc))
        return {"failure": f"tester preparation failed: {_brief(exc)}"}
    ctx.emit("prepared", seconds=round(time.perf_counter() - started, 3))
    return {}


def generate_checklist(state: TesterState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Stage 1: the tester writes the checklist from the instruction."""
    ctx = runtime.context
    started = time.perf_counter()
    try:
        app_url = ctx.app.ensure()
    except Exception as exc:
        return {"checklist": [], **_app_stopped(ctx, exc)}
    try:
        checklist = ctx.tester.generate_checklist(state["instruction"], app_url, ctx.max_items)
    except Exception as exc:
        ctx.emit("checklist_failed", error=_brief(exc))
        spent = getattr(exc, "cost", None) or Cost()
        return {
            "checklist": [], "failure": f"checklist generation failed: {_brief(exc)}",
            "checklist_cost": spent.model_copy(update={"seconds": round(time.perf_counter() - started, 3)}).model_dump(),
        }
    cost = checklist.cost.model_copy(update={"seconds": round(time.perf_counter() - started, 3)})
    ctx.folder.write_checklist(checklist.items)
    ctx.emit("checklist", items=len(checklist.items), notes=checklist.notes)
    return {
        "checklist": [i.model_dump(mode="json") for i in checklist.items],
        "checklist_cost": cost.model_dump(),
        "checklist_notes": checklist.notes,
    }


def load_gold_checklist(state: TesterState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Oracle mode: the gold checklist replaces generation."""
    ctx = runtime.context
    items = [TestItem.model_validate(d) for d in state.get("gold") or []]
    if not items:
        return {"checklist": [], "failure": "oracle mode needs a gold checklist, and none was given"}
    ctx.folder.write_checklist(items)
    ctx.emit("checklist", items=len(items), notes=["gold checklist"])
    return {"checklist": [i.model_dump(mode="json") for i in items]}


def detect_item(state: TesterState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Stage 2, one item: execute it on a fresh page and record exactly one verdict."""
    ctx = runtime.context
    item = _pending(state)[0]
    instance = InstanceBudget(ctx.max_tool_calls_per_instance, state.get("tool_calls_used") or 0)
    budget = ItemBudget(ctx.max_tool_calls_per_item, instance)
    time_left = ctx.instance_time_limit - ctx.instance_seconds(state)
    if time_left <= 0:  # the rest of the checklist is recorded as not reached, and the results are written
        verdict = _error(item, f"not reached: instance time limit of {ctx.instance_time_limit:g} s")
        return _record(ctx, state, verdict, instance)
    budget.limit_time(ctx.item_time_limit, f"item time limit of {ctx.item_time_limit:g} s")
    budget.limit_time(time_left, f"instance time limit of {ctx.instance_time_limit:g} s")
    ctx.emit("item_started", item=item.id, description=item.description)
    started = time.perf_counter()
    try:
        app_url = ctx.app.ensure()
    except Exception as exc:
        return _app_stopped(ctx, exc)
    page: AppPage | None = None
    try:
        if instance.remaining <= 0:
            verdict = _error(item, f"not executed: instance budget of {instance.limit} tool calls used up")
        else:
            plan = getattr(ctx.tester, "plan_detection", None)
            if plan is not None:  # a tester that decides over all items at once sees the whole checklist first
                plan(_items(state), instruction=state.get("instruction", ""))
                started = time.perf_counter()  # the plan serves every item: the instance's time, not this item's
            if getattr(ctx.tester, "needs_item_page", True):
                page = ctx.browser.new_page(app_url, trace_name=item.id)
            verdict = ctx.tester.detect(item, page, budget, instruction=state.get("instruction", ""))
            if verdict.item_id != item.id:
                raise ValueError(f"tester returned a verdict for {verdict.item_id!r} while testing {item.id!r}")
    except Exception as exc:
        verdict = _error(item, f"item could not be executed: {_brief(exc)}")
    finally:
        if page is not None:
            _close_page(page, ctx)
    if page is not None:
        _attach_page_evidence(verdict, page, ctx)
    ctx.browser.settle_trace(verdict, page)
    verdict.cost = verdict.cost.model_copy(
        update={"seconds": round(time.perf_counter() - started, 3), "tool_calls": max(verdict.cost.tool_calls, budget.used)}
    )
    return _record(ctx, state, verdict, instance)


def _record(ctx: RunContext, state: TesterState, verdict: Verdict, instance: InstanceBudget) -> dict[str, Any]:
    """Log an item's verdict and return the state update that records it."""
    ctx.folder.append_verdict(verdict)
    ctx.emit("item_done", item=verdict.item_id, status=verdict.status.value, cost=verdict.cost.model_dump())
    return {"verdicts": [verdict.model_dump(mode="json")], "tool_calls_used": instance.used,
            "instance_seconds": round(ctx.instance_seconds(state), 3)}


def write_results(state: TesterState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Write result.json, result.md and bugs.md for the instance."""
    ctx = runtime.context
    items = _items(state)
    verdicts = [Verdict.model_validate(v) for v in state.get("verdicts") or []]
    cost = Cost.model_validate(state.get("checklist_cost") or {})
    for v in verdicts:
        cost = cost + v.cost
    failure = state.get("failure")
    info = ctx.tester.describe()
    result = InstanceResult(
        index=state["index"], status="failed" if failure else "ok", reason=failure,
        tester=ctx.tester.name, checklist=items, verdicts=verdicts, cost=cost,
    )
    if not failure:  # a failed instance keeps its traces: they show what went wrong
        ctx.browser.prune_traces(ctx.folder, verdicts)
    ctx.folder.write_result(result, replayed=bool(info.get("replayed")))
    ctx.emit("results_written", status=result.status, reason=failure)
    return {"result": result.model_dump(mode="json")}


def stop_app(state: TesterState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Close the browser and stop the app."""
    runtime.context.close()
    return {}


# -- routing ---------------------------------------------------------------


def route_after_start(state: TesterState) -> str:
    """Prepare the tester once the app runs; an app that did not start goes straight to the results."""
    return "write_results" if state.get("failure") else "prepare_tester"


def route_after_prepare(state: TesterState) -> str:
    """The checklist stage of the mode (generated, or the gold checklist), unless preparation failed."""
    if state.get("failure"):
        return "write_results"
    return "load_gold_checklist" if state.get("mode") == "oracle" else "generate_checklist"


def route_to_items(state: TesterState) -> str:
    """Next item while any is left without a verdict, else write the results."""
    if state.get("failure") or not _pending(state):
        return "write_results"
    return "detect_item"


# -- helpers ---------------------------------------------------------------


def _error(item: TestItem, reason: str) -> Verdict:
    return Verdict(item_id=item.id, status=Status.error, evidence=Evidence(notes=reason))


def _close_page(page: AppPage, ctx: RunContext) -> None:
    try:
        page.close()
    except Exception as exc:  # the verdict stands; the missing trace is noted in the log
        ctx.folder.log(f"closing the item page failed: {_brief(exc)}")


def _attach_page_evidence(verdict: Verdict, page: AppPage, ctx: RunContext) -> None:
    """Console errors, page errors, failed requests, dialogs and the trace collected by the item's page."""
    page_ev: Evidence = page.evidence.to_model()
    ev = verdict.evidence
    for name in ("console_errors", "page_errors", "failed_requests", "environment"):
        mine = getattr(ev, name)
        mine.extend(e for e in getattr(page_ev, name) if e not in mine)
    ev.actions.extend(page_ev.actions)
    if page_ev.notes:
        ev.notes = "\n".join(filter(None, [ev.notes, page_ev.notes]))
    if page_ev.trace:
        trace = Path(page_ev.trace)
        ev.trace = str(trace.relative_to(ctx.folder.run_dir)) if trace.is_relative_to(ctx.folder.run_dir) else str(trace)
