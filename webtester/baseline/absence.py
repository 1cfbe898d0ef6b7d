"""Feature search: does the explored app show what an item is about?

An item names a feature ("mark an interview as a conflict", "export decisions as CSV"); the crawl's state
graph holds every view the app showed (text, headings, control names, field labels and options, routes).
This module measures how much of the item's vocabulary the app never showed, across all states and in the
best single state, and turns that, with what the item asks for (its dimension; a validation, a warning, a
real-time update) and how thin the app is overall, into a probability that the item fails on this app.

The probability comes from a logistic model whose coefficients ship with the package
(``data/absence_model.json``, trained on the WebTestBench dev apps by ``webtester.eval.benchmarks.real_apps``,
which also prints its cross-validated figures). A Fail is claimed only above the model's threshold, and its
evidence says which words of the item the app never showed and which states were searched.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import snowballstemmer

from webtester.baseline.crawl import CrawlState, StateGraph
from webtester.models import Dimension

MODEL_RESOURCE = "data/absence_model.json"
STOP = frozenset("""
a about above after again all also an and any are as at be been before being below between both but by can
could did do does doing down during each either etc few for from further had has have having her here his how
i if in into is it its itself just let like may me more most must my no nor not of off on once one only or other
our out over own same she should so some such than that the their them then there these they this those
through to too under until up upon very via was way we were what when where whether which while who whom why
will with within without would you your yours user users system page pages website web webpage site app
application platform able allow allows allowed support supports supported provide provides provided display
displays displayed show shows shown view views function functions functionality feature features option
options information content contents data item items entry entries clear clearly correct correctly properly
accurate accurately relevant related corresponding specific certain various different multiple new existing
current given based using use used make makes ensure ensures need needs needed want visitors visitor people
person customer customers member members interface module modules section sections
""".split())
#: words that describe behaviour (what must happen, how it is judged) rather than a feature the app would show;
#: a validation message or a "real-time" update is not on screen until it is triggered, and the verbs and outcome
#: words of a check (enter, create, rejected, nothing found) or the words form / field are no feature of their own
BEHAVIOUR = frozenset("""
cannot prevent prevented require required requirement empty blank invalid valid validation error errors message
messages warning warn warned prompt prompted attempt attempts try tries submit submitted submission duplicate
duplicates repeat repeated repeatedly twice same already real time immediately instantly automatically correct
reasonable successful successfully fail failed failure unable clear smooth smoothly without lag quick quickly
normal normally complete completely fully full accurate properly update updated updates change changes changed
must only limit limited allow allowed still lost remain remains kept keep keeps persist saved reload refresh
missing nothing reject rejected rejects instead accept accepted incomplete input otherwise found mismatch scenario
scenarios create created add added enter entered save form forms field fields
""".split())
CONSTRAINT_CUES = re.compile(r"\b(prevent|cannot|can't|must not|not be able|invalid|duplicate|conflict|limit|exceed|"
                             r"required|empty|blank|validat|warning|warn|prompt|restrict|only|at least|at most|"
                             r"format|unique|maximum|minimum|negative|future|past)\w*", re.IGNORECASE)
FEEDBACK_CUES = re.compile(r"\b(real[- ]time|immediately|instantly|automatically|feedback|highlight|animation|"
                           r"notification|toast|confirm\w*|pop-?up|update[sd]?|refresh|sync\w*)\b", re.IGNORECASE)
FEATURE_NAMES = (
    "missing_share", "missing_count_log", "best_state_share", "instruction_missing", "dim_constraint",
    "dim_interaction", "dim_content", "constraint_cues", "feedback_cues", "app_missing_share", "states_log",
    "js_share", "item_words_log", "actions_without_control", "actions_asked",
)
#: actions an item may ask for, and the words of a control that does them (a control's name, label or icon)
ACTIONS = {
    "delete": (r"\b(delet|remov)", r"\b(delete|remove|trash|discard)"),
    "edit": (r"\b(edit|modif)", r"\b(edit|modify|update|change)"),
    "export": (r"\b(export|download)", r"\b(export|download)"),
    "import": (r"\b(import|upload)", r"\b(import|upload|file|browse)"),
    "share": (r"\bshar(e|es|ed|ing)\b", r"\bshare"),
    "print": (r"\bprint", r"\bprint"),
    "favorite": (r"\b(favou?rit|bookmark)", r"\b(favou?rite|bookmark|save|like)"),
    "comment": (r"\b(comment|repl(y|ies))", r"\b(comment|reply|send|post)"),
    "sort": (r"\bsort", r"\b(sort|order|newest|oldest|price|name|date)"),
    "filter": (r"\bfilter", r"\b(filter|all|category|status|type)"),
}


@cache
def _stemmer() -> Any:
    return snowballstemmer.stemmer("english")


def terms(text: str, *, behaviour: bool = True) -> set[str]:
    """The stemmed content words of ``text`` (stop words and requirement boilerplate left out; with
    ``behaviour=False`` also the words of :data:`BEHAVIOUR`)."""
    words = [w for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in STOP and (behaviour or w not in BEHAVIOUR)]
    return {s for s in _stemmer().stemWords(words) if s not in STOP}


#: what an icon-only control does, by the icon's name (the crawl reads lucide-react's icon class); the first
#: word of the icon name is looked up ("trash 2" -> "trash")
ICON_ACTIONS = {
    "trash": "delete remove", "pencil": "edit", "pen": "edit", "square": "edit", "edit": "edit", "plus": "add new",
    "heart": "favorite like", "star": "favorite rate", "bookmark": "bookmark save", "thumbs": "like vote",
    "download": "download export", "upload": "upload import", "share": "share", "copy": "copy duplicate",
    "eye": "view show", "filter": "filter", "search": "search", "archive": "archive", "printer": "print",
    "message": "comment message", "send": "send", "bell": "notification", "settings": "settings", "cog": "settings",
    "log": "sign", "calendar": "date", "check": "complete done", "x": "close", "refresh": "refresh reset",
    "rotate": "undo reset", "undo": "undo", "save": "save", "user": "profile", "users": "members",
}


#: icons of a menu button ("...") whose entries the crawl may not have opened: any action may hide behind it
MENU_ICONS = re.compile(r"^(?:ellipsis|more)\b")


def icon_words(icon: str) -> str:
    """The actions an icon-only control stands for (empty when the icon is not known); the icon's first word is
    looked up without a trailing number ("trash2" and "trash 2" are "trash")."""
    head = re.match(r"[a-z]+", icon or "")
    return ICON_ACTIONS.get(head.group(0), "") if head else ""


def _control_text(control: dict[str, Any]) -> str:
    """What a crawled control shows or stands for: its name, label, placeholder, options and icon action."""
    return " ".join([control.get("name", ""), control.get("label", ""), control.get("placeholder", ""),
                     " ".join(control.get("options", [])), icon_words(control.get("icon", ""))])


def offered_controls(state: CrawlState) -> list[dict]:
    """The state's controls that offer an action (a card's text is the data it shows, already in the state's text)."""
    return [control for control in state.controls if control.get("role") != "card"]


