"""The baseline's preparation shares one wall-time budget per app: the exploration gets what is left."""

import time

import pytest

from webtester.baseline.tester import MIN_EXPLORE_SECONDS, BaselineTester


def test_the_exploration_gets_what_the_start_page_and_the_crawl_left():
    tester = BaselineTester(time_limit=45.0, prepare_seconds=50.0, absence_model=None)
    now = time.monotonic()
    assert tester._explore_seconds(now) == pytest.approx(45.0, abs=0.5)  # nothing spent yet: its own limit
    assert tester._explore_seconds(now - 20.0) == pytest.approx(30.0, abs=0.5)  # 20 s spent on the start page and crawl
    assert tester._explore_seconds(now - 49.0) == MIN_EXPLORE_SECONDS  # never less than its least time


def test_no_budget_leaves_the_exploration_its_own_limit():
    assert BaselineTester(time_limit=45.0, prepare_seconds=None, absence_model=None)._explore_seconds(0.0) == 45.0
    assert BaselineTester(time_limit=None, prepare_seconds=30.0, absence_model=None)._explore_seconds(
        time.monotonic()) == pytest.approx(30.0, abs=0.5)
    assert BaselineTester(absence_model=None).describe()["limits"]["prepare_seconds"] == 50.0
