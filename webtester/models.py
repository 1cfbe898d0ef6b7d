"""The data model shared by the tester, the workflows and the evaluation harness.

Field names follow WebTestBench where a WebTestBench record exists (``GoldItem``,
``Instance``); our own additions are optional so that a WebTestBench JSONL file
loads and writes back unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class Dimension(str, Enum):
    """The four test dimensions of WebTestBench (its ``class`` field)."""

    functionality = "functionality"
    constraint = "constraint"
    interaction = "interaction"
    content = "content"

    @property
    def prefix(self) -> str:
        """The id prefix used by the markdown checklist format (FT / CS / IX / CT)."""
        return DIMENSION_PREFIX[self]

    @property
    def title(self) -> str:  # type: ignore[override]
        """Heading used in markdown checklists, e.g. ``Functionality``."""
        return self.value.capitalize()

    @classmethod
    def from_prefix(cls, prefix: str) -> "Dimension":
        """Dimension for an id prefix such as ``FT``; raises ``ValueError`` if unknown."""
        for dim, pre in DIMENSION_PREFIX.items():
            if pre == prefix.upper():
                return dim
        raise ValueError(f"unknown dimension prefix {prefix!r} (expected one of FT, CS, IX, CT)")


DIMENSION_PREFIX: dict[Dimension, str] = {
    Dimension.functionality: "FT",
    Dimension.constraint: "CS",
    Dimension.interaction: "IX",
    Dimension.content: "CT",
}


def item_id(dimension: Dimension, number: int) -> str:
    """The WebTestBench markdown id of the ``number``-th item (from 1) of ``dimension``: ``FT-01``, ``CS-12``."""
    return f"{dimension.prefix}-{number:02d}"


_ITEM_ID = re.compile(r"^\s*(FT|CS|IX|CT)-0*(\d+)\s*$", re.IGNORECASE)


def parse_item_id(text: str) -> tuple[Dimension, int] | None:
    """The dimension and number an ``FT-01``-style id names (any case, any zero padding), or None."""
    m = _ITEM_ID.match(text)
    return (Dimension.from_prefix(m.group(1)), int(m.group(2))) if m else None


def number_ids(dimensions: Iterable[Dimension]) -> list[str]:
    """Ids for items of these dimensions, in this order, numbered per dimension (FT-01, CS-01, FT-02, ...)."""
    counters = {d: 0 for d in Dimension}
    ids = []
    for dim in dimensions:
        counters[dim] += 1
        ids.append(item_id(dim, counters[dim]))
    return ids


Mode = Literal["e2e", "oracle"]
"""How an instance is run: end to end (the tester writes the checklist) or oracle (the gold checklist is given)."""
MODES: tuple[Mode, ...] = ("e2e", "oracle")


def tester_label(kind: str | None, model: str | None) -> str:
    """The label of runs made with ``--tester kind --model model``: ``scripted`` / ``replay`` for those model
    specs (never a model's result), else ``<kind>`` or ``<kind>:<model>`` (``llm:gpt-4o``)."""
    model_kind = (model or "").partition(":")[0]
    if model_kind in ("scripted", "replay"):
        return model_kind
    return (kind or "llm") + (f":{model}" if model else "")


class Category(str, Enum):
    """WebTestBench application categories."""

    presentation = "Presentation"
    search = "Search"
    tool = "Tool"
    commerce = "Commerce"
    data_management = "Data Management"
    workflow = "Workflow"
    user_generated_content = "User-Generated Content"


class Status(str, Enum):
    """Outcome of executing one test item. ``error`` means it could not be executed."""

    passed = "pass"
    failed = "fail"
    error = "error"


class TestItem(BaseModel):
    """One predicted test item: a (description, action, expected) triple in a dimension."""

    __test__ = False  # not a pytest test class
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="e.g. FT-01")
    dimension: Dimension
    description: str = Field(min_length=1)
    action: str = ""
    expected: str = ""


