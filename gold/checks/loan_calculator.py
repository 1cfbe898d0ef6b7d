"""Executable gold checks for the bundled loan_calculator app (Northstar Loan Calculator).

Expected figures come from an independent amortization computed here (standard annuity
formula, payments rounded to cents, last payment absorbing the rounding).
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ._helpers import holds, money, texts

USD = re.compile(r"^\$\d{1,3}(,\d{3})*\.\d{2}$")


def reference(amount: float, annual_rate: float, years: int) -> dict:
    """Payment, per-month rows and total interest of a fixed-rate, fully amortizing loan."""
    months = years * 12
    r = annual_rate / 1200
    payment = round(amount / months if r == 0 else amount * r * (1 + r) ** months / ((1 + r) ** months - 1), 2)
    balance, rows = amount, []
    for n in range(1, months + 1):
        interest = round(balance * r, 2)
        principal = balance if n == months else round(payment - interest, 2)
        balance = round(balance - principal, 2)
        rows.append((interest, principal, balance))
    return {"payment": payment, "rows": rows, "interest": sum(i for i, _, _ in rows)}


def calculate(page: Page, amount=None, rate=None, term=None, start=None, label=None) -> None:
    """Fill the given loan fields and press Calculate."""
    fields = [("Loan amount", amount), ("Annual interest rate", rate), ("Loan term (years)", term),
              ("First payment", start), ("Scenario name", label)]
    for name, value in fields:
        if value is not None:
            page.get_by_label(name).fill(str(value))
    page.get_by_role("button", name="Calculate").click()


def payment(page: Page) -> float:
    """The monthly payment shown in the results."""
    return money(page.get_by_label("Estimated monthly payment").inner_text())


def stat(page: Page, name: str) -> str:
    """Text of one summary figure (Total interest, Total of payments, Number of payments, Payoff date)."""
    return page.locator("dl.stats div", has=page.get_by_text(name, exact=True)).locator("dd").inner_text().strip()


def schedule_rows(page: Page) -> list[list[str]]:
    """Cell texts of every body row of the amortization schedule."""
    return page.locator("#schedule tbody tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.cells, c => c.innerText.trim()))"
    )


def add_to_comparison(page: Page) -> None:
    """Press "Add to comparison" for the current result."""
    page.get_by_role("button", name="Add to comparison").click()


def comparison_rows(page: Page):
    """Locator of the scenario rows in the comparison table."""
    return page.locator("#compare tbody tr")


def field_error(page: Page, field: str) -> str:
    """The inline error text shown for a loan field (amount, rate, term)."""
    return page.locator(f"#{field}-error").inner_text().strip()


def try_calculate(page: Page) -> None:
    """Press Calculate if the button is enabled (a disabled button already refuses the input)."""
    button = page.get_by_role("button", name="Calculate")
    if button.is_enabled():
        button.click()


def item_1(page: Page, base_url: str) -> bool:
    """Amount, rate and term produce the standard monthly payment."""
    calculate(page, 200000, 6, 30)
    return abs(payment(page) - reference(200000, 6, 30)["payment"]) < 0.006


def item_2(page: Page, base_url: str) -> bool:
    """Total interest and total paid are shown and total paid = amount + interest."""
    calculate(page, 200000, 6, 30)
    interest, paid = money(stat(page, "Total interest")), money(stat(page, "Total of payments"))
    return abs(interest - reference(200000, 6, 30)["interest"]) < 2 and abs(paid - 200000 - interest) < 0.011


def item_3(page: Page, base_url: str) -> bool:
    """A 0% loan pays amount / months each month."""
    calculate(page, 12000, 0, 1)
    return abs(payment(page) - 1000.0) < 0.006 and abs(money(stat(page, "Total interest"))) < 0.006


def item_4(page: Page, base_url: str) -> bool:
    """Schedule rows carry date, payment, principal, interest and balance with correct first-month figures."""
    calculate(page, 200000, 6, 30)
    headers = " ".join(texts(page.locator("#schedule thead th"))).lower()
    if not all(h in headers for h in ("date", "payment", "principal", "interest", "balance")):
        return False
    rows = schedule_rows(page)
    first = rows[0]
    ref_interest, ref_principal, ref_balance = reference(200000, 6, 30)["rows"][0]
    amounts = [money(c) for c in first if "$" in c]
    return (
        len(rows) >= 300
        and re.search(r"[A-Za-z]{3}\w*\s+\d{4}|\d{1,2}/\d{4}", " ".join(first)) is not None
        and all(any(abs(a - v) < 0.006 for a in amounts) for v in (ref_interest, ref_principal, ref_balance))
        and money(rows[1][-1]) < money(first[-1])
    )


def item_5(page: Page, base_url: str) -> bool:
    """The yearly view has one row per year with that year's principal and interest."""
    calculate(page, 200000, 6, 30)
    page.get_by_role("button", name="Yearly").click()
    rows = schedule_rows(page)
    year1 = reference(200000, 6, 30)["rows"][:12]
    amounts = [money(c) for c in rows[0][1:]]
    return (
        len(rows) == 30
        and "1" in rows[0][0]
        and abs(amounts[0] - sum(p for _, p, _ in year1)) < 0.05
        and abs(amounts[1] - sum(i for i, _, _ in year1)) < 0.05
    )


