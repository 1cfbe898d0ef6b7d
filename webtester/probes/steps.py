"""Steps that ask for a choice before they let the user go on: an onboarding's "pick your language", a booking's
appliance and time slot. Such a step shows a "Continue" / "Next" button that stays disabled until one of its
options (buttons, radio buttons, or cards: elements with a pointer cursor) is chosen, and no field to type into.

:func:`take_choice_steps` chooses the first enabled option of each kind of option the step shows, until its button
is enabled, then clicks the button; step after step. The exploration goes through them to reach what lies behind:
the app's own views after an onboarding, the form at the end of a booking.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from webtester.browser.session import ACTION_TIMEOUT_MS
from webtester.browser.watchdog import evaluate
from webtester.probes.scan import SELECTOR_JS
from webtester.probes.widgets import DAYS_CSS, OPTIONS_CSS

#: the button of a wizard's step
STEP_WORDS = re.compile(r"^\s*(next|continue)\b", re.IGNORECASE)
MAX_STEPS = 3  # choice steps gone through one after another
MAX_KINDS = 4  # kinds of option tried on one step before giving up

#: The step shown now, or null: its disabled "Continue" / "Next" button and, in the nearest ancestor
#: holding at least two options, the first enabled option of each kind (same tag, role and classes), in page order.
#: A step with a field to type into is a form (the form probes' business), not a choice step.
CHOICE_STEP_JS = r"""(stepWords) => {
  const vis = el => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
  const said = el => (el.innerText || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim();
  const off = el => !!el.disabled || el.getAttribute('aria-disabled') === 'true';
  const selector = el => window.__wtStableSelector(el);
  stepWords = new RegExp(stepWords, 'i');
  const button = [...document.querySelectorAll('button, [role=button]')]
    .find(b => vis(b) && off(b) && stepWords.test(said(b)));
  if (!button) return null;
  const typed = 'input:not([type=hidden]):not([type=radio]):not([type=checkbox]):not([type=button]):not([type=submit]), textarea, select';
  const pointer = el => getComputedStyle(el).cursor === 'pointer';
  const picker = el => el.getAttribute('role') === 'combobox' ||
    ['dialog', 'listbox', 'menu', 'true'].includes(el.getAttribute('aria-haspopup') || '');
  const isOption = el => {
    if (el === button || el.contains(button) || button.contains(el) || !vis(el) || off(el)) return false;
    if (/^(back|previous|prev|cancel|close|skip)\b/i.test(said(el))) return false;
    const tag = el.tagName.toLowerCase(), role = el.getAttribute('role') || '';
    if (tag === 'a') return false;  // a link leads elsewhere: no choice within the step
    if (tag === 'button' || tag === 'input' || ['button', 'radio', 'option', 'combobox'].includes(role)) return true;
    return pointer(el) && !(el.parentElement && pointer(el.parentElement)) && !el.closest('a, button, [role=button]') &&
      !!said(el);
  };
  let root = button.parentElement, options = [];
  while (root && root !== document.documentElement) {
    options = [...root.querySelectorAll('button, [role=button], [role=radio], [role=option], [role=combobox], ' +
                                        'input[type=radio], div, li, label, article')].filter(isOption);
    if (options.length >= 2) break;
    root = root.parentElement;
  }
  if (options.length < 2) return null;
  if (root && [...root.querySelectorAll(typed)].some(vis)) return null;
  // the first option of each kind (same tag, role and classes) offered at least twice, and every picker (a
  // button opening a calendar or a list), in page order
  const kind = el => [el.tagName, el.getAttribute('role') || '', el.getAttribute('class') || ''].join('|');
  const count = {};
  options.forEach(el => { count[kind(el)] = (count[kind(el)] || 0) + 1; });
  const seen = new Set(), firsts = [];
  for (const el of options) {
    const k = kind(el);
    if (picker(el)) { firsts.push({sel: selector(el), picker: true}); continue; }
    if (count[k] < 2 || seen.has(k)) continue;
    seen.add(k);
    firsts.push({sel: selector(el), picker: false});
  }
  if (!firsts.length) return null;
  return {button: selector(button), options: firsts.slice(0, 6)};
}"""

_ENABLED_JS = """(sel) => { const el = document.querySelector(sel);
  return !!el && !el.disabled && el.getAttribute('aria-disabled') !== 'true'; }"""

_SHOWN_JS = "(css) => !!document.querySelector(css)"

Click = Callable[[str], None]


def choice_step(page: Any) -> dict | None:
    """The choice step the page shows: ``{"button": selector, "options": [{"sel": selector, "picker": bool}, ...]}``
    (a picker opens a calendar or a list to choose from), or None."""
    evaluate(page, SELECTOR_JS)
    step = evaluate(page, CHOICE_STEP_JS, STEP_WORDS.pattern)
    return step if isinstance(step, dict) and step.get("button") and step.get("options") else None


def take_choice_steps(page: Any, *, click: Click | None = None, settle: Callable[[], None] | None = None,
                      max_steps: int = MAX_STEPS) -> list[str]:
    """Go through the choice steps the page shows, one after another (see the module docstring): the selectors
    clicked, in order, so that clicking them again goes the same way (empty when the page shows no choice step).
    A picker is chosen by its first enabled day or option. Stops at a step whose button no option enables, or
    whose button takes the page nowhere new."""
    def default_click(sel: str) -> None:
        page.locator(sel).first.click(timeout=ACTION_TIMEOUT_MS)

    do_click = click or default_click
    pause = settle or (lambda: page.wait_for_timeout(300))
    clicked: list[str] = []
    for _ in range(max_steps):
        step = choice_step(page)
        if step is None:
            break
        chosen: list[str] = []
        for option in step["options"][:MAX_KINDS]:
            if not _choose(page, option, do_click, pause, chosen):
                continue
            if evaluate(page, _ENABLED_JS, step["button"]):
                break
        else:
            return clicked  # no option enabled the step's button
        try:
            do_click(step["button"])
        except Exception:
            return clicked
        pause()
        clicked += [*chosen, step["button"]]
        if choice_step(page) == step:
            break  # the same step again: its button took the page nowhere
    return clicked


def _choose(page: Any, option: dict, click: Click, pause: Callable[[], None], chosen: list[str]) -> bool:
    """Click ``option``; a picker's first enabled day or option too. Whether it was clicked (its selectors are
    added to ``chosen``)."""
    done: list[str] = []
    try:
        click(option["sel"])
        pause()
        done.append(option["sel"])
        if option.get("picker"):
            shown = next((css for css in (DAYS_CSS, OPTIONS_CSS) if evaluate(page, _SHOWN_JS, css)), None)
            if shown is not None:
                click(shown)
                pause()
                done.append(shown)
    except Exception:
        return False
    chosen += done
    return True
