"""The version ``webtester --version`` prints."""

from __future__ import annotations


def version() -> str:
    """The installed distribution's version (``webtester.__version__`` when the package is not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("webtester")
    except PackageNotFoundError:
        import webtester

        return str(getattr(webtester, "__version__", "unknown"))
