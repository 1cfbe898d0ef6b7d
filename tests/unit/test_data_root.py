"""One data root holds the bundled apps and gold: the setting, $WEBTESTER_DATA, the installed copy or the checkout."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from webtester import bundled, data_root
from webtester.browser.launcher import start_app
from webtester.datasets import DatasetError
from webtester.models import AppSpec
from webtester.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def own_root(tmp_path, monkeypatch) -> Path:
    """A data root with one bundled app (its gold, checks and files), named by $WEBTESTER_DATA."""
    shutil.copytree(ROOT / "apps" / "loan_calculator", tmp_path / "apps" / "loan_calculator")
    (tmp_path / "gold" / "checks").mkdir(parents=True)
    shutil.copy2(ROOT / "gold" / "loan_calculator.jsonl", tmp_path / "gold")
    monkeypatch.setenv(data_root.DATA_ENV, str(tmp_path))
    return tmp_path


def test_the_checkout_is_the_default_root(monkeypatch):
    monkeypatch.delenv(data_root.DATA_ENV, raising=False)
    assert not data_root.PACKAGED_ROOT.exists()
    assert data_root.data_root() == ROOT
    assert bundled.apps_root() == ROOT / "apps" and bundled.checks_root() == ROOT / "gold" / "checks"
    assert len(bundled.load_bundled()) == 14


def test_the_environment_names_another_root(own_root):
    assert [i.index for i in bundled.load_bundled()] == ["loan_calculator"]
    assert bundled.get_instance("loan_calculator").index == "loan_calculator"
    with start_app(AppSpec(kind="static", path="loan_calculator")) as app:
        assert app.folder == (own_root / "apps" / "loan_calculator").resolve()
    assert load_settings(environ={data_root.DATA_ENV: str(own_root)}).data_root == own_root


def test_the_setting_wins_over_the_environment(own_root, tmp_path_factory):
    other = tmp_path_factory.mktemp("other")
    assert data_root.data_root(Settings(data_root=other)) == other
    assert data_root.data_root(Settings()) == own_root


@pytest.mark.parametrize("part, folder", [("gold", "gold"), ("apps", "apps"), ("checks", "gold/checks")])
def test_a_missing_folder_is_named_with_the_root(tmp_path, monkeypatch, part, folder):
    monkeypatch.setenv(data_root.DATA_ENV, str(tmp_path))
    with pytest.raises(data_root.DataRootError) as caught:
        data_root.data_path(part)
    assert isinstance(caught.value, DatasetError)
    message = str(caught.value)
    assert f"no folder {tmp_path / folder}" in message and f"data root {tmp_path}, from $WEBTESTER_DATA" in message


def test_bundled_lookups_fail_with_the_data_root_error(tmp_path, monkeypatch):
    monkeypatch.setenv(data_root.DATA_ENV, str(tmp_path / "deleted"))
    for lookup in (bundled.load_bundled, lambda: bundled.get_instance("loan_calculator"),
                   lambda: start_app(AppSpec(kind="static", path="loan_calculator"))):
        with pytest.raises(data_root.DataRootError, match="deleted"):
            lookup()


def test_dataset_stats_reads_the_bundled_gold_of_the_root(own_root):
    from typer.testing import CliRunner

    from webtester.cli.main import app

    result = CliRunner().invoke(app, ["datasets", "stats", "bundled"])
    assert result.exit_code == 0, result.output
    assert "1 instances, 20 gold items" in " ".join(result.output.split())
