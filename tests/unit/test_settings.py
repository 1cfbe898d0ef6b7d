"""Settings precedence (defaults < environment < config file < CLI) and secret handling."""

from __future__ import annotations

import json

import pytest

from webtester.settings import SECRETS, Settings, SettingsError, load_settings


def test_precedence(tmp_path):
    cfg = tmp_path / "webtester.toml"
    cfg.write_text('[webtester]\nmodel = "from-file"\noutput_dir = "file-runs"\n')
    env = {"WEBTESTER_MODEL": "from-env", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "WEBTESTER_JUDGE_MODEL": "judge-env"}
    s = load_settings(cfg, environ=env, output_dir="cli-runs", judge_model=None)
    assert s.model == "from-file"
    assert str(s.output_dir) == "cli-runs"
    assert s.judge.model == "judge-env"
    assert s.base_url == "http://127.0.0.1:9/v1"
    assert load_settings(environ={}).model == "gpt-4o-mini"


def test_judge_section_from_environment_file_and_command_line(tmp_path):
    env = {"WEBTESTER_JUDGE_MODEL": "judge-env", "WEBTESTER_JUDGE_BASE_URL": "http://env-judge/v1",
           "WEBTESTER_JUDGE_API_KEY": "sk-env-judge", "WEBTESTER_JUDGE_BATCH_SIZE": "12"}
    assert load_settings(environ=env).judge.batch_size == 12
    cfg = tmp_path / "webtester.toml"
    cfg.write_text('[webtester]\nmodel = "m"\n[webtester.judge]\nmodel = "judge-file"\nmax_attempts = 5\n')
    s = load_settings(cfg, environ=env)
    assert (s.judge.model, s.judge.base_url, s.judge.max_attempts) == ("judge-file", "http://env-judge/v1", 5)
    assert s.judge.api_key.get_secret_value() == "sk-env-judge"
    assert load_settings(cfg, environ=env, judge_model="judge-cli").judge.model == "judge-cli"
    assert load_settings(cfg, environ=env, judge={"model": None, "batch_size": 3}).judge.model == "judge-file"
    flat = tmp_path / "flat.toml"
    flat.write_text('judge_model = "judge-flat"\njudge_base_url = "http://flat/v1"\n')
    s = load_settings(flat, environ={})
    assert (s.judge.model, s.judge.base_url, s.stage_model("judge")) == ("judge-flat", "http://flat/v1", "judge-flat")
    cfg.write_text('[webtester.judge]\nmodle = "typo"\n')
    with pytest.raises(SettingsError, match="unknown judge setting.*modle"):
        load_settings(cfg, environ={})
    with pytest.raises(SettingsError, match="environment: setting 'judge.max_attempts'.*'0'"):
        load_settings(environ={"WEBTESTER_JUDGE_MAX_ATTEMPTS": "0"})


def test_judge_endpoint_defaults_to_the_testers_and_keys_stay_with_their_endpoint():
    tester = {"base_url": "http://tester/v1", "api_key": "sk-tester"}
    s = Settings(**tester)
    assert s.endpoint("judge") == s.endpoint("checklist") == ("http://tester/v1", s.api_key)
    own_url = Settings(**tester, judge={"base_url": "http://judge/v1"})
    assert own_url.endpoint("judge") == ("http://judge/v1", None)  # the tester's key is not sent elsewhere
    own_key = Settings(**tester, judge={"api_key": "sk-judge"})
    url, key = own_key.endpoint("judge")
    assert url == "http://tester/v1" and key.get_secret_value() == "sk-judge"
    with pytest.raises(ValueError, match="unknown stage"):
        s.endpoint("review")  # type: ignore[arg-type]


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
    assert s.public_dict()["judge"]["api_key_set"] is True and "sk-judge-secret" not in repr(s)


def test_settings_without_secrets_round_trip_as_json():
    s = load_settings(environ={"OPENAI_API_KEY": "sk-very-secret", "WEBTESTER_JUDGE_API_KEY": "sk-judge-secret",
                               "WEBTESTER_JUDGE_MODEL": "j", "WEBTESTER_MAX_ITEMS": "7"})
    data = s.model_dump(mode="json", exclude=SECRETS)
    assert "secret" not in json.dumps(data)
    back = Settings.model_validate_json(json.dumps(data))
    assert back.api_key is None and back.judge.api_key is None
    assert (back.judge.model, back.max_items, back.output_dir) == ("j", 7, s.output_dir)


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