def _state_terms(graph: StateGraph) -> list[set[str]]:
    out = []
    for state in graph.states:
        parts = [state.text, state.title, " ".join(state.headings), re.sub(r"[/_\-?=&]", " ", state.url.split("//", 1)[-1])]
        parts += [_control_text(control) for control in offered_controls(state)]
        out.append(terms(" ".join(parts)))
    return out


def actions_asked(text: str) -> list[str]:
    """The actions of :data:`ACTIONS` that ``text`` asks for (delete, edit, export ...), offered by the app or not."""
    lowered = text.lower()
    return [name for name, (asked, _) in ACTIONS.items() if re.search(asked, lowered)]


@dataclass
class AppVocabulary:
    """What the explored app showed: every state's words, and their union."""

    graph: StateGraph
    instruction_terms: set[str]
    states: list[set[str]] = field(default_factory=list)
    union: set[str] = field(default_factory=set)
    controls: str = ""  # every control's name, label, options and icon action, lower case, one per line

    @classmethod
    def of(cls, graph: StateGraph, instruction: str) -> "AppVocabulary":
        states = _state_terms(graph)
        controls = "\n".join(_control_text(c).lower() for state in graph.states for c in offered_controls(state))
        return cls(graph, terms(instruction), states, set().union(*states) if states else set(), controls)

    @property
    def menus(self) -> int:
        """How many crawled controls are menu buttons ("...") whose entries may offer more actions."""
        return sum(1 for state in self.graph.states for control in offered_controls(state)
                   if MENU_ICONS.match(control.get("icon") or ""))

    def actions_without_control(self, text: str) -> list[str]:
        """The actions of :data:`ACTIONS` that ``text`` asks for and no crawled control offers."""
        return [name for name in actions_asked(text) if not re.search(ACTIONS[name][1], self.controls)]

    @property
    def app_missing_share(self) -> float:
        """Share of the instruction's words the app never showed (a thin app leaves many out)."""
        if not self.instruction_terms:
            return 0.0
        return len(self.instruction_terms - self.union) / len(self.instruction_terms)


