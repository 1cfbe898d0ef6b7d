"""Names of the files and folders of a run folder (the contract between tester, scorer and reports).

::

    RUN_DIR/manifest.json                 run level: tester, models, prompts, settings (no secrets), timings, tokens
    RUN_DIR/checkpoints.sqlite            workflow checkpoints (resume)
    RUN_DIR/run.lock                      held by the process writing the run (its PID and start time)
    RUN_DIR/<index>/result.json           InstanceResult
    RUN_DIR/<index>/checklist.json|.md    the checklist (JSON and WebTestBench markdown)
    RUN_DIR/<index>/result.md             WebTestBench markdown results
    RUN_DIR/<index>/bugs.md               bug reports with screenshots and steps
    RUN_DIR/<index>/verdicts.jsonl        each verdict as it is recorded
    RUN_DIR/<index>/screenshots/, traces/, exchanges.jsonl, log.txt, app.log
    RUN_DIR/<index>/<private files>       a tester's own state (e.g. the baseline's exploration.json)
    RUN_DIR/<index>/<file>.corrupt-<time> an unreadable file moved aside (the instance is run again)
    RUN_DIR/scores/                       summary.json, instances.jsonl, matches.jsonl, report_scores.json, *.csv, summary.md
    RUN_DIR/report.html, junit.xml        the reports
"""

from __future__ import annotations

MANIFEST_FILE = "manifest.json"
CHECKPOINTS_FILE = "checkpoints.sqlite"
LOCK_FILE = "run.lock"
QUARANTINE_SUFFIX = ".corrupt-"  # <file>.corrupt-<UTC time>: an unreadable file kept aside

RESULT_FILE = "result.json"
RESULT_MD_FILE = "result.md"
REFERENCE_RESULT_FILE = "result_extracted.md"  # the WebTestBench reference harness's result file
CHECKLIST_FILE = "checklist.json"
CHECKLIST_MD_FILE = "checklist.md"
BUGS_FILE = "bugs.md"
VERDICTS_FILE = "verdicts.jsonl"
EXCHANGES_FILE = "exchanges.jsonl"
LOG_FILE = "log.txt"
APP_LOG_FILE = "app.log"
SCREENSHOTS_DIR = "screenshots"
TRACES_DIR = "traces"
EXPLORATION_FILE = "exploration.json"  # the baseline tester's private record of its exploration
STATE_GRAPH_FILE = "state_graph.json"  # the crawl's states, transitions and JavaScript coverage

SCORES_DIR = "scores"
SUMMARY_FILE = "summary.json"
SUMMARY_MD_FILE = "summary.md"
INSTANCE_SCORES_FILE = "instances.jsonl"
MATCHES_FILE = "matches.jsonl"
REPORT_SCORES_FILE = "report_scores.json"

HTML_REPORT_FILE = "report.html"
JUNIT_FILE = "junit.xml"
