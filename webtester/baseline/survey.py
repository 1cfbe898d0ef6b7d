"""The baseline's one look at the app for checklist generation, through a page of the run's browser, and the
saved form of what it saw (so a resumed instance writes the same checklist)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from webtester.agents.base import PageOpener
from webtester.probes.pagemodel import Field, FormModel, PageModel, read_model
from webtester.probes.signin import Gate


def survey(app_url: str, pages: PageOpener, *, gate: Gate | None = None) -> PageModel:
    """The page model of ``app_url`` after one page load, signed in first through ``gate`` when the app asks
    (raises when the page cannot be loaded)."""
    page = pages.new_page(app_url)
    try:
        if gate is not None:
            gate.arrive(page.page, app_url)
        return read_model(page.page)
    finally:
        page.close()


def page_model_to_dict(model: PageModel) -> dict[str, Any]:
    """``model`` as JSON-ready data."""
    return asdict(model)


def page_model_from_dict(data: dict[str, Any]) -> PageModel:
    """The page model :func:`page_model_to_dict` saved."""
    forms = [FormModel(**{**form, "fields": [Field(**f) for f in form["fields"]]}) for form in data["forms"]]
    return PageModel(**{**data, "forms": forms, "outside": [Field(**f) for f in data["outside"]]})
