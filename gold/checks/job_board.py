"""Executable gold checks for ``job_board`` (Stackhire tech job search).

Each ``item_<id>(page, base_url)`` drives the page like a job seeker and returns
True when the behaviour of gold item ``<id>`` holds.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ._helpers import dismisses, eventually, first_int, holds, placeholder_hits, texts

TOTAL = 16
SALARY_RE = re.compile(r"£([\d,]+) – £([\d,]+)")


def _cards(page: Page):
    return page.get_by_role("list", name="Job results").get_by_role("listitem")


def _titles(page: Page) -> list[str]:
    return texts(_cards(page).locator("h3"))


def _settled(predicate) -> bool:
    return eventually(lambda: bool(predicate()), timeout=1.0)


def _salary(text: str) -> tuple[int, int]:
    lo, hi = SALARY_RE.search(text).groups()
    return int(lo.replace(",", "")), int(hi.replace(",", ""))


def _all_jobs(page: Page) -> dict[str, str]:
    expect(_cards(page)).to_have_count(TOTAL)
    return {t.split("\n")[0]: t for t in texts(_cards(page))}


def _open(page: Page, title: str):
    _cards(page).get_by_role("button", name=title, exact=True).click()
    detail = page.get_by_role("article", name="Job details")
    expect(detail.get_by_role("heading", name=title, level=2)).to_be_visible()
    return detail


def _tab(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Sections").get_by_role("button", name=re.compile(f"^{name}")).click()


def _apply(page: Page, title: str, name: str = "Aisha Rahman", email: str = "aisha.rahman@example.co.uk", cv: str = "https://aisharahman.dev/cv") -> None:
    detail = _open(page, title)
    detail.get_by_role("button", name="Apply now").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Full name").fill(name)
    dialog.get_by_label("Email").fill(email)
    dialog.get_by_label("CV or portfolio link").fill(cv)
    dialog.get_by_role("button", name="Send application").click()


def _applications(page: Page):
    return page.get_by_role("list", name="Applications list").get_by_role("listitem")


def _saved(page: Page):
    return page.get_by_role("list", name="Saved jobs list").get_by_role("listitem")


def item_1(page: Page, base_url: str) -> bool:
    """Keyword search covers company names and skills as well as titles."""
    kw = page.get_by_label("Keyword")
    kw.fill("Kindred Health")
    if not _settled(lambda: sorted(_titles(page)) == ["Product Designer", "UX Researcher"]):
        return False
    kw.fill("playwright")
    if not _settled(lambda: _titles(page) == ["QA Automation Engineer"]):
        return False
    kw.fill("engineer")
    return _settled(lambda: len(_titles(page)) >= 5 and all("engineer" in t.lower() for t in _titles(page)))


def item_2(page: Page, base_url: str) -> bool:
    """The location filter keeps only jobs in that place."""
    for place, expected in (("Bristol", 2), ("London", 4)):
        page.get_by_label("Location").select_option(place)
        if not _settled(lambda expected=expected, place=place: _cards(page).count() == expected and all(f"· {place}" in t for t in texts(_cards(page)))):
            return False
    return True


def item_3(page: Page, base_url: str) -> bool:
    """A minimum salary hides jobs whose range tops out below it."""
    jobs = _all_jobs(page)
    expected = {title for title, text in jobs.items() if _salary(text)[1] >= 70000}
    page.get_by_label("Min salary (£)").fill("70000")
    return _settled(lambda: set(_titles(page)) == expected) and len(expected) < TOTAL


def item_4(page: Page, base_url: str) -> bool:
    """A maximum salary hides jobs whose range starts above it."""
    jobs = _all_jobs(page)
    expected = {title for title, text in jobs.items() if _salary(text)[0] <= 50000}
    page.get_by_label("Max salary (£)").fill("50000")
    return _settled(lambda: set(_titles(page)) == expected) and len(expected) < TOTAL


def item_5(page: Page, base_url: str) -> bool:
    """'Remote only' leaves only remote jobs."""
    page.get_by_role("switch", name="Remote only").click()
    if not _settled(lambda: 0 < _cards(page).count() < TOTAL):
        return False
    page.wait_for_timeout(150)
    modes = texts(_cards(page).locator(".mode"))
    return len(modes) == 5 and set(modes) == {"Remote"}


def item_6(page: Page, base_url: str) -> bool:
    """The detail view shows every key part of the listing."""
    detail = _open(page, "Machine Learning Engineer")
    text = detail.inner_text()
    lists = [h for h in ("What you'll do", "What we're looking for") if detail.get_by_role("heading", name=h).is_visible()]
    return (
        "Lingo Labs" in text and "Edinburgh" in text and "Hybrid" in text and "£72,000 – £88,000" in text
        and "speech and translation" in text and len(lists) == 2
        and "PyTorch" in texts(detail.get_by_role("list", name="Skills").get_by_role("listitem"))
    )


def item_7(page: Page, base_url: str) -> bool:
    """Saved jobs appear on the Saved jobs page."""
    _open(page, "DevOps Engineer").get_by_role("button", name=re.compile("Save")).click()
    _open(page, "Technical Writer").get_by_role("button", name=re.compile("Save")).click()
    _tab(page, "Saved jobs")
    return _settled(lambda: sorted(texts(_saved(page).locator("h3"))) == ["DevOps Engineer", "Technical Writer"])


def item_8(page: Page, base_url: str) -> bool:
    """Saved jobs survive a reload."""
    _open(page, "iOS Engineer").get_by_role("button", name=re.compile("Save")).click()
    expect(page.get_by_role("button", name=re.compile("^Saved jobs"))).to_contain_text("1")
    page.reload()
    _tab(page, "Saved jobs")
    if not _settled(lambda: texts(_saved(page).locator("h3")) == ["iOS Engineer"]):
        return False
    _tab(page, "Search jobs")
    return _open(page, "iOS Engineer").get_by_role("button", name=re.compile("Save")).get_attribute("aria-pressed") == "true"


def item_9(page: Page, base_url: str) -> bool:
    """A valid application marks the job as applied and lists it under My applications."""
    _apply(page, "Full-Stack Developer")
    if not holds(lambda: expect(page.get_by_role("dialog")).to_be_hidden()):
        return False
    card = _cards(page).filter(has=page.get_by_role("heading", name="Full-Stack Developer"))
    if "Applied" not in card.inner_text():
        return False
    _tab(page, "My applications")
    return _settled(lambda: texts(_applications(page).locator("h3")) == ["Full-Stack Developer"])


def item_10(page: Page, base_url: str) -> bool:
    """'Highest salary' sorts by pay, highest first."""
    page.get_by_label("Sort").select_option(label="Highest salary")
    if not _settled(lambda: _titles(page)[0] == "Head of Data"):
        return False
    tops = [_salary(t)[1] for t in texts(_cards(page))]
    return len(tops) == TOTAL and tops == sorted(tops, reverse=True)


def item_11(page: Page, base_url: str) -> bool:
    """Missing name, bad email or a non-URL CV link block the application."""
    cases = [
        dict(name="", email="aisha@example.co.uk", cv="https://aisha.dev/cv"),
        dict(name="Aisha Rahman", email="aisha@example", cv="https://aisha.dev/cv"),
        dict(name="Aisha Rahman", email="aisha@example.co.uk", cv="my cv is attached"),
    ]
    dialog = page.get_by_role("dialog")
    for case in cases:
        _tab(page, "Search jobs")
        _apply(page, "Site Reliability Engineer", **case)
        page.wait_for_timeout(150)
        if not dialog.is_visible() or dialog.locator('[aria-invalid="true"]').count() != 1:
            return False
        dialog.get_by_role("button", name="Cancel").click()
        _tab(page, "My applications")
        if _applications(page).count() != 0:
            return False
    return True


def item_12(page: Page, base_url: str) -> bool:
    """A second application to the same job is impossible."""
    _apply(page, "Backend Engineer (Go)")
    expect(page.get_by_role("dialog")).to_be_hidden()
    apply_btn = page.get_by_role("article", name="Job details").get_by_role("button", name=re.compile("Appl"))
    if apply_btn.is_enabled():
        _apply(page, "Backend Engineer (Go)", name="Aisha R.")
        page.wait_for_timeout(150)
    _tab(page, "My applications")
    return _settled(lambda: texts(_applications(page).locator("h3")) == ["Backend Engineer (Go)"])


def item_13(page: Page, base_url: str) -> bool:
    """Min above max shows an explanatory error."""
    page.get_by_label("Min salary (£)").fill("90000")
    page.get_by_label("Max salary (£)").fill("50000")
    return holds(lambda: expect(page.get_by_role("alert")).to_contain_text(re.compile("minimum", re.I)))


def item_14(page: Page, base_url: str) -> bool:
    """Keyword + location + minimum salary are all honoured together."""
    page.get_by_label("Keyword").fill("engineer")
    page.get_by_label("Location").select_option("London")
    page.get_by_label("Min salary (£)").fill("75000")
    if not _settled(lambda: _titles(page) == ["Senior Frontend Engineer", "Engineering Manager, Payments", "iOS Engineer"]):
        return False
    return all("London" in t and _salary(t)[1] >= 75000 for t in texts(_cards(page)))


def item_15(page: Page, base_url: str) -> bool:
    """Sending an application shows a confirmation message."""
    _apply(page, "UX Researcher")
    return holds(lambda: expect(page.get_by_role("status").filter(has_text=re.compile("sent", re.I))).to_be_visible(timeout=1000))


def item_16(page: Page, base_url: str) -> bool:
    """The save button reflects and toggles the saved state; un-saving empties Saved jobs."""
    detail = _open(page, "Head of Data")
    save = detail.get_by_role("button", name=re.compile("Save"))
    if save.get_attribute("aria-pressed") != "false":
        return False
    save.click()
    if not holds(lambda: expect(save).to_have_attribute("aria-pressed", "true")) or "Saved" not in save.inner_text():
        return False
    save.click()
    if not holds(lambda: expect(save).to_have_attribute("aria-pressed", "false")):
        return False
    _tab(page, "Saved jobs")
    return _saved(page).count() == 0 and page.get_by_text("You haven't saved any jobs yet").is_visible()


def item_17(page: Page, base_url: str) -> bool:
    """No matches shows a message; Reset filters brings every job back."""
    page.get_by_label("Keyword").fill("astronaut")
    if not holds(lambda: expect(page.get_by_role("heading", name="No jobs match your search")).to_be_visible(timeout=1000)):
        return False
    page.get_by_role("button", name="Reset filters").click()
    return _settled(lambda: _cards(page).count() == TOTAL) and page.get_by_label("Keyword").input_value() == ""


def item_18(page: Page, base_url: str) -> bool:
    """Cancel and Escape close the application form without applying."""
    dialog = page.get_by_role("dialog")
    apply_now = _open(page, "Product Designer").get_by_role("button", name="Apply now")

    def start_application() -> None:
        apply_now.click()
        dialog.get_by_label("Full name").fill("Aisha Rahman")

    if not (dismisses(dialog, start_application, "Cancel") and dismisses(dialog, start_application)):
        return False
    return apply_now.is_enabled() and first_int(page.get_by_role("button", name=re.compile("^My applications")).inner_text()) == 0


def item_19(page: Page, base_url: str) -> bool:
    """The 'N jobs' text equals the number of listings for several searches."""
    count = page.get_by_text(re.compile(r"^\d+ jobs?$"))
    steps = (lambda: None, lambda: page.get_by_label("Keyword").fill("data"), lambda: page.get_by_label("Keyword").fill(""),
             lambda: page.get_by_label("Location").select_option("Edinburgh"), lambda: page.get_by_label("Min salary (£)").fill("60000"))
    for step in steps:
        step()
        if not _settled(lambda: first_int(count.inner_text()) == _cards(page).count()):
            return False
    return True


def item_20(page: Page, base_url: str) -> bool:
    """No listing's details contain placeholder copy."""
    for title in _titles(page):
        detail = _open(page, title)
        if placeholder_hits(detail.inner_text()):
            return False
    return True


def item_21(page: Page, base_url: str) -> bool:
    """Every card shows a £ salary range and a posting date."""
    for text in _all_jobs(page).values():
        lo, hi = _salary(text)
        if not 15000 <= lo <= hi or not re.search(r"Posted \d{1,2} \w{3} 20\d\d", text):
            return False
    return True
