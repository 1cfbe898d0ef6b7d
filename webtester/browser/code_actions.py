"""Code actions: several steps in one tool call, without running model-written Python.

Two forms, both confined to the browser:

* :func:`run_js` runs a JavaScript function body inside the page (the
  browser's sandbox), with a hard timeout: the synchronous part is bounded by
  the DevTools protocol's evaluation timeout, the asynchronous part by a
  deadline after which the execution is terminated;
* :func:`run_steps` interprets a JSON list of Playwright steps (click, fill,
  press, select, check, hover, wait, expect ...) with our own code: the model
  chooses among fixed operations and targets, nothing it writes is executed in
  this process.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from webtester.browser.confinement import same_origin
from webtester.browser.errors import describe_error
from webtester.browser.locators import Reusable, action_record, recording, through_reusable
from webtester.browser.observe import StaleRefError, normalize_ref, resolve_ref
from webtester.browser.watchdog import bounded, navigate

JS_MAX_CHARS = 8_000
RESULT_MAX_CHARS = 2_000


class ScriptTimeout(TimeoutError):
    """The page script did not finish in time and was terminated."""


def _js_source(binding: str, body: str) -> str:
    return f"""(() => {{
const __done = globalThis[{json.dumps(binding)}]; delete globalThis[{json.dumps(binding)}];
const __show = (v) => (typeof Node !== "undefined" && v instanceof Node)
  ? (v.outerHTML || v.textContent || "").slice(0, 1000) : v;
(async () => {{
{body}
}})().then(
  (v) => {{ let s; try {{ s = JSON.stringify({{ ok: true, value: v === undefined ? null : v }}, (k, x) => __show(x)); }}
         catch (e) {{ s = JSON.stringify({{ ok: true, value: String(v) }}); }} __done(s); }},
  (e) => __done(JSON.stringify({{ ok: false, error: String((e && e.stack) || e) }})));
}})()"""


def run_js(item_page, body: str, timeout_s: float = 5.0) -> str:
    """Run a JavaScript function body in the page and return its JSON result (as text).

    ``body`` may use ``await`` and ``return``. Raises :class:`ScriptTimeout`
    when it does not finish within ``timeout_s`` (it is terminated), and
    ``RuntimeError`` with the page's error message when it throws.
    """
    if len(body) > JS_MAX_CHARS:
        raise ValueError(f"script too long ({len(body)} characters, at most {JS_MAX_CHARS})")
    timeout_s = max(0.1, min(float(timeout_s), 30.0))
    with bounded(item_page.page, timeout_s):
        return _run_js(item_page, body, timeout_s)


def _run_js(item_page, body: str, timeout_s: float) -> str:
    page = item_page.page
    cdp = item_page.context.new_cdp_session(page)
    results: dict[str, str] = {}
    binding = "__wt_" + secrets.token_hex(8)
    cdp.on("Runtime.bindingCalled", lambda ev: results.__setitem__(ev["name"], ev["payload"]))
    try:
        cdp.send("Runtime.addBinding", {"name": binding})
        deadline = time.monotonic() + timeout_s
        try:
            reply = cdp.send("Runtime.evaluate", {"expression": _js_source(binding, body), "timeout": int(timeout_s * 1000)})
        except Exception as exc:
            if "terminated" in str(exc):
                raise ScriptTimeout(f"the script ran longer than {timeout_s:g} s and was stopped") from None
            raise
        details = reply.get("exceptionDetails")
        if details:  # a syntax error, or a throw before the first await
            exc_desc = (details.get("exception") or {}).get("description") or details.get("text", "error")
            raise RuntimeError(exc_desc.splitlines()[0])
        while binding not in results and time.monotonic() < deadline:
            page.wait_for_timeout(15)
        if binding not in results:
            cdp.send("Runtime.terminateExecution")
            try:  # absorbs a termination that found nothing running
                cdp.send("Runtime.evaluate", {"expression": "0", "timeout": 500})
            except Exception:
                pass
            raise ScriptTimeout(f"the script did not finish within {timeout_s:g} s and was stopped")
        outcome = json.loads(results[binding])
        if not outcome.get("ok"):
            raise RuntimeError(str(outcome.get("error", "error")).splitlines()[0])
        text = json.dumps(outcome.get("value"), ensure_ascii=False)
        return text if len(text) <= RESULT_MAX_CHARS else text[:RESULT_MAX_CHARS] + f"… (+{len(text) - RESULT_MAX_CHARS} chars)"
    finally:
        try:
            cdp.detach()
        except Exception:
            pass


# ----------------------------------------------------------------------------- batched steps

StepAction = Literal[
    "click", "dblclick", "fill", "type", "press", "select", "check", "uncheck", "hover", "scroll_into_view",
    "goto", "go_back", "wait", "wait_for_text", "wait_for_text_gone",
    "expect_text", "expect_no_text", "expect_visible", "expect_hidden", "expect_value", "expect_count",
    "expect_checked", "expect_url", "read_text", "read_value", "count",
]


class Step(BaseModel):
    """One step: an action on a target, given by ``ref`` or by a role/text/label/placeholder/css query."""

    action: StepAction
    ref: str | None = Field(default=None, description="element reference, e.g. e12")
    role: str | None = Field(default=None, description="ARIA role, with name")
    name: str | None = Field(default=None, description="accessible name")
    text: str | None = Field(default=None, description="visible text")
    label: str | None = Field(default=None, description="form field label")
    placeholder: str | None = Field(default=None, description="form field placeholder")
    css: str | None = Field(default=None, description="CSS selector (last resort)")
    exact: bool = Field(default=False, description="exact name/text match")
    nth: int | None = Field(default=None, description="n-th match, 0-based")
    value: str | None = Field(default=None, description="text, key, option, URL or seconds")
    count: int | None = Field(default=None, description="for expect_count")

    @model_validator(mode="after")
    def _needs(self) -> "Step":
        needs_value = {"fill", "type", "press", "select", "goto", "wait", "wait_for_text", "wait_for_text_gone",
                       "expect_value", "expect_url"}
        if self.action in needs_value and self.value is None:
            raise ValueError(f"step '{self.action}' needs a 'value'")
        if self.action == "expect_count" and self.count is None:
            raise ValueError("step 'expect_count' needs a 'count'")
        return self

    def has_target(self) -> bool:
        return any(v is not None for v in (self.ref, self.role, self.text, self.label, self.placeholder, self.css))

    def describe(self) -> str:
        target = ""
        if self.ref:
            target = f"[{self.ref}]"
        elif self.role:
            target = f"{self.role}" + (f" {self.name!r}" if self.name else "")
        elif self.text is not None:
            target = f"text {self.text!r}"
        elif self.label is not None:
            target = f"label {self.label!r}"
        elif self.placeholder is not None:
            target = f"placeholder {self.placeholder!r}"
        elif self.css:
            target = f"css {self.css!r}"
        value = f" {self.value!r}" if self.value is not None else ""
        return f"{self.action} {target}{value}".replace("  ", " ").strip()


class StepFailed(AssertionError):
    """An expectation of a step did not hold."""


def target(item_page, step: Step) -> tuple[Any, Reusable | None]:
    """The locator a step targets, and the query a person can reuse for it (None: an element reached by its
    reference alone; see :func:`~webtester.browser.locators.reusable_locator`). Raises ``ValueError`` /
    :class:`StaleRefError`."""
    page = item_page.page
    if step.ref:
        ref = normalize_ref(step.ref)
        loc = resolve_ref(page, item_page.last_observation, ref)
        if loc.count() == 0:
            raise StaleRefError(f"[{step.ref}] is no longer on the page; observe again for fresh references")
        obs = item_page.last_observation
        return through_reusable(page, loc, obs.refs.get(ref) if obs is not None else None)
    query: dict[str, str]
    if step.role:
        query = {"role": step.role, **({"name": step.name} if step.name else {})}
    elif step.text is not None:
        query = {"text": step.text}
    elif step.label is not None:
        query = {"label": step.label}
    elif step.placeholder is not None:
        query = {"placeholder": step.placeholder}
    elif step.css:
        query = {"css": step.css}
    else:
        raise ValueError(f"step '{step.action}' needs a target (ref, role, text, label, placeholder or css)")
    reusable = Reusable(query, exact=step.exact, nth=step.nth)
    return reusable.locator(page), reusable


def locate(item_page, step: Step):
    """The locator a step targets (raises ``ValueError`` / :class:`StaleRefError`)."""
    return target(item_page, step)[0]


def _single(loc):
    n = loc.count()
    if n > 1:
        raise ValueError(f"{n} elements match; add 'nth' or make the query more precise")
    return loc


#: steps that act on their element (recorded in the evidence's actions, with their reusable locator)
_ELEMENT_ACTIONS = frozenset({"click", "dblclick", "fill", "type", "press", "select", "check", "uncheck", "hover",
                              "scroll_into_view"})


@contextmanager
def _recorded(item_page, step: Step, reusable: Reusable | None, value: str | None = None) -> Iterator[None]:
    """Record a step in the item's evidence with the reusable locator of its element (``value``: as recorded,
    when not the step's own), title it so in the trace, and set its outcome once it ran (an expectation that
    raises :class:`StepFailed` failed; any other error is an action's error)."""
    value = step.value if value is None else value
    shown = reusable.code if reusable else (f"[{step.ref}]" if step.ref else "")
    text = " ".join(part for part in (step.action, shown, repr(value) if value is not None else "") if part)
    if step.action == "expect_count":
        text += f" {step.count}"
    record = action_record(text, step.action, reusable, value, count=step.count)
    with recording(item_page.evidence.actions, record, failed=StepFailed), item_page.trace_group(text):
        yield


