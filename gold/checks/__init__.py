"""Executable gold checks of the bundled apps: one module per app, ``item_<id>(page, base_url) -> bool``."""
