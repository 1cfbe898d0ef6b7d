"""Settings precedence (defaults < environment < config file < CLI) and secret handling."""

from __future__ import annotations

import json

import pytest

from webtester.settings import SettingsError, load_settings


def test_precedence(tmp_path):
    cfg = tmp_path / "webtester.toml"
    cfg.write_text('[webtester]\nmodel = "from-file"\noutput_dir = "file-runs"\n')
    env = {"WEBTESTER_MODEL": "from-env", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "WEBTESTER_JUDGE_MODEL": "judge-env"}
    s = load_settings(cfg, environ=env, output_dir="cli-runs", judge_model=None)
    assert s.model == "from-file"
    assert str(s.output_dir) == "cli-runs"
    assert s.judge_model == "judge-env"
    assert s.base_url == "http://127.0.0.1:9/v1"
    assert load_settings(environ={}).model == "gpt-4o-mini"


def test_stage_models_fall_back_to_model():
    s = load_settings(environ={"WEBTESTER_MODEL": "m", "WEBTESTER_DETECTION_MODEL": "d"})
    assert (s.stage_model("checklist"), s.stage_model("detection"), s.stage_model("judge")) == ("m", "d", "m")


def test_model_configured_only_with_endpoint_or_key():
    assert not load_settings(environ={}).model_configured
    assert load_settings(environ={"OPENAI_API_KEY": "sk-x"}).model_configured


def test_api_key_never_in_public_dict_or_repr():
    s = load_settings(environ={"OPENAI_API_KEY": "sk-very-secret", "WEBTESTER_JUDGE_API_KEY": "sk-judge-secret"})
    dumped = json.dumps(s.public_dict())
    assert "sk-very-secret" not in dumped and "sk-judge-secret" not in dumped
    assert s.public_dict()["api_key_set"] is True
    assert "sk-very-secret" not in repr(s) and "sk-very-secret" not in str(s)
    assert s.api_key.get_secret_value() == "sk-very-secret"


def test_bad_values_name_source_and_field(tmp_path):
    with pytest.raises(SettingsError, match="environment: setting 'max_items'.*'many'"):
        load_settings(environ={"WEBTESTER_MAX_ITEMS": "many"})
    cfg = tmp_path / "c.toml"
    cfg.write_text('modle = "typo"\n')
    with pytest.raises(SettingsError, match="unknown setting.*modle"):
        load_settings(cfg, environ={})
    cfg.write_text("model = \n")
    with pytest.raises(SettingsError, match="invalid TOML"):
        load_settings(cfg, environ={})
    with pytest.raises(SettingsError, match="config file not found"):
        load_settings(tmp_path / "missing.toml", environ={})


def test_secret_value_not_echoed_in_errors():
    with pytest.raises(SettingsError) as info:
        load_settings(environ={}, api_key=123)
    assert "123" not in str(info.value)