def relative_url(url: str, origin: str) -> str:
    """``url`` without the app's ``origin`` (``/#/cart``), so that a replay can open it on another port."""
    return (url[len(origin):] or "/") if url.startswith(origin) else url


def _act_on(loc, step: Step, timeout_ms: float) -> str:
    """Run an element step (one of :data:`_ELEMENT_ACTIONS`) on its single element."""
    a = step.action
    if a == "click":
        loc.click(timeout=timeout_ms)
    elif a == "dblclick":
        loc.dblclick(timeout=timeout_ms)
    elif a == "fill":
        loc.fill(step.value or "", timeout=timeout_ms)
    elif a == "type":
        loc.press_sequentially(step.value or "", timeout=timeout_ms)
    elif a == "press":
        loc.press(step.value or "", timeout=timeout_ms)
    elif a == "select":
        chosen = loc.select_option(label=[v.strip() for v in (step.value or "").split("|")], timeout=timeout_ms)
        return f"selected {chosen}"
    elif a in ("check", "uncheck"):
        loc.set_checked(a == "check", timeout=timeout_ms)
    elif a == "hover":
        loc.hover(timeout=timeout_ms)
    elif a == "scroll_into_view":
        loc.scroll_into_view_if_needed(timeout=timeout_ms)
    return "ok"


