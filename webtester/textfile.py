"""Reading a text file a user gave (a dataset, a config file, an instruction, a checklist) with errors that name it.

Every failure becomes one exception of the caller's class (an :class:`~webtester.errors.InputError` by default)
whose message starts with the file's path: it is missing, a folder, unreadable, or not UTF-8 text (with the
line and column of the first bad byte). Nothing else escapes, so no codec or OS error reaches the user as a
traceback.
"""

from __future__ import annotations

from pathlib import Path

from webtester.errors import InputError

__all__ = ["read_user_text"]


def read_user_text(path: str | Path, error: type[Exception] = InputError, what: str = "file") -> str:
    """The UTF-8 text of ``path``; raises ``error`` with a message starting with the path when it cannot be read.

    ``what`` names the file in the message (``"instruction file"``, ``"config file"``...).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise error(f"{path}: {what} not found") from None
    except IsADirectoryError:
        raise error(f"{path}: is a folder; the {what} must be a file") from None
    except PermissionError:
        raise error(f"{path}: {what} cannot be read (permission denied)") from None
    except OSError as exc:
        raise error(f"{path}: {what} cannot be read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # a byte-order mark is not part of the text
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise error(f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at column {column}); "
                    f"the {what} must be UTF-8 text") from None
