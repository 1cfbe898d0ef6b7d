"""Reach / trigger / detect: where the execution of one checked item went wrong, read from its recorded evidence.

Pure, deterministic functions (no model): :func:`diagnose` takes an item (:class:`~webtester.models.TestItem`)
and its verdict and returns a :class:`Diagnosis`: three booleans, the first stage that failed and a one-line
reason per stage. The rules:

**Subject terms** of an item: the words of its description and its action (``TestItem.description``,
``TestItem.action``) of at least three letters, lower-cased, less the words of :data:`STOP_WORDS`, each reduced
by :func:`stem` (one suffix of :data:`SUFFIXES` removed when three letters remain, then a final ``e`` removed,
a final ``y`` read as ``i`` and a final doubled consonant made single: ``entries``/``entry`` -> ``entri``,
``closes``/``close`` -> ``clos``, ``submitted``/``submit`` -> ``submit``). A text *names* a subject term when
one of its words, reduced the same way, equals it. Code in recorded text (keyword names such as ``name=``,
``get_by_role``) and the page view's marker ``Changes (- removed, + added)`` are left out before reading.

The *text of an action* (:class:`~webtester.models.ActionRecord`) is its ``target`` values but the role (the
string literals of its ``locator`` when it has no target), its ``value``, and, when it has neither target nor
locator, its ``step``; a page step (``goto``, ``reload``, ``go_back``, ``wait``, or ``press`` with no element)
adds its action name (``reload``).
A *probe finding* is a bug report whose issue carries the baseline's tag ``[probe NAME on ELEMENT]``.

1. **Reach** (the UI the item is about was on screen or acted on): some subject term is named by the text of an
   action, by a recorded step (``Evidence.steps``; not the step that records the verdict, ``record_verdict(...)``:
   its words are the tester's, not the page's) or by a probe finding. An item with no subject term, or one
   about the whole app (its description holds a word of :data:`APP_WIDE_WORDS`: "Every image loads"), is
   reached when anything at all was recorded. Nothing recorded: not reached.
2. **Trigger** (the item's action was performed on it): the item is reached, and either it needs no action
   (its dimension is *content*, or its action has words and none outside :data:`STOP_WORDS` and
   :data:`LOOKING_WORDS`: "Look at it"; an item without action text, as in oracle runs, by its dimension
   alone), or an action that is no expectation, ``goto`` or ``wait`` ended ``done`` and its text names a
   subject term. A verdict that records no actions at all (a tester that
   records text steps only) is triggered by a step that names a subject term and holds a word of
   :data:`ACTING_WORDS` (``form "Report review": submitted empty``), or by a probe finding.
3. **Detect** (the verdict matches what the evidence shows): a Fail is supported by a failed expectation
   (outcome ``failed``), a console or page error, a failed request, or a probe finding; a Pass is supported
   when no expectation failed and no page error was recorded.

``stage`` is the first of ``reach``, ``trigger``, ``detect`` that failed, or None when all held. A verdict
``error`` (not checked, or could not be executed) or a missing verdict is ``not run``: its three booleans are
False. For a verdict found wrong against gold, :func:`wrong_stage` attributes it to ``stage``, or to
``detect`` when all three held (the evidence was there and the verdict misjudged it: ``misjudged``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from webtester.models import ActionRecord, Dimension, Status, TestItem, Verdict

Stage = Literal["not run", "reach", "trigger", "detect"]
#: the stages in the order they are checked
STAGES: tuple[Stage, ...] = ("reach", "trigger", "detect")
NOT_RUN: Stage = "not run"

#: words that never name what an item is about: function words, the language of test items, code in steps
STOP_WORDS = frozenset("""
a about above after again all also am an and any anywhere are as at be been before being below between both but by
can cannot could did do does doing done down during each either else every everything everywhere few for from
further had has have having he her here hers him his how however if in into is it its itself just least let like
may me might more most must my no nor not now of off on once one only or other our out over own per same shall
she should so some still such than that the their them then there these they this those through to too under
until up upon very via was we were what when where whether which while who whom why will with within without
would yes yet you your
app application applications website site web user users visitor visitors reader readers someone person people
able correctly correct properly proper working works work expected expect expectation requirement requirements
exercise test tested tests testing item items feature features behaviour behavior thing things way ways
right away immediately once shown show shows showing displayed display displays appear appears visible see seen
page pages screen view current new existing given certain least always never
click clicks clicked clicking fill fills filled filling press presses pressed pressing tap try use using leave
true false none null exact ref focus get_by_role get_by_text get_by_label locator
""".split())

#: an item whose description holds one of these is about the whole app ("Every image loads")
APP_WIDE_WORDS = frozenset({"every", "all", "anywhere", "everywhere", "throughout"})

#: an item whose action holds only these (and stop words) needs no action: it is about what is shown
LOOKING_WORDS = frozenset("""
look looks looking view read visit visits browse inspect observe watch open load loads loaded navigate
scan scroll compare
""".split())

#: words of a recorded text step that say an action was performed
ACTING_WORDS = frozenset("""
clicked click pressed press filled fill typed type submitted submit selected select chose chosen checked
unchecked toggled hovered dragged dropped uploaded entered deleted removed added edited saved reloaded
opened closed sorted filtered searched
""".split())

#: suffixes :func:`stem` removes (the longest that fits first)
SUFFIXES = ("ations", "ation", "ings", "ions", "able", "ing", "ion", "ies", "es", "ed", "ly", "s")

#: the tool that records an LLM tester's verdict: its step restates the verdict, so it is not read as evidence
VERDICT_TOOL = "record_verdict"
PAGE_STEPS = frozenset({"goto", "reload", "go_back", "wait"})
_NOT_TRIGGERS = frozenset({"goto", "wait"})
_WORD = re.compile(r"[a-z]{3,}")
_CODE = re.compile(r"\b[a-z_]+(?==)|\bget_by_\w+|\bpage\.|Changes \(- removed, \+ added\)")
_LITERAL = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'")
_PROBE = re.compile(r"\[probe [\w-]+(?: on [^\]]+)?\]")
_VOWELS = set("aeiou")


def stem(word: str) -> str:
    """The stem of a lower-case word (see the module docstring): ``entries`` -> ``entri``, ``closed`` -> ``clos``."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("i" if suffix == "ies" else "")
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    if word.endswith("y") and len(word) > 3:
        word = word[:-1] + "i"
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in _VOWELS:
        word = word[:-1]
    return word


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(_CODE.sub(" ", text).lower()) if w not in STOP_WORDS]