def _run_step(item_page, step: Step, timeout_ms: float) -> str:
    from urllib.parse import urljoin


    page = item_page.page
    a = step.action
    if a == "goto":
        url = urljoin(item_page.base_url, step.value or "")
        if not same_origin(url, item_page.origin):
            raise ValueError(f"{url} is outside the app under test ({item_page.origin}); only its own pages can be opened")
        with _recorded(item_page, step, None, relative_url(url, item_page.origin)):
            navigate(page, url, wait_until="domcontentloaded", timeout=max(timeout_ms, 10_000))
        return page.url
    if a == "go_back":
        with _recorded(item_page, step, None):
            page.go_back(wait_until="domcontentloaded", timeout=timeout_ms)
        return page.url
    if a == "wait":
        seconds = min(float(step.value or 0), 10.0)
        with _recorded(item_page, step, None, f"{seconds:g}"):
            page.wait_for_timeout(seconds * 1000)
        return f"waited {seconds:g} s"
    if a in ("wait_for_text", "wait_for_text_gone"):
        state = "visible" if a == "wait_for_text" else "hidden"
        with _recorded(item_page, step, Reusable({"text": step.value or ""}, exact=step.exact)):
            try:
                page.get_by_text(step.value or "", exact=step.exact).first.wait_for(state=state, timeout=timeout_ms)
            except Exception as exc:
                raise StepFailed(f"the text {step.value!r} {'did not appear' if state == 'visible' else 'stayed'}"
                                 f" ({describe_error(exc)})") from None
        return "ok"
    if a == "expect_url":
        with _recorded(item_page, step, None):
            if (step.value or "") not in page.url:
                raise StepFailed(f"URL is {page.url}")
        return page.url
    if a in ("expect_text", "expect_no_text") and not step.has_target():
        with _recorded(item_page, step, None):
            body = page.locator("body").inner_text(timeout=timeout_ms)
            present = (step.value or "") in body
            if present != (a == "expect_text"):
                raise StepFailed(f"the page {'does not contain' if a == 'expect_text' else 'contains'} {step.value!r}")
        return "ok"
    if a == "press" and not step.has_target():
        with _recorded(item_page, step, None):
            page.keyboard.press(step.value or "")
        return "ok"
    loc, reusable = target(item_page, step)
    if a == "count":
        return str(loc.count())
    if a == "expect_count":
        with _recorded(item_page, step, reusable):
            n = loc.count()
            if n != step.count:
                raise StepFailed(f"{n} elements match, expected {step.count}")
        return "ok"
    if a == "expect_hidden":
        with _recorded(item_page, step, reusable):
            if loc.count() and loc.first.is_visible():
                raise StepFailed("the element is visible")
        return "ok"
    loc = _single(loc)
    if a in _ELEMENT_ACTIONS:
        with _recorded(item_page, step, reusable):
            return _act_on(loc, step, timeout_ms)
    if a == "read_text":
        return json.dumps(loc.inner_text(timeout=timeout_ms)[:500], ensure_ascii=False)
    if a == "read_value":
        return json.dumps(loc.input_value(timeout=timeout_ms)[:500], ensure_ascii=False)
    with _recorded(item_page, step, reusable):
        _expect_on(loc, step, timeout_ms)
    return "ok"


