"""The ``webtester`` command line."""
