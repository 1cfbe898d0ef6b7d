"""The command line skeleton: help, version, shell completion and dataset statistics."""

from __future__ import annotations

from importlib.metadata import version

from typer.testing import CliRunner

from webtester.cli.main import app

runner = CliRunner()


def test_help_lists_subcommands():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for name in ("test", "bench", "score", "correlate", "apps", "observe", "datasets"):
        assert f" {name} " in result.output


def test_version_is_the_installed_one():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"webtester {version('webtester')}\n"


def test_shell_completion_script_and_completions_of_subcommands():
    # the script `--install-completion` writes for bash (asked for by name: no guess of the shell it runs under)
    script = runner.invoke(app, [], prog_name="webtester", env={"_WEBTESTER_COMPLETE": "source_bash"})
    assert script.exit_code == 0 and "_webtester_completion()" in script.stdout, script.output
    assert "_WEBTESTER_COMPLETE=complete_bash" in script.stdout
    assert "--show-completion" in runner.invoke(app, ["--help"], prog_name="webtester", terminal_width=200).stdout
    completed = runner.invoke(app, [], prog_name="webtester", env={
        "_WEBTESTER_COMPLETE": "complete_bash", "COMP_WORDS": "webtester be", "COMP_CWORD": "1"})
    assert completed.exit_code == 0 and completed.stdout.split() == ["bench"]
    options = runner.invoke(app, [], prog_name="webtester", env={
        "_WEBTESTER_COMPLETE": "complete_bash", "COMP_WORDS": "webtester test x --tr", "COMP_CWORD": "3"})
    assert options.stdout.split() == ["--trace"]


def test_datasets_stats_on_webtestbench(webtestbench_path):
    result = runner.invoke(app, ["datasets", "stats", str(webtestbench_path)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "100 instances, 1,750 gold items" in result.output and "448 failing" in result.output
    assert "functionality" in result.output and "854" in result.output and "Data Management" in result.output


def test_datasets_stats_reports_bad_file(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json}\n")
    result = runner.invoke(app, ["datasets", "stats", str(bad)], terminal_width=200)
    assert result.exit_code == 2 and result.stdout == ""
    assert "bad.jsonl:1: invalid JSON" in result.stderr
