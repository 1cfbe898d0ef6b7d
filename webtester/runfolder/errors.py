"""The errors of run folders: unreadable files, and a folder another process is writing."""

from __future__ import annotations

from webtester.errors import InputError


class RunFolderError(InputError):
    """A run-folder file that cannot be read; the message starts with the file (and line, for JSONL)."""


class RunFolderBusyError(InputError):
    """The run folder is held by another process's lock; the message names the folder and that process."""
