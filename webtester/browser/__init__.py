"""The browser runtime: start the app under test, drive it in a confined Chromium, show it compactly.

- ``launcher``: start / stop a static folder, an npm project or a URL (``start_app``).
- ``session``: one Chromium per run, a fresh confined context per test item (``BrowserSession``, ``ItemPage``).
- ``observe``: the agent's compact view with element references, and diffs (``observe``, ``diff``).
- ``tools``: the agent's LangChain tools (``make_browser_tools``); ``code_actions``: run_js / run_steps.
- ``locators``: locators a person can reuse for a reference (``reusable_locator``); ``traces``: which
  Playwright traces a run keeps (``Settings.trace``).
- ``confinement``, ``evidence``, ``errors``, ``aria``, ``npm``, ``mcp_format``: their helpers.

Submodules are imported explicitly so that importing this package stays cheap.
"""