@dataclass
class ItemSearch:
    """Where an item's words were (not) found."""

    item_terms: set[str]
    missing: set[str]
    best_state: str | None
    best_share: float
    features: dict[str, float]


def search_item(text: str, dimension: Dimension, vocab: AppVocabulary) -> ItemSearch:
    """The feature search of one item's text over the app's vocabulary, with the model's input features."""
    item_terms = terms(text, behaviour=False)
    missing = item_terms - vocab.union
    best_state, best_share = None, 0.0
    for state, words in zip(vocab.graph.states, vocab.states):
        share = len(item_terms & words) / len(item_terms) if item_terms else 0.0
        if share > best_share:
            best_state, best_share = state.id, share
    n = max(len(item_terms), 1)
    features = {
        "missing_share": len(missing) / n,
        "missing_count_log": math.log1p(len(missing)),
        "best_state_share": best_share,
        "instruction_missing": float(len(missing & vocab.instruction_terms)),
        "dim_constraint": float(dimension is Dimension.constraint),
        "dim_interaction": float(dimension is Dimension.interaction),
        "dim_content": float(dimension is Dimension.content),
        "constraint_cues": float(len(CONSTRAINT_CUES.findall(text))),
        "feedback_cues": float(len(FEEDBACK_CUES.findall(text))),
        "app_missing_share": vocab.app_missing_share,
        "states_log": math.log1p(len(vocab.graph.states)),
        "js_share": float(vocab.graph.coverage.get("share") or 0.0),
        "item_words_log": math.log1p(len(text.split())),
        "actions_without_control": float(len(vocab.actions_without_control(text))),
        "actions_asked": float(len(actions_asked(text))),
    }
    return ItemSearch(item_terms, missing, best_state, best_share, features)


@dataclass
class AbsenceModel:
    """A logistic model over :data:`FEATURE_NAMES` (standardised) and its decision rule: an item fails when its
    probability reaches ``threshold``, or when it is among the ``top_k`` most probable items of its app with a
    probability of at least ``rank_floor`` (the app's most suspicious items are reported even when no single
    one is certain)."""

    coef: list[float]
    intercept: float
    mean: list[float]
    scale: list[float]
    threshold: float
    top_k: int = 0
    rank_floor: float = 1.0
    trained_on: dict[str, Any] = field(default_factory=dict)
    features: tuple[str, ...] = FEATURE_NAMES

    def probability(self, features: dict[str, float]) -> float:
        z = self.intercept + sum(c * (features[name] - m) / (s or 1.0)
                                 for c, name, m, s in zip(self.coef, self.features, self.mean, self.scale))
        return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))

    def to_dict(self) -> dict[str, Any]:
        return {"features": list(self.features), "coef": self.coef, "intercept": self.intercept, "mean": self.mean,
                "scale": self.scale, "threshold": self.threshold, "top_k": self.top_k, "rank_floor": self.rank_floor,
                "trained_on": self.trained_on}

    def flagged(self, probabilities: dict[str, float]) -> set[str]:
        """The keys (item ids) the rule fails, given every item's probability in one app."""
        return flag_items(probabilities, self.threshold, self.top_k, self.rank_floor)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "AbsenceModel":
        if tuple(data["features"]) != FEATURE_NAMES:
            raise ValueError(f"absence model features {data['features']} differ from this version's {list(FEATURE_NAMES)}")
        return cls(coef=list(data["coef"]), intercept=float(data["intercept"]), mean=list(data["mean"]),
                   scale=list(data["scale"]), threshold=float(data["threshold"]), top_k=int(data.get("top_k", 0)),
                   rank_floor=float(data.get("rank_floor", 1.0)), trained_on=dict(data.get("trained_on", {})))


def flag_items(probabilities: dict[Any, float], threshold: float, top_k: int, rank_floor: float) -> set[Any]:
    """The decision rule of :class:`AbsenceModel`: the keys whose probability reaches ``threshold``, and the
    ``top_k`` most probable keys whose probability is at least ``rank_floor`` (ties broken by key)."""
    out = {k for k, p in probabilities.items() if p >= threshold}
    ranked = sorted(probabilities, key=lambda k: (-probabilities[k], k))[:top_k]
    return out | {k for k in ranked if probabilities[k] >= rank_floor}


@cache
def shipped_model() -> AbsenceModel | None:
    """The model shipped with the package, or None when this build has none."""
    path = resources.files("webtester.baseline").joinpath(MODEL_RESOURCE)
    if not path.is_file():
        return None
    return AbsenceModel.from_dict(json.loads(path.read_text(encoding="utf-8")))