def item_6(page: Page, base_url: str) -> bool:
    """Two calculations added to the comparison appear side by side with their payments."""
    calculate(page, 300000, 6.5, 30)
    first = page.get_by_label("Estimated monthly payment").inner_text().strip()
    add_to_comparison(page)
    calculate(page, term=15)
    second = page.get_by_label("Estimated monthly payment").inner_text().strip()
    add_to_comparison(page)
    rows = comparison_rows(page)
    expect(rows).to_have_count(2)
    return first in rows.nth(0).inner_text() and second in rows.nth(1).inner_text() and first != second


def item_7(page: Page, base_url: str) -> bool:
    """Removing one scenario leaves the other in the comparison."""
    calculate(page, label="Bank A 30 year")
    add_to_comparison(page)
    calculate(page, term=15, label="Bank B 15 year")
    add_to_comparison(page)
    expect(comparison_rows(page)).to_have_count(2)
    page.get_by_role("button", name="Remove Bank A 30 year").click()
    rows = comparison_rows(page)
    return holds(lambda: expect(rows).to_have_count(1, timeout=1000)) and "Bank B 15 year" in rows.first.inner_text()


def item_8(page: Page, base_url: str) -> bool:
    """A saved scenario survives a page reload."""
    calculate(page, 250000, 5.75, 20, label="Credit union 20 year")
    add_to_comparison(page)
    expect(comparison_rows(page)).to_have_count(1)
    page.reload()
    return holds(lambda: expect(page.locator("#compare").get_by_text("Credit union 20 year")).to_be_visible(timeout=1500))


def item_9(page: Page, base_url: str) -> bool:
    """Empty and out-of-range amounts show an error and produce no result."""
    before = payment(page)
    for bad, wording in (("", "enter"), ("500", "between"), ("6000000", "between")):
        page.get_by_label("Loan amount").fill(bad)
        try_calculate(page)
        if wording not in field_error(page, "amount").lower() or payment(page) != before:
            return False
    return True


def item_10(page: Page, base_url: str) -> bool:
    """A negative interest rate is rejected with a message and no payment is computed."""
    before = payment(page)
    page.get_by_label("Annual interest rate").fill("-2")
    try_calculate(page)
    return field_error(page, "rate") != "" and payment(page) == before


def item_11(page: Page, base_url: str) -> bool:
    """Terms of 0, 45 and 2.5 years are rejected; 40 years is accepted."""
    term = page.get_by_label("Loan term (years)")
    for bad in ("0", "45", "2.5"):
        term.fill(bad)
        try_calculate(page)
        if field_error(page, "term") == "":
            return False
    term.fill("40")
    return field_error(page, "term") == ""


