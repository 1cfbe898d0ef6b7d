"""The rule-based baseline tester (``--tester baseline``); it lives in :mod:`webtester.baseline`."""

from webtester.baseline.tester import BaselineTester

__all__ = ["BaselineTester"]
