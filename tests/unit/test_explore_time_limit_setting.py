"""The no-model tester's preparation budget comes from the settings (``explore_time_limit``)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from webtester.settings import Settings, load_settings
from webtester.testers import make_tester

pytestmark = pytest.mark.unit


def test_the_default_budget_is_fifty_seconds_with_ninety_percent_for_the_probes():
    limits = make_tester("baseline", settings=Settings()).describe()["limits"]
    assert (limits["prepare_seconds"], limits["time_limit_seconds"]) == (50.0, 45.0)


def test_the_environment_sets_the_budget(monkeypatch):
    monkeypatch.setenv("WEBTESTER_EXPLORE_TIME_LIMIT", "150")
    limits = make_tester("baseline", settings=load_settings()).describe()["limits"]
    assert (limits["prepare_seconds"], limits["time_limit_seconds"]) == (150.0, 135.0)


def test_a_budget_too_short_to_explore_is_refused():
    with pytest.raises(ValidationError, match="explore_time_limit"):
        Settings(explore_time_limit=3)
