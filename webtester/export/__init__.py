"""``webtester export``: a run's checked items as a pytest-playwright regression suite.

:func:`export_run` writes the suite; :mod:`webtester.export.plan` decides which items become tests,
:mod:`webtester.export.render` writes their code, :mod:`webtester.export.target` starts the app again, and
``suite_conftest.py`` is the suite's ``conftest.py``.
"""

from webtester.export.suite import ExportError, InstanceExport, SuiteExport, export_run

__all__ = ["ExportError", "InstanceExport", "SuiteExport", "export_run"]
