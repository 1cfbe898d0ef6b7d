"""webtester: tests web applications from the instruction they were built from."""

__version__ = "0.1.0"
