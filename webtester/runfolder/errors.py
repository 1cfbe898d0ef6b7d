"""The error of unreadable run-folder files."""

from __future__ import annotations

from webtester.errors import InputError


class RunFolderError(InputError):
    """A run-folder file that cannot be read; the message starts with the file (and line, for JSONL)."""
