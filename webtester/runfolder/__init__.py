"""The run folder: one place that writes and reads every file of a run (see :mod:`webtester.runfolder.layout`).

Writes are atomic; readers are strict and raise :class:`RunFolderError` naming
the file (and line) on bad data. A caller that can do without a file (a bench
that reruns an instance with an unreadable result) catches it explicitly, and
keeps the file aside (:func:`quarantine`) rather than deleting it. One process
at a time writes a run folder (:func:`hold_run_folder`).
"""

from webtester.runfolder.bugtext import app_path, clean_text, clean_verdict
from webtester.runfolder.errors import RunFolderBusyError, RunFolderError
from webtester.runfolder.instance import InstanceFolder, instance_folders
from webtester.runfolder.io import now_iso, quarantine, read_json, read_json_lines, read_text, write_json, write_text
from webtester.runfolder.layout import (
    APP_LOG_FILE,
    BUGS_FILE,
    CHECKLIST_FILE,
    CHECKLIST_MD_FILE,
    CHECKPOINTS_FILE,
    EXCHANGES_FILE,
    EXPLORATION_FILE,
    HTML_REPORT_FILE,
    INSTANCE_SCORES_FILE,
    JUNIT_FILE,
    LOCK_FILE,
    LOG_FILE,
    MANIFEST_FILE,
    MATCHES_FILE,
    REFERENCE_RESULT_FILE,
    REPORT_SCORES_FILE,
    RESULT_FILE,
    RESULT_MD_FILE,
    SCORES_DIR,
    SCREENSHOTS_DIR,
    STATE_GRAPH_FILE,
    SUMMARY_FILE,
    SUMMARY_MD_FILE,
    TRACES_DIR,
    VERDICTS_FILE,
)
from webtester.runfolder.lock import adopt_lock, hold_run_folder, holding_run_folder, lock_handoff
from webtester.runfolder.manifest import (
    ABSENT,
    manifest_path,
    read_manifest,
    record_run_fields,
    scored_indices,
    update_manifest,
)
from webtester.runfolder.markdown import is_not_checked, render_bug_reports, run_label, summary_counts
from webtester.runfolder.scores import (
    GoldItemScore,
    InstanceScoreView,
    MatchedPair,
    MatchRecord,
    Outcome,
    ReportScores,
    ScoreTable,
    read_instance_records,
    read_matches,
    read_report_scores,
    read_summary,
    scores_dir,
    write_matches,
    write_report_scores,
    write_summary,
)

__all__ = [
    "ABSENT", "scored_indices", "app_path", "clean_text", "clean_verdict", "is_not_checked", "record_run_fields",
    "APP_LOG_FILE", "BUGS_FILE", "CHECKLIST_FILE", "CHECKLIST_MD_FILE", "CHECKPOINTS_FILE", "EXCHANGES_FILE",
    "EXPLORATION_FILE", "STATE_GRAPH_FILE", "HTML_REPORT_FILE", "INSTANCE_SCORES_FILE", "JUNIT_FILE", "LOCK_FILE",
    "LOG_FILE", "MANIFEST_FILE",
    "MATCHES_FILE", "REFERENCE_RESULT_FILE", "REPORT_SCORES_FILE", "RESULT_FILE", "RESULT_MD_FILE", "SCORES_DIR",
    "SCREENSHOTS_DIR", "SUMMARY_FILE", "SUMMARY_MD_FILE", "TRACES_DIR", "VERDICTS_FILE",
    "GoldItemScore", "InstanceFolder", "InstanceScoreView", "MatchRecord", "MatchedPair", "Outcome", "ReportScores",
    "RunFolderBusyError", "RunFolderError",
    "ScoreTable", "adopt_lock", "hold_run_folder", "holding_run_folder",
    "instance_folders", "lock_handoff", "manifest_path", "now_iso",
    "quarantine", "read_instance_records", "read_json", "read_json_lines",
    "read_manifest", "read_matches", "read_report_scores", "read_summary", "read_text", "render_bug_reports",
    "run_label", "scores_dir", "summary_counts", "update_manifest", "write_json", "write_matches", "write_report_scores",
    "write_summary", "write_text",
]