def _expect_on(loc, step: Step, timeout_ms: float) -> None:
    """Check an expectation about the single element ``loc`` (raises :class:`StepFailed` when it does not hold)."""
    a = step.action
    if a == "expect_visible":
        try:
            loc.wait_for(state="visible", timeout=timeout_ms)
        except Exception as exc:
            raise StepFailed(f"the element is not visible ({describe_error(exc)})") from None
    elif a in ("expect_text", "expect_no_text"):
        text = loc.inner_text(timeout=timeout_ms)
        if ((step.value or "") in text) != (a == "expect_text"):
            raise StepFailed(f"element text is {text[:200]!r}")
    elif a == "expect_value":
        value = loc.input_value(timeout=timeout_ms)
        if value != step.value:
            raise StepFailed(f"value is {value!r}")
    elif a == "expect_checked":
        if not loc.is_checked(timeout=timeout_ms):
            raise StepFailed("the element is not checked")


def run_steps(item_page, steps: list[Step], *, stop_on_error: bool = True, budget_s: float = 30.0,
              step_timeout_ms: float = 5_000) -> tuple[list[str], bool]:
    """Interpret ``steps`` in order; returns (one line per step, all succeeded).

    A failing step (an action error or an expectation that does not hold)
    stops the batch unless ``stop_on_error`` is false. The whole batch has a
    time budget of ``budget_s`` seconds.
    """

    lines, ok = [], True
    deadline = time.monotonic() + budget_s
    for i, step in enumerate(steps, 1):
        remaining_ms = (deadline - time.monotonic()) * 1000
        if remaining_ms <= 0:
            lines.append(f"{i}. {step.describe()} → not run: the batch ran out of time ({budget_s:g} s)")
            ok = False
            break
        try:
            timeout_ms = min(step_timeout_ms, remaining_ms)
            with bounded(item_page.page, max(timeout_ms, 10_000) / 1000):  # a step's own timeout, then the page's
                out = _run_step(item_page, step, timeout_ms)
            lines.append(f"{i}. {step.describe()} → {out}")
        except StepFailed as exc:
            ok = False
            lines.append(f"{i}. {step.describe()} → EXPECTATION FAILED: {exc}")
        except Exception as exc:  # noqa: BLE001 - reported to the model as text
            ok = False
            lines.append(f"{i}. {step.describe()} → ERROR: {describe_error(exc)}")
        if not ok and stop_on_error:
            if i < len(steps):
                lines.append(f"(stopped; {len(steps) - i} step(s) not run)")
            break
    return lines, ok
