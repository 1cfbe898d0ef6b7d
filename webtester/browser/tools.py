"""The agent's browser tools (LangChain tools bound to one :class:`ItemPage`).

Every tool returns a short string and never raises: errors come back as text
starting with ``Error:`` that tells the model what to do next (e.g. a stale
reference). Action tools answer with what the action did, then only what
changed on the page (or the whole view when most of it changed), then anything
the browser reported meanwhile (console errors, failed or blocked requests,
dialogs, new tabs).
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable, Literal
from urllib.parse import urljoin

from langchain_core.tools import BaseTool, StructuredTool
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from pydantic import BaseModel, Field

from webtester.browser.code_actions import Step, relative_url, run_js, run_steps
from webtester.browser.confinement import same_origin
from webtester.browser.errors import describe_error
from webtester.browser.locators import Reusable, action_record, recording, through_reusable
from webtester.browser.observe import StaleRefError, diff, normalize_ref, resolve_ref
from webtester.browser.watchdog import PageUnresponsive, bounded, evaluate, navigate
from webtester.models import ActionRecord

MAX_RESULT_CHARS = 12_000

# ----------------------------------------------------------------------------- argument schemas

_REF = "e.g. e12"


class ObserveArgs(BaseModel):
    ref: str | None = Field(default=None, description="show only this element's part, unfolded")
    full: bool = Field(default=False, description="unfold repeated items, show link targets")


class NavigateArgs(BaseModel):
    url: str = Field(description="app path (e.g. /cart) or same-origin URL")


class ClickArgs(BaseModel):
    ref: str = Field(description=_REF)
    double: bool = False
    button: Literal["left", "right", "middle"] = "left"


class FillArgs(BaseModel):
    ref: str = Field(description=_REF)
    text: str = Field(description="replaces the field's content")
    press_enter: bool = False


class TypeArgs(BaseModel):
    ref: str = Field(description=_REF)
    text: str = Field(description="typed key by key at the end")
    press_enter: bool = False


class SelectArgs(BaseModel):
    ref: str = Field(description=_REF)
    options: list[str] = Field(description="option labels or values", min_length=1)


class CheckArgs(BaseModel):
    ref: str = Field(description=_REF)
    checked: bool = Field(default=True, description="false: uncheck")


class PressArgs(BaseModel):
    key: str = Field(description="e.g. Enter, Escape, Tab, Control+A")
    ref: str | None = Field(default=None, description="focus it first (default: the focused element)")


class RefArgs(BaseModel):
    ref: str = Field(description=_REF)


class ScrollArgs(BaseModel):
    ref: str | None = Field(default=None, description="scroll it into view")
    direction: Literal["down", "up"] = "down"
    pixels: int = Field(default=600, ge=1, le=10_000)


class WaitArgs(BaseModel):
    text: str | None = Field(default=None, description="until visible")
    text_gone: str | None = Field(default=None, description="until gone")
    seconds: float | None = Field(default=None, description="just wait (at most 10)")
    timeout: float = Field(default=5.0, description="seconds for the text (at most 20)")


class NoArgs(BaseModel):
    pass


class ScreenshotArgs(BaseModel):
    label: str = Field(default="screenshot", description="file name")
    ref: str | None = Field(default=None, description="only this element")
    full_page: bool = False


class DialogArgs(BaseModel):
    accept: bool = Field(description="true: OK, false: Cancel")
    prompt_text: str | None = Field(default=None, description="answer to prompt dialogs")


class JsArgs(BaseModel):
    script: str = Field(description="async function body run in the page; 'return' a JSON value")
    timeout: float = Field(default=5.0, description="seconds (at most 30)")


class StepsArgs(BaseModel):
    steps: list[Step] = Field(min_length=1, max_length=30)
    stop_on_error: bool = True


def compact_schema(schema: Any) -> Any:
    """A JSON schema as a model needs it: an optional field is given by its type alone (no ``anyOf`` with
    ``null``, no ``null`` default); validation still uses the full schema."""
    if isinstance(schema, list):
        return [compact_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: compact_schema(v) for k, v in schema.items()}
    options = out.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options and len(options) == 2:
        out.pop("anyOf")
        out = {**next(o for o in options if o != {"type": "null"}), **out}
    if "default" in out and out["default"] is None:
        out.pop("default")
    return out


class BrowserTool(StructuredTool):
    """A browser tool whose schema goes to the model compacted (:func:`compact_schema`)."""

    @property
    def tool_call_schema(self) -> dict[str, Any]:
        schema = self.args_schema
        full = schema.model_json_schema() if isinstance(schema, type) and issubclass(schema, BaseModel) else schema
        return compact_schema(full)


# ----------------------------------------------------------------------------- the tools


class BrowserTools:
    """Implementations of the tools for one item page (each returns text, never raises)."""

    def __init__(self, item_page, screenshot_dir: Path | None = None) -> None:
        self.item = item_page
        self._tmp_shots: Path | None = None
        if screenshot_dir is not None:
            self.item.screenshot_dir = Path(screenshot_dir)

    # -- plumbing

    @property
    def page(self):
        return self.item.page

    def _locator(self, ref: str):
        if self.item.last_observation is None:
            self.item.observe()
        loc = resolve_ref(self.page, self.item.last_observation, normalize_ref(ref))
        with bounded(self.page):
            found = loc.count()
        if found == 0:
            raise StaleRefError(f"[{normalize_ref(ref)}] is no longer on the page; use a reference from the latest page view")
        return loc

    def _what(self, ref: str) -> str:
        obs = self.item.last_observation
        try:
            return obs.describe(normalize_ref(ref)) if obs else f"[{ref}]"
        except ValueError:
            return ref

    def _target(self, ref: str) -> tuple[Any, Reusable | None]:
        """The element ``ref`` points at: through a reusable locator when one finds it alone on the page
        (:func:`~webtester.browser.locators.reusable_locator`), else through the reference itself."""
        loc = self._locator(ref)
        obs = self.item.last_observation
        with bounded(self.page):
            return through_reusable(self.page, loc, obs.refs.get(normalize_ref(ref)) if obs is not None else None)

    def _act_on(self, ref: str, action: str, do: Callable[[Any, str], str], *, value: str | None = None) -> str:
        """:meth:`_act` for an action on the element ``ref`` points at: ``do(locator, what)`` acts through the
        element's reusable locator, and the step is recorded with it (in the evidence's steps and actions, and
        as the title of the action in the trace)."""
        what = self._what(ref)

        def go() -> str:
            loc, reusable = self._target(ref)
            shown = f"{what} via {reusable.code}" if reusable else what
            step = f"{action} {reusable.code if reusable else what}" + (f" {value!r}" if value is not None else "")
            self.item.evidence.steps[-1] = step  # _act recorded the step by its reference before it was resolved
            with recording(self.item.evidence.actions, action_record(step, action, reusable, value)), \
                    self.item.trace_group(step):
                return do(loc, shown)

        return self._act(f"{action} {what}" + (f" {value!r}" if value is not None else ""), go)

    def _act(self, step: str, action: Callable[[], str | None], *, record: ActionRecord | None = None) -> str:
        """Run ``action``, then report what it did, what changed and what the browser said; ``record``: the
        page step's record in the evidence's actions (an action on an element records its own)."""
        if self.item.last_observation is None:
            self.item.observe()
        before = self.item.last_observation
        mark = self.item.evidence.mark()
        self.item.evidence.steps.append(step)
        try:
            if record is None:
                message = action() or "Done."
            else:
                with recording(self.item.evidence.actions, record):
                    message = action() or "Done."
        except StaleRefError as exc:
            return f"Error: {exc}"
        except PageUnresponsive:
            raise  # a frozen page ends the item (the detection loop records why); nothing more can be done there
        except Exception as exc:  # noqa: BLE001 - returned to the model
            shot = self._failure_shot(step)
            return f"Error: {step} failed: {describe_error(exc)}{shot}" + self._reported(mark)
        self.item.settle()
        after = self.item.observe()
        if before is not None and self.item.wait_for_route(before, after):
            after = self.item.observe()
        return self._cap(f"{message}\n{diff(before, after)}{self._reported(mark)}")

    def _reported(self, mark) -> str:
        news = self.item.evidence.since(mark)
        if not news:
            return ""
        shown = news[:10] + ([f"… {len(news) - 10} more (see console_errors)"] if len(news) > 10 else [])
        return "\nBrowser reported:\n" + "\n".join(f"- {n}" for n in shown)

    def _failure_shot(self, label: str) -> str:
        if self.item.screenshot_dir is None:
            return ""
        try:
            return f" (screenshot: {self.item.screenshot(label='error-' + label.split()[0])})"
        except Exception:
            return ""

    @staticmethod
    def _cap(text: str) -> str:
        if len(text) <= MAX_RESULT_CHARS:
            return text
        return text[:MAX_RESULT_CHARS] + f"\n… (cut: {len(text) - MAX_RESULT_CHARS} more characters; use observe with a ref)"

    # -- tools

    def observe(self, ref: str | None = None, full: bool = False) -> str:
        if ref:
            ref = normalize_ref(ref)
            if self.item.last_observation and ref not in self.item.last_observation.refs:
                return f"Error: [{ref}] is not on the current page; call observe without a ref for fresh references"
        return self._cap(self.item.observe(ref=ref, full=full).text)

    def navigate(self, url: str) -> str:
        target = urljoin(self.item.base_url, url.strip())
        if not same_origin(target, self.item.origin):
            return (f"Error: {target} is outside the app under test ({self.item.origin}); only the app's own pages "
                    "can be opened (file:// and other sites are refused)")

        def go() -> str:
            response = navigate(self.page, target, wait_until="domcontentloaded")
            status = f" (HTTP {response.status})" if response is not None and response.status >= 400 else ""
            return f"Opened {self.page.url}{status}."

        step = f"navigate {target}"
        return self._act(step, go, record=action_record(step, "goto", None, relative_url(target, self.item.origin)))

    def click(self, ref: str, double: bool = False, button: str = "left") -> str:
        def go(loc, what: str) -> str:
            if double:
                loc.dblclick(button=button)
            else:
                loc.click(button=button)
            return f"{'Double-clicked' if double else 'Clicked'} {what}."

        return self._act_on(ref, "dblclick" if double else "click", go)

    def fill(self, ref: str, text: str, press_enter: bool = False) -> str:
        def go(loc, what: str) -> str:
            loc.fill(text)
            if press_enter:
                loc.press("Enter")
            return f"Filled {what} with {text!r}{' and pressed Enter' if press_enter else ''}."

        return self._act_on(ref, "fill", go, value=text)

    def type_text(self, ref: str, text: str, press_enter: bool = False) -> str:
        def go(loc, what: str) -> str:
            loc.press_sequentially(text, delay=10)
            if press_enter:
                loc.press("Enter")
            return f"Typed {text!r} into {what}{' and pressed Enter' if press_enter else ''}."

        return self._act_on(ref, "type", go, value=text)

    def select_option(self, ref: str, options: list[str]) -> str:
        def go(loc, what: str) -> str:
            try:
                chosen = loc.select_option(label=options, timeout=2_000)
            except Exception:
                chosen = loc.select_option(value=options)
            return f"Selected {chosen} in {what}."

        return self._act_on(ref, "select", go, value=" | ".join(options))

    def check(self, ref: str, checked: bool = True) -> str:
        def go(loc, what: str) -> str:
            loc.set_checked(checked)
            return f"{'Checked' if checked else 'Unchecked'} {what}."

        return self._act_on(ref, "check" if checked else "uncheck", go)

    def press_key(self, key: str, ref: str | None = None) -> str:
        if ref:
            def on(loc, what: str) -> str:
                loc.press(key)
                return f"Pressed {key} on {what}."

            return self._act_on(ref, "press", on, value=key)

        def go() -> str:
            with bounded(self.page):
                self.page.keyboard.press(key)
            return f"Pressed {key} on the focused element."

        step = f"press {key} on the focused element"
        return self._act(step, go, record=action_record(step, "press", None, key))

    def hover(self, ref: str) -> str:
        def go(loc, what: str) -> str:
            loc.hover()
            return f"Hovered over {what}."

        return self._act_on(ref, "hover", go)

    def scroll(self, ref: str | None = None, direction: str = "down", pixels: int = 600) -> str:
        if ref:
            def into_view(loc, what: str) -> str:
                loc.scroll_into_view_if_needed()
                return f"Scrolled {what} into view."

            return self._act_on(ref, "scroll_into_view", into_view)

        def go() -> str:
            with bounded(self.page):
                self.page.mouse.wheel(0, pixels if direction == "down" else -pixels)
            y = evaluate(self.page, "() => [Math.round(scrollY), document.documentElement.scrollHeight - innerHeight]")
            return f"Scrolled {direction} by {pixels} px (now at {y[0]} of {max(y[1], 0)} px)."

        return self._act(f"scroll {direction}", go)

    def wait_for(self, text: str | None = None, text_gone: str | None = None, seconds: float | None = None,
                 timeout: float = 5.0) -> str:
        if text is None and text_gone is None and seconds is None:
            return "Error: give 'text', 'text_gone' or 'seconds'"
        timeout_ms = min(max(timeout, 0.1), 20.0) * 1000

        step = f"wait {text or text_gone or seconds}"

        def go() -> str:
            if seconds is not None:
                waited = min(max(seconds, 0.0), 10.0)
                with recording(self.item.evidence.actions, action_record(f"wait {waited:g} s", "wait", None, f"{waited:g}")):
                    self.page.wait_for_timeout(waited * 1000)
            for shown, action, state in ((text, "wait_for_text", "visible"), (text_gone, "wait_for_text_gone", "hidden")):
                if shown is not None:
                    record = action_record(f"{action} {shown!r}", action, Reusable({"text": shown}, exact=False), shown)
                    with recording(self.item.evidence.actions, record, failed=PlaywrightTimeout):
                        self.page.get_by_text(shown).first.wait_for(state=state, timeout=timeout_ms)
            return "Waited" + (f" until {text!r} appeared" if text else "") + (f" until {text_gone!r} disappeared" if text_gone else "") + "."

        return self._act(step, go)

    def go_back(self) -> str:
        def go() -> str:
            response = self.page.go_back(wait_until="domcontentloaded")
            if response is None and self.item.last_observation and self.page.url == self.item.last_observation.url:
                return "Went back (a single-page app may stay on the same document)."
            return f"Went back to {self.page.url}."

        return self._act("go back", go, record=action_record("go back", "go_back", None))

    def screenshot(self, label: str = "screenshot", ref: str | None = None, full_page: bool = False) -> str:
        if self.item.screenshot_dir is None:
            self._tmp_shots = self._tmp_shots or Path(tempfile.mkdtemp(prefix="webtester-shots-"))
            self.item.screenshot_dir = self._tmp_shots
        path = self.item.screenshot(label=label, ref=normalize_ref(ref) if ref else None, full_page=full_page)
        return f"Saved screenshot {path}"

    def console_errors(self) -> str:
        return self._cap(self.item.evidence.summary())

    def set_dialog_answer(self, accept: bool, prompt_text: str | None = None) -> str:
        self.item.dialog_accept = accept
        self.item.dialog_prompt_text = prompt_text
        return f"From now on dialogs are {'accepted (OK)' if accept else 'dismissed (Cancel)'}" + (
            f", prompts answered with {prompt_text!r}." if prompt_text is not None else "."
        )

    def run_js(self, script: str, timeout: float = 5.0) -> str:
        holder: dict[str, str] = {}

        def go() -> str:
            holder["value"] = run_js(self.item, script, timeout)
            return f"Script returned: {holder['value']}"

        return self._act("run_js", go)

    def run_steps(self, steps: list, stop_on_error: bool = True) -> str:
        parsed = [s if isinstance(s, Step) else Step.model_validate(s) for s in steps]

        def go() -> str:
            lines, ok = run_steps(self.item, parsed, stop_on_error=stop_on_error)
            return ("All steps succeeded:" if ok else "Some steps failed:") + "\n" + "\n".join(lines)

        return self._act(f"run_steps ({len(parsed)} steps)", go)


def _guard(name: str, fn: Callable[..., str]) -> Callable[..., str]:
    @functools.wraps(fn)
    def wrapper(**kwargs) -> str:
        try:
            return fn(**kwargs)
        except StaleRefError as exc:
            return f"Error: {exc}"
        except PageUnresponsive:
            raise  # the one exception the agent loop sees: the item cannot go on in a frozen page
        except Exception as exc:  # noqa: BLE001 - the agent loop must never see another exception
            return f"Error: {name} failed: {describe_error(exc)}"

    return wrapper


_SPECS: list[tuple[str, str, type[BaseModel], str]] = [
    ("observe", "observe", ObserveArgs,
     "Show the page: URL, title and a view where interactive elements have references like [e12]."),
    ("navigate", "navigate", NavigateArgs, "Open a page of the app by path or same-origin URL."),
    ("click", "click", ClickArgs, "Click an element."),
    ("fill", "fill", FillArgs, "Replace a form field's content (optionally press Enter)."),
    ("type_text", "type_text", TypeArgs, "Type key by key (when the app reacts to each key, e.g. autocomplete)."),
    ("select_option", "select_option", SelectArgs, "Choose option(s) in a select/combobox."),
    ("check", "check", CheckArgs, "Check or uncheck a checkbox, radio or switch."),
    ("press_key", "press_key", PressArgs, "Press a key on an element or the focused one."),
    ("hover", "hover", RefArgs, "Hover over an element (tooltips, menus)."),
    ("scroll", "scroll", ScrollArgs, "Scroll the page, or an element into view."),
    ("wait_for", "wait_for", WaitArgs, "Wait for a text to appear or go, or for some seconds."),
    ("go_back", "go_back", NoArgs, "Go back in the browser history."),
    ("screenshot", "screenshot", ScreenshotArgs, "Save a screenshot as evidence; returns its path."),
    ("console_errors", "console_errors", NoArgs,
     "List console and page errors, failed or blocked requests, dialogs and refused downloads so far."),
    ("set_dialog_answer", "set_dialog_answer", DialogArgs, "Set how dialogs are answered from now on (default: OK)."),
    ("run_js", "run_js", JsArgs, "Run JavaScript in the page; returns its JSON result (styles, storage, properties)."),
    ("run_steps", "run_steps", StepsArgs,
     "Run several steps in one call. A step targets a ref, or role+name, text, label, placeholder or css. "
     "Returns one line per step and what changed."),
]


def _bad_arguments(name: str) -> Callable[[Exception], str]:
    def explain(exc: Exception) -> str:
        problems = []
        for err in getattr(exc, "errors", lambda: [])():
            where = ".".join(str(p) for p in err.get("loc", ())) or "arguments"
            problems.append(f"{where}: {err.get('msg', 'invalid')}")
        return f"Error: invalid arguments for {name}: " + ("; ".join(problems) or str(exc).splitlines()[0])

    return explain


#: the tools a small context window gets (``Settings.detection_tools``): observing, the user's own actions and
#: waiting for a text (an expectation the export can replay); the rest (hover, scroll, typing key by key,
#: screenshots, console errors, dialogs, JavaScript, batched steps, and the probes) only with the full set
CORE_TOOLS = ("observe", "navigate", "click", "fill", "select_option", "check", "press_key", "wait_for", "go_back")
TOOL_NAMES = tuple(spec[0] for spec in _SPECS)


def make_browser_tools(item_page, *, screenshot_dir: Path | None = None,
                       only: Sequence[str] | None = None) -> list[BaseTool]:
    """The agent's browser tools bound to ``item_page`` (``only``: just these, e.g. :data:`CORE_TOOLS`); each
    returns a short string and never raises (invalid arguments are answered with an error text too)."""
    if only is not None and set(only) - set(TOOL_NAMES):
        raise ValueError(f"unknown browser tools {sorted(set(only) - set(TOOL_NAMES))}; known: {', '.join(TOOL_NAMES)}")
    impl = BrowserTools(item_page, screenshot_dir=screenshot_dir)
    tools: list[BaseTool] = []
    for name, method, schema, description in _SPECS:
        if only is not None and name not in only:
            continue
        tools.append(
            BrowserTool.from_function(
                func=_guard(name, getattr(impl, method)), name=name, description=description, args_schema=schema,
                handle_validation_error=_bad_arguments(name),
            )
        )
    return tools