class BugReport(BaseModel):
    """What went wrong: the issue and the behaviour actually observed."""

    issue: str = Field(min_length=1)
    actual: str = ""


#: ActionRecord.action values that check the page rather than act on it
EXPECTATIONS = frozenset({"expect_text", "expect_no_text", "expect_visible", "expect_hidden", "expect_value",
                          "expect_count", "expect_checked", "expect_url", "wait_for_text", "wait_for_text_gone"})


class ActionRecord(BaseModel):
    """One browser step of an item, replayable by a person (``Evidence.actions``, in the order taken).

    Actions on an element (click, dblclick, fill, type, press, select, check, uncheck, hover,
    scroll_into_view), actions on the page (goto, reload, go_back, press with no element, wait) and
    expectations (:data:`EXPECTATIONS`: what the tester checked, e.g. ``expect_text``).

    ``locator`` is Playwright Python code on ``page`` (``page.get_by_role("button", name="Save", exact=True)``),
    ``target`` the same query as data (``{"role": "button", "name": "Save"}``; keys: role, name, label,
    placeholder, test_id, text, css), both None for a page step or when no locator found the element alone
    (it was reached by its reference in the page view). ``value``: the text filled, typed or expected, the key
    pressed, the option chosen, the URL opened (relative to the app's origin), the seconds waited.
    ``outcome``: ``done`` / ``error`` for an action, ``held`` / ``failed`` for an expectation (None: not known).
    """

    step: str = Field(description="the step as a person reads it")
    action: str = Field(description="click, fill, ..., goto, reload, go_back, wait, or an expectation (expect_text ...)")
    locator: str | None = None
    target: dict[str, str] | None = None
    value: str | None = None
    count: int | None = Field(default=None, description="the expected number of matches (expect_count)")
    outcome: Literal["done", "error", "held", "failed"] | None = None

    def is_expectation(self) -> bool:
        """Whether this step checked the page (see :data:`EXPECTATIONS`)."""
        return self.action in EXPECTATIONS


class Evidence(BaseModel):
    """What supports a verdict: the steps taken and what the browser reported."""

    steps: list[str] = Field(default_factory=list)
    screenshots: list[str] = Field(default_factory=list, description="paths relative to the run folder")
    console_errors: list[str] = Field(default_factory=list)
    page_errors: list[str] = Field(default_factory=list)
    failed_requests: list[str] = Field(default_factory=list)
    environment: list[str] = Field(
        default_factory=list,
        description="third-party requests blocked by the network policy or unreachable here: not the app's defects",
    )
    trace: str | None = Field(
        default=None, description="the item's Playwright trace (zip), relative to the run folder: <index>/traces/<name>.zip",
    )
    actions: list[ActionRecord] = Field(
        default_factory=list, description="the actions on elements, with reusable locators (in the order taken)",
    )
    notes: str = ""


class Cost(BaseModel):
    """Resources spent on an item or an instance."""

    tool_calls: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0

    def __add__(self, other: "Cost") -> "Cost":
        return Cost(
            tool_calls=self.tool_calls + other.tool_calls,
            model_calls=self.model_calls + other.model_calls,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            seconds=self.seconds + other.seconds,
        )


class Verdict(BaseModel):
    """The recorded outcome of one test item."""

    item_id: str
    status: Status
    bug_report: BugReport | None = None
    evidence: Evidence = Field(default_factory=Evidence)
    cost: Cost = Field(default_factory=Cost)

    @model_validator(mode="after")
    def _fail_needs_report(self) -> "Verdict":
        if self.status is Status.failed and self.bug_report is None:
            raise ValueError(f"verdict for {self.item_id!r} is 'fail' but has no bug_report")
        return self


