"""The project's one exception hierarchy.

Every error that webtester raises for a user to read derives from :class:`WebtesterError`, and also from the
built-in exception it used to be (``ValueError`` for bad input, ``RuntimeError`` for a failed step,
``LookupError`` for something absent), so ``except WebtesterError`` catches them all and existing
``except ValueError`` handlers keep working. Messages name the problem: the file and line, the setting and its
source, or the step that failed.
"""

from __future__ import annotations

__all__ = ["WebtesterError", "InputError", "StepError", "AbsentError"]


class WebtesterError(Exception):
    """Base class of every error webtester raises for its user."""


class InputError(WebtesterError, ValueError):
    """Input that cannot be used: a dataset line, a setting, a run-folder file, a script."""


class StepError(WebtesterError, RuntimeError):
    """A step that could not be done: starting the app, installing it, asking a model, generating a checklist."""


class AbsentError(WebtesterError, LookupError):
    """Something asked for is not there (an app of a dataset, a bundled app)."""
