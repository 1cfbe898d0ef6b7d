"""The tester as LangGraph workflows, and running them: ``from webtester.graphs import run_app, run_instance``."""

from webtester.graphs.run import run_app, run_instance

__all__ = ["run_app", "run_instance"]