class GoldItem(BaseModel):
    """A gold checklist item in WebTestBench's format, plus optional extensions.

    Extensions (absent from WebTestBench records): ``defect`` names the seeded
    defect the item depends on, ``check`` names its executable check.
    """

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    id: int
    content: str = Field(min_length=1)
    dimension: Dimension = Field(alias="class")
    passed: bool = Field(alias="pass")
    bug: str | None = None
    defect: str | None = None
    check: str | None = None

    @field_validator("id", mode="before")
    @classmethod
    def _strict_int(cls, v: Any) -> Any:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"id must be an integer, got {v!r}")
        return v

    @field_validator("passed", mode="before")
    @classmethod
    def _strict_bool(cls, v: Any) -> Any:
        if not isinstance(v, bool):
            raise ValueError(f"pass must be true or false, got {v!r}")
        return v


class AppSpec(BaseModel):
    """How to start an instance's app: a static folder, an npm project, or a URL."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["static", "npm", "url"]
    path: str | None = Field(default=None, description="folder, relative to the dataset's apps root")
    url: str | None = None


class Defect(BaseModel):
    """A seeded, switchable defect of a bundled app."""

    model_config = ConfigDict(extra="forbid")

    id: str
    dimension: Dimension
    description: str
    shipped: bool = Field(description="switched on in the default ('as shipped') build")


class Instance(BaseModel):
    """One benchmark instance: an instruction, its category and gold checklist."""

    model_config = ConfigDict(extra="forbid")

    index: str = Field(min_length=1)
    instruction: str = Field(min_length=1)
    category: Category
    checklist: list[GoldItem]
    app: AppSpec | None = None
    defects: list[Defect] | None = None

    @model_validator(mode="after")
    def _unique_ids(self) -> "Instance":
        seen: set[int] = set()
        for item in self.checklist:
            if item.id in seen:
                raise ValueError(f"duplicate checklist id {item.id} in instance {self.index!r}")
            seen.add(item.id)
        return self

    def shipped_defects(self) -> list[str]:
        """Ids of the defects switched on in the default build."""
        return [d.id for d in self.defects or [] if d.shipped]


def oracle_ids(instance: Instance) -> dict[str, int]:
    """Oracle item id -> gold id: the gold items numbered per dimension in the gold file's order (FT-01, CS-01, ...),
    as the WebTestBench reference harness numbers them."""
    ids = number_ids(g.dimension for g in instance.checklist)
    return {oid: gold.id for oid, gold in zip(ids, instance.checklist)}


def oracle_items(instance: Instance) -> list[TestItem]:
    """The gold checklist as test items for an oracle run, with the ids of :func:`oracle_ids`."""
    ids = number_ids(g.dimension for g in instance.checklist)
    return [TestItem(id=oid, dimension=g.dimension, description=g.content) for oid, g in zip(ids, instance.checklist)]


def oracle_gold_id(instance: Instance, predicted_id: str, table: dict[str, int] | None = None) -> int | None:
    """The gold id a predicted id names: an oracle id (``FT-01``, any padding or case) or the gold integer id
    written as a string (``"7"``); None for any other id. ``table``: :func:`oracle_ids` of ``instance``, when
    already computed."""
    parsed = parse_item_id(predicted_id)
    if parsed is not None:
        return (table if table is not None else oracle_ids(instance)).get(item_id(*parsed))
    text = predicted_id.strip()
    if text.isascii() and text.isdigit():
        gid = int(text)
        return gid if any(g.id == gid for g in instance.checklist) else None
    return None


class InstanceResult(BaseModel):
    """What a tester produced for one instance."""

    index: str
    status: Literal["ok", "failed"] = "ok"
    reason: str | None = Field(default=None, description="why the instance failed, when it did")
    tester: str = Field(default="", description="e.g. 'llm:gpt-4o', 'baseline', 'scripted'")
    checklist: list[TestItem] = Field(default_factory=list)
    verdicts: list[Verdict] = Field(default_factory=list)
    cost: Cost = Field(default_factory=Cost)

    def verdict_for(self, item_id: str) -> Verdict | None:
        """The verdict recorded for ``item_id``, if any."""
        for v in self.verdicts:
            if v.item_id == item_id:
                return v
        return None
