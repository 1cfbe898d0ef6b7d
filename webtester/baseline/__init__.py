"""The rule-based baseline tester: a checklist from the instruction and one look at the app, verdicts from a
bounded exploration of the app with the deterministic probes. No model is used."""

from webtester.baseline.tester import BaselineTester

__all__ = ["BaselineTester"]