def terms(text: str) -> set[str]:
    """The stems of the words of ``text`` that are no stop words."""
    return {stem(w) for w in _words(text)}


def subject_terms(item: TestItem) -> set[str]:
    """The subject terms of an item: :func:`terms` of its description and action."""
    return terms(f"{item.description} {item.action}")


def needs_no_action(item: TestItem) -> bool:
    """True for a content item, or one whose action only looks (it has words, all of them stop or looking words);
    an item with no action (an oracle run's gold item) is decided by its dimension alone."""
    words = _words(item.action)
    return item.dimension is Dimension.content or (bool(words) and all(w in LOOKING_WORDS for w in words))


def _is_page_step(a: ActionRecord) -> bool:
    return a.action in PAGE_STEPS or (a.action == "press" and a.locator is None and a.target is None)


def action_text(a: ActionRecord) -> str:
    """The text of an action that names what it acted on (see the module docstring)."""
    parts = [v for k, v in (a.target or {}).items() if k != "role"]
    if a.locator and a.target is None:
        parts += [m.group(1) or m.group(2) or "" for m in _LITERAL.finditer(a.locator)]
    if a.value:
        parts.append(a.value)
    if a.target is None and a.locator is None:
        parts.append(a.step)
    if _is_page_step(a):
        parts.append(a.action)
    return " ".join(parts)


def probe_findings(verdict: Verdict) -> list[str]:
    """The probe findings of a verdict: its bug report's issue when it carries a ``[probe ...]`` tag."""
    report = verdict.bug_report
    return [report.issue] if report is not None and _PROBE.search(report.issue) else []


@dataclass(frozen=True)
class Diagnosis:
    """Where one item's execution stands: each stage's outcome and reason, and the first stage that failed."""

    reached: bool
    triggered: bool
    supported: bool
    stage: Stage | None
    reach_reason: str
    trigger_reason: str
    detect_reason: str

    @property
    def reasons(self) -> dict[str, str]:
        """Stage name -> its one-line reason."""
        return {"reach": self.reach_reason, "trigger": self.trigger_reason, "detect": self.detect_reason}

    def held(self, stage: str) -> bool:
        """Whether ``stage`` (reach / trigger / detect) held."""
        return {"reach": self.reached, "trigger": self.triggered, "detect": self.supported}[stage]