def item_12(page: Page, base_url: str) -> bool:
    """A fifth scenario is refused with a message; four stay in the table."""
    for _ in range(5):
        add_to_comparison(page)
    limit_message = page.get_by_text(re.compile(r"up to (4|four)", re.I)).filter(visible=True)
    return holds(lambda: expect(limit_message.first).to_be_visible(timeout=1500)) and comparison_rows(page).count() == 4


def item_13(page: Page, base_url: str) -> bool:
    """Typing an invalid value shows an inline error and marks the field invalid without submitting."""
    amount = page.get_by_label("Loan amount")
    amount.fill("")
    term = page.get_by_label("Loan term (years)")
    term.fill("0")
    return (
        field_error(page, "amount") != ""
        and amount.get_attribute("aria-invalid") == "true"
        and field_error(page, "term") != ""
        and term.get_attribute("aria-invalid") == "true"
    )


def item_14(page: Page, base_url: str) -> bool:
    """After fixing an invalid amount, Calculate is enabled again and recalculates."""
    amount = page.get_by_label("Loan amount")
    amount.fill("")
    amount.fill("150000")
    button = page.get_by_role("button", name="Calculate")
    if not holds(lambda: expect(button).to_be_enabled(timeout=1000)):
        return False
    button.click()
    return abs(payment(page) - reference(150000, 6.5, 30)["payment"]) < 0.006


def item_15(page: Page, base_url: str) -> bool:
    """Adding a scenario shows a confirmation toast."""
    add_to_comparison(page)
    toast = page.get_by_role("status").get_by_text(re.compile(r"added to (the )?comparison", re.I))
    return holds(lambda: expect(toast).to_be_visible(timeout=1500))


def item_16(page: Page, base_url: str) -> bool:
    """New inputs update the payment, the totals and the schedule in one go."""
    calculate(page, 100000, 5, 15)
    ref = reference(100000, 5, 15)
    first = schedule_rows(page)[0]
    return (
        abs(payment(page) - ref["payment"]) < 0.006
        and stat(page, "Number of payments") == "180"
        and abs(money(stat(page, "Total interest")) - ref["interest"]) < 1
        and any(abs(money(c) - ref["rows"][0][0]) < 0.006 for c in first if "$" in c)
        and "180" in page.locator("#schedule").inner_text()
    )


def item_17(page: Page, base_url: str) -> bool:
    """A 1-year loan has 12 schedule rows ending at a $0.00 balance."""
    calculate(page, 10000, 5, 1)
    rows = schedule_rows(page)
    return len(rows) == 12 and money(rows[-1][-1]) == 0.0


def item_18(page: Page, base_url: str) -> bool:
    """Amounts read like $1,234.56."""
    calculate(page, 300000, 6.5, 30)
    shown = [page.get_by_label("Estimated monthly payment").inner_text().strip(),
             stat(page, "Total interest"), stat(page, "Total of payments")]
    shown += [c for c in schedule_rows(page)[0] if "$" in c]
    return len(shown) >= 6 and all(USD.match(s) for s in shown)


def item_19(page: Page, base_url: str) -> bool:
    """A 30-year loan starting January 2026 is paid off in December 2055."""
    calculate(page, 300000, 6.5, 30, start="2026-01")
    first = stat(page, "Payoff date")
    calculate(page, term=15, start="2026-03")
    second = stat(page, "Payoff date")
    return bool(re.search(r"Dec\w*\.?\s+2055|12/2055", first)) and bool(re.search(r"Feb\w*\.?\s+2041|0?2/2041", second))


def item_20(page: Page, base_url: str) -> bool:
    """The cheaper 15-year scenario is the one marked as lowest cost."""
    calculate(page, 300000, 6.5, 30, label="Thirty year")
    add_to_comparison(page)
    calculate(page, term=15, label="Fifteen year")
    add_to_comparison(page)
    marked = comparison_rows(page).filter(has_text=re.compile(r"lowest|cheapest|best", re.I))
    expect(marked).to_have_count(1)
    return "Fifteen year" in marked.inner_text()
