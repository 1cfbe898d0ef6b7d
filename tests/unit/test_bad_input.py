"""Bad input files and arguments: one clear line on stderr naming the file (and line), exit 2, nothing run or written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from webtester.cli.main import app

BAD = Path(__file__).resolve().parents[1] / "fixtures" / "bad_input"


@pytest.fixture
def clean_env(tmp_path, monkeypatch):
    """No model endpoint or webtester setting from the environment; the working folder is empty."""
    for var in [k for k in os.environ if k.startswith(("OPENAI_", "WEBTESTER_"))]:
        monkeypatch.delenv(var)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(app, list(args), terminal_width=400)


def assert_input_error(result, message: str) -> None:
    """Exit 2, exactly ``error: <message>`` on stderr, nothing on stdout, no traceback."""
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: {message}\n", result.stderr
    assert result.stdout == ""
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output


GARBAGE = f"{BAD / 'garbage.jsonl'}:1: not UTF-8 text (byte 0x89 at column 1); the JSONL file must be UTF-8 text"
EMPTY = f"{BAD / 'empty.jsonl'}: no instances (the file holds no JSON line)"
NOT_A_TABLE = f"{BAD / 'not_a_table.toml'}: 'webtester' must be a table ([webtester]), got 5"
NO_INDEX = f"{BAD / 'no_index'}: no index.html (a static site) and no package.json (an npm project) in this folder"
TEST = ["test", "portfolio_site", "--tester", "baseline", "--out", "out"]
NOTES_APP = ["-i", "A notes app.", "--tester", "baseline", "--out", "out"]


@pytest.mark.parametrize("args, message", [
    pytest.param([*TEST, "--config", str(BAD / "not_a_table.toml")], NOT_A_TABLE, id="config-not-a-table"),
    pytest.param([*TEST, "--config", str(BAD / "latin1.toml")],
                 f"{BAD / 'latin1.toml'}:1: not UTF-8 text (byte 0xe9 at column 4); the config file must be UTF-8 text",
                 id="config-not-utf8"),
    pytest.param([*TEST, "--config", str(BAD)], f"{BAD}: is a folder; the config file must be a file", id="config-folder"),
    pytest.param([*TEST, "--instruction-file", str(BAD / "latin1_instruction.txt")],
                 f"{BAD / 'latin1_instruction.txt'}:1: not UTF-8 text (byte 0xf9 at column 30); "
                 "the instruction file must be UTF-8 text", id="instruction-not-utf8"),
    pytest.param([*TEST, "--instruction-file", str(BAD)], f"{BAD}: is a folder; the instruction file must be a file",
                 id="instruction-folder"),
    pytest.param([*TEST, "--instruction-file", str(BAD / "empty.jsonl")],
                 f"{BAD / 'empty.jsonl'}: the instruction file is empty", id="instruction-empty"),
    pytest.param([*TEST, "--instruction", "   "], "--instruction is blank: give the instruction the app was built from",
                 id="instruction-blank"),
    pytest.param([*TEST, "--oracle", str(BAD / "garbage.jsonl")], GARBAGE, id="oracle-garbage"),
    pytest.param([*TEST, "--oracle", str(BAD / "empty.jsonl")], EMPTY, id="oracle-empty"),
    pytest.param(["test", str(BAD / "no_index"), *NOTES_APP], NO_INDEX, id="folder-without-index"),
    pytest.param(["test", str(BAD / "no_index" / "readme.txt"), *NOTES_APP],
                 f"{BAD / 'no_index' / 'readme.txt'}: not a folder; give the app's folder (with index.html or "
                 "package.json) or a URL", id="file-as-app"),
    pytest.param(["observe", str(BAD / "no_index")], NO_INDEX, id="observe-folder-without-index"),
    pytest.param(["datasets", "stats", str(BAD / "garbage.jsonl")], GARBAGE, id="stats-garbage"),
    pytest.param(["datasets", "stats", str(BAD / "empty.jsonl")], EMPTY, id="stats-empty"),
    pytest.param(["bench", str(BAD / "garbage.jsonl"), "--apps", str(BAD), "--out", "out"], GARBAGE, id="bench-garbage"),
    pytest.param(["bench", str(BAD / "empty.jsonl"), "--apps", str(BAD), "--out", "out"], EMPTY, id="bench-empty"),
    pytest.param(["bench", "bundled", "--config", str(BAD / "not_a_table.toml"), "--out", "out"], NOT_A_TABLE,
                 id="bench-config-not-a-table"),
])
def test_bad_input_is_one_line_naming_the_file_and_nothing_runs(clean_env, args, message):
    assert_input_error(run(*args), message)
    assert not (clean_env / "out").exists() and not (clean_env / "runs").exists()


def test_a_bad_line_after_good_ones_is_named_with_its_line(clean_env):
    data = clean_env / "two.jsonl"
    data.write_bytes(b'{"not": "an instance"}\n' + "caf\u00e9".encode("latin-1") + b"\n")
    assert_input_error(run("datasets", "stats", str(data)),
                       f"{data}:2: not UTF-8 text (byte 0xe9 at column 4); the JSONL file must be UTF-8 text")


def test_score_reports_an_unreadable_manifest(clean_env):
    run_dir = clean_env / "run"
    run_dir.mkdir()
    (run_dir / "manifest.json").write_bytes((BAD / "garbage.jsonl").read_bytes())
    result = run("score", str(run_dir), "--dataset", "bundled")
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.startswith(f"error: {run_dir / 'manifest.json'}") and "Traceback" not in result.output
    assert not (run_dir / "scores").exists()


def test_an_error_no_command_handles_is_one_line_unless_debugging(clean_env, monkeypatch, capsys):
    import webtester.datasets
    from webtester.errors import InputError

    def broken(path):
        raise RuntimeError("the disk went away")

    def refused(path):
        raise InputError(f"{path}: held by another process")

    monkeypatch.setattr(webtester.datasets, "load_dataset", refused)
    monkeypatch.setattr(webtester.datasets, "DatasetError", KeyError)  # the command's own handler does not catch it
    with pytest.raises(SystemExit) as stop:
        app(["datasets", "stats", "x.jsonl"], prog_name="webtester")
    assert stop.value.code == 2 and capsys.readouterr().err == "error: x.jsonl: held by another process\n"

    monkeypatch.setattr(webtester.datasets, "load_dataset", broken)
    with pytest.raises(SystemExit) as stop:
        app(["datasets", "stats", "x.jsonl"], prog_name="webtester")
    err = capsys.readouterr().err
    assert stop.value.code == 1
    assert err == "error: unexpected RuntimeError: the disk went away (run with --debug or WEBTESTER_DEBUG=1 for the traceback)\n"
    monkeypatch.setenv("WEBTESTER_DEBUG", "0")  # --debug sets it; restored after the test
    with pytest.raises(SystemExit) as stop:
        app(["--debug", "datasets", "stats", "x.jsonl"], prog_name="webtester")
    err = capsys.readouterr().err
    assert stop.value.code == 1 and "Traceback" in err and err.endswith("error: unexpected RuntimeError: the disk went away\n")


def test_an_app_zip_that_is_not_a_zip_is_named(tmp_path):
    from webtester.apps_source import app_project
    from webtester.errors import InputError

    archive = tmp_path / "apps" / "WebTestBench_0001.zip"
    archive.parent.mkdir()
    archive.write_bytes((BAD / "garbage.jsonl").read_bytes())
    with pytest.raises(InputError, match=f"^{archive}: not a zip archive"):
        app_project(1, archive.parent, cache=tmp_path / "cache")
