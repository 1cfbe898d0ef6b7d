"""Where the bundled benchmark lives: one data root holding ``apps/`` and ``gold/`` (with ``gold/checks/``).

The root is, first that applies: the ``data_root`` setting, ``$WEBTESTER_DATA``, the package's own copy
(``webtester/data/``, which an installed wheel holds), or the checkout the code runs from (the repository,
whose top-level ``apps/`` and ``gold/`` the wheel copies). Every path to the bundled apps and gold is
computed here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from webtester.datasets import DatasetError

if TYPE_CHECKING:
    from webtester.settings import Settings

DATA_ENV = "WEBTESTER_DATA"
PACKAGE_DIR = Path(__file__).resolve().parent
#: The copy an installed wheel holds (setup.py maps ``apps/`` and ``gold/`` there).
PACKAGED_ROOT = PACKAGE_DIR / "data"
#: The repository, when the code runs from a checkout (told apart from site-packages by its setup.py).
CHECKOUT_ROOT = PACKAGE_DIR.parent

Part = Literal["apps", "gold", "checks"]
PARTS: dict[str, str] = {"apps": "apps", "gold": "gold", "checks": "gold/checks"}
_WHAT = {"apps": "bundled apps", "gold": "bundled gold", "checks": "executable gold checks"}


class DataRootError(DatasetError):
    """A folder of the bundled benchmark is missing; the message names it and the data root looked in."""


def data_root_source(settings: Settings | None = None) -> tuple[Path, str]:
    """The data root and where it comes from (the setting, the environment, the package or the checkout)."""
    if settings is not None and settings.data_root is not None:
        return Path(settings.data_root).expanduser(), "the data_root setting"
    if os.environ.get(DATA_ENV):
        return Path(os.environ[DATA_ENV]).expanduser(), f"${DATA_ENV}"
    if PACKAGED_ROOT.is_dir() or not (CHECKOUT_ROOT / "setup.py").is_file():
        return PACKAGED_ROOT, "the installed package"
    return CHECKOUT_ROOT, "the checkout"


def data_root(settings: Settings | None = None) -> Path:
    """The folder holding ``apps/`` and ``gold/`` (see the module docstring)."""
    return data_root_source(settings)[0]


def data_path(part: Part, settings: Settings | None = None) -> Path:
    """``apps``, ``gold`` or ``checks`` (``gold/checks``) under the data root.

    Raises :class:`DataRootError` naming the missing folder and the root when it is not there.
    """
    root, source = data_root_source(settings)
    path = root / PARTS[part]
    if not path.is_dir():
        raise DataRootError(
            f"the {_WHAT[part]} are missing: no folder {path} (data root {root}, from {source}); "
            f"reinstall webtester, or set {DATA_ENV} to a folder holding apps/ and gold/"
        )
    return path