def _found(subject: set[str], texts: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    for text in texts:
        seen |= terms(text) & subject
    return sorted(seen)


def _short(words: Iterable[str], n: int = 6) -> str:
    words = list(words)
    return ", ".join(words[:n]) + (", ..." if len(words) > n else "")


def _steps(verdict: Verdict) -> list[str]:
    return [s for s in verdict.evidence.steps if not s.startswith(f"{VERDICT_TOOL}(")]


def _reach(item: TestItem, subject: set[str], verdict: Verdict) -> tuple[bool, str]:
    ev = verdict.evidence
    texts = [action_text(a) for a in ev.actions] + _steps(verdict) + probe_findings(verdict)
    if not any(t.strip() for t in texts):
        return False, "no action, step or probe finding was recorded"
    found = _found(subject, texts)
    if found:
        return True, f"subject terms seen: {_short(found)}"
    if not subject:
        return True, "the item names no subject term; steps were recorded"
    if APP_WIDE_WORDS & set(_WORD.findall(item.description.lower())):
        return True, "the item is about the whole app; steps were recorded"
    return False, f"no recorded action or step names the item's subject ({_short(sorted(subject))})"


def _trigger(item: TestItem, subject: set[str], verdict: Verdict, reached: bool) -> tuple[bool, str]:
    if not reached:
        return False, "not reached"
    if needs_no_action(item):
        return True, "the item needs no action (it is about what is shown)"
    ev = verdict.evidence
    acts = [a for a in ev.actions if not a.is_expectation() and a.action not in _NOT_TRIGGERS]
    if not ev.actions:
        steps = [s for s in _steps(verdict) if ACTING_WORDS & set(_WORD.findall(s.lower()))]
        found = _found(subject, steps + probe_findings(verdict))
        if found:
            return True, f"a recorded step acted on {_short(found)}"
        return False, "no recorded step acted on the item's subject"
    done = [a for a in acts if a.outcome == "done" and terms(action_text(a)) & subject]
    if done:
        return True, f"{len(done)} action(s) done on the item's subject, first: {done[0].step}"[:200]
    failed = [a for a in acts if a.outcome == "error" and terms(action_text(a)) & subject]
    if failed:
        return False, f"the action on the item's subject ended in an error: {failed[0].step}"[:200]
    if not acts:
        return False, "only navigations, waits or expectations were recorded: nothing was acted on"
    return False, f"{len(acts)} action(s) recorded, none done on the item's subject"


def _detect(verdict: Verdict) -> tuple[bool, str]:
    ev = verdict.evidence
    failed = [a for a in ev.actions if a.is_expectation() and a.outcome == "failed"]
    if verdict.status is Status.failed:
        backing = ([f"failed expectation: {failed[0].step}"] if failed else []) + \
                  ([f"{len(ev.page_errors)} page error(s)"] if ev.page_errors else []) + \
                  ([f"{len(ev.console_errors)} console error(s)"] if ev.console_errors else []) + \
                  ([f"{len(ev.failed_requests)} failed request(s)"] if ev.failed_requests else []) + \
                  (["a probe finding"] if probe_findings(verdict) else [])
        if backing:
            return True, ("Fail backed by " + "; ".join(backing))[:200]
        return False, "Fail with no failed expectation, browser error or probe finding to back it"
    if failed:
        return False, f"Pass despite a failed expectation: {failed[0].step}"[:200]
    if ev.page_errors:
        return False, f"Pass despite {len(ev.page_errors)} page error(s): {ev.page_errors[0]}"[:200]
    held = sum(1 for a in ev.actions if a.is_expectation() and a.outcome == "held")
    return True, f"Pass with {held} held expectation(s), no failed expectation and no page error"


def diagnose(item: TestItem, verdict: Verdict | None) -> Diagnosis:
    """Reach / trigger / detect of ``item`` from its verdict (see the module docstring for the rules)."""
    if verdict is None or verdict.status is Status.error:
        why = "no verdict" if verdict is None else (verdict.evidence.notes.strip().splitlines() or ["error"])[0]
        reason = f"not run: {why}"[:200]
        return Diagnosis(False, False, False, NOT_RUN, reason, reason, reason)
    subject = subject_terms(item)
    reached, reach_reason = _reach(item, subject, verdict)
    triggered, trigger_reason = _trigger(item, subject, verdict, reached)
    supported, detect_reason = _detect(verdict)
    stage = next((s for s, ok in zip(STAGES, (reached, triggered, supported)) if not ok), None)
    return Diagnosis(reached, triggered, supported, stage, reach_reason, trigger_reason, detect_reason)


def wrong_stage(diagnosis: Diagnosis) -> Stage:
    """The stage a verdict found wrong against gold is attributed to: its first failed stage, else ``detect``
    (all held: the verdict misjudged the evidence)."""
    return diagnosis.stage or "detect"
