"""Executable gold checks for ``recipe_finder`` (Pantry & Pan recipe search).

Each ``item_<id>(page, base_url)`` drives the page like a user and returns
True when the behaviour of gold item ``<id>`` holds.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ._helpers import dismisses, eventually, first_int, holds, image_loaded, placeholder_hits, texts

TOTAL = 26


def _cards(page: Page, list_name: str = "Recipes"):
    return page.get_by_role("list", name=list_name, exact=True).get_by_role("listitem")


def _titles(page: Page, list_name: str = "Recipes") -> list[str]:
    return texts(_cards(page, list_name).locator("h3"))


def _search(page: Page, term: str) -> None:
    page.get_by_label("Search recipes").fill(term)


def _count_text(page: Page) -> str:
    return page.get_by_text(re.compile(r"^\d+ recipes? found$")).inner_text()


def _settled(page: Page, predicate) -> bool:
    return eventually(lambda: bool(predicate()), timeout=1.0)


def _minutes(card_text: str) -> int:
    return int(re.search(r"(\d+) min", card_text).group(1))


def _rating(card_text: str) -> float:
    return float(re.search(r"★\s*(\d\.\d)", card_text).group(1))


def _open(page: Page, title: str):
    _cards(page).get_by_role("button", name=title, exact=True).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    return dialog


def _heart(page: Page, title: str, list_name: str = "Recipes"):
    return _cards(page, list_name).get_by_role("button", name=re.compile(rf"^(Save|Remove) {re.escape(title)} (to|from) favourites$"))


def _favourites_page(page: Page) -> None:
    page.get_by_role("button", name=re.compile("^Favourites")).click()
    expect(page.get_by_role("heading", name="Your favourites")).to_be_visible()


def item_1(page: Page, base_url: str) -> bool:
    """'risotto' finds Mushroom Risotto and nothing unrelated."""
    _search(page, "risotto")
    return _settled(page, lambda: _titles(page) == ["Mushroom Risotto"])


def item_2(page: Page, base_url: str) -> bool:
    """'chickpeas' finds recipes using chickpeas, not only by name."""
    _search(page, "chickpeas")
    return _settled(page, lambda: sorted(_titles(page)) == ["Chana Masala", "Falafel Wraps"])


def item_3(page: Page, base_url: str) -> bool:
    """The cuisine filter keeps only that cuisine."""
    for cuisine in ("Thai", "Greek"):
        page.get_by_label("Cuisine").select_option(cuisine)
        if not _settled(page, lambda cuisine=cuisine: {t.split("\n")[0].strip().lower() for t in texts(_cards(page))} == {cuisine.lower()}):
            return False
        if _cards(page).count() != 3:
            return False
    return True


def item_4(page: Page, base_url: str) -> bool:
    """Max cooking time hides longer recipes."""
    page.get_by_label("Max cooking time").select_option(label="15 minutes")
    if not _settled(page, lambda: 0 < _cards(page).count() < TOTAL):
        return False
    return all(_minutes(t) <= 15 for t in texts(_cards(page)))


def item_5(page: Page, base_url: str) -> bool:
    """Vegan + Gluten-free shows only recipes labelled with both."""
    page.get_by_label("Vegan", exact=True).check()
    page.get_by_label("Gluten-free", exact=True).check()
    expected = {"Chana Masala", "Guacamole & Pico de Gallo", "Thai Green Curry with Tofu", "Ratatouille"}
    ok = _settled(page, lambda: set(_titles(page)) == expected)
    return ok and all("Vegan" in t and "Gluten-free" in t for t in texts(_cards(page)))


def item_6(page: Page, base_url: str) -> bool:
    """'Quickest first' sorts by cooking time ascending."""
    page.get_by_label("Sort by").select_option(label="Quickest first")
    if not _settled(page, lambda: _minutes(texts(_cards(page))[0]) == 10):
        return False
    times = [_minutes(t) for t in texts(_cards(page))]
    return len(times) == TOTAL and times == sorted(times)


def item_7(page: Page, base_url: str) -> bool:
    """'Top rated' sorts by rating descending (also after another sort was chosen)."""
    page.get_by_label("Sort by").select_option(label="Name (A–Z)")
    page.get_by_label("Sort by").select_option(label="Top rated")
    if not _settled(page, lambda: _rating(texts(_cards(page))[0]) == 4.8):
        return False
    ratings = [_rating(t) for t in texts(_cards(page))]
    return len(ratings) == TOTAL and ratings == sorted(ratings, reverse=True)


def item_8(page: Page, base_url: str) -> bool:
    """The detail view shows cuisine, time, servings, rating, ingredients and steps."""
    dialog = _open(page, "Dal Tadka")
    text = dialog.inner_text()
    ingredients = dialog.get_by_role("list", name=re.compile("Ingredients")).get_by_role("listitem")
    steps = dialog.get_by_role("list", name="Method").get_by_role("listitem")
    return (
        dialog.get_by_role("heading", name="Dal Tadka").is_visible()
        and "indian" in text.lower() and "30 min" in text and "Serves 4" in text and "4.4" in text
        and ingredients.count() == 7 and "250 g red lentils" in texts(ingredients)
        and steps.count() == 3
    )


def item_9(page: Page, base_url: str) -> bool:
    """Hearted recipes are listed on the Favourites page."""
    _heart(page, "Shakshuka").click()
    _heart(page, "Miso Ramen").click()
    _favourites_page(page)
    return _settled(page, lambda: sorted(_titles(page, "Favourite recipes")) == ["Miso Ramen", "Shakshuka"])


def item_10(page: Page, base_url: str) -> bool:
    """Favourites survive a reload."""
    _heart(page, "Ratatouille").click()
    _heart(page, "Greek Salad").click()
    expect(page.get_by_role("button", name=re.compile("^Favourites"))).to_contain_text("2")
    page.reload()
    _favourites_page(page)
    return _settled(page, lambda: sorted(_titles(page, "Favourite recipes")) == ["Greek Salad", "Ratatouille"])


def item_11(page: Page, base_url: str) -> bool:
    """A removed favourite does not come back after a reload."""
    _heart(page, "Tom Yum Soup").click()
    _heart(page, "Croque Monsieur").click()
    page.reload()
    heart = _heart(page, "Tom Yum Soup")
    expect(heart).to_have_attribute("aria-pressed", "true")
    heart.click()
    expect(heart).to_have_attribute("aria-pressed", "false")
    page.reload()
    _favourites_page(page)
    return _settled(page, lambda: _titles(page, "Favourite recipes") == ["Croque Monsieur"])


def item_12(page: Page, base_url: str) -> bool:
    """'Max 30 minutes' keeps the recipes that take exactly 30 minutes."""
    page.get_by_label("Max cooking time").select_option(label="30 minutes")
    if not _settled(page, lambda: 0 < _cards(page).count() < TOTAL):
        return False
    titles = set(_titles(page))
    return {"Dal Tadka", "Shakshuka", "Thai Green Curry with Tofu"} <= titles and all(_minutes(t) <= 30 for t in texts(_cards(page)))


def item_13(page: Page, base_url: str) -> bool:
    """Keyword + cuisine + diet filters are all honoured together."""
    _search(page, "chicken")
    page.get_by_label("Cuisine").select_option("Greek")
    page.get_by_label("Dairy-free", exact=True).check()
    if not _settled(page, lambda: _titles(page) == ["Chicken Souvlaki with Lemon Potatoes"]):
        return False
    page.get_by_label("Cuisine").select_option("Indian")
    return _settled(page, lambda: _cards(page).count() == 0)


def item_14(page: Page, base_url: str) -> bool:
    """Search ignores case and surrounding spaces."""
    _search(page, "  MISO ")
    return _settled(page, lambda: _titles(page) == ["Miso Ramen"])


def item_15(page: Page, base_url: str) -> bool:
    """No matches shows a friendly message whose button restores all recipes."""
    _search(page, "lasagne")
    if not _settled(page, lambda: _cards(page).count() == 0):
        return False
    message = page.get_by_role("heading", name=re.compile("No recipes", re.I))
    if not holds(lambda: expect(message).to_be_visible(timeout=800)):
        return False
    page.get_by_role("button", name="Clear all filters").click()
    return _settled(page, lambda: _cards(page).count() == TOTAL) and page.get_by_label("Search recipes").input_value() == ""


def item_16(page: Page, base_url: str) -> bool:
    """Typing and filter changes update the list and the count live."""
    box = page.get_by_label("Search recipes")
    box.press_sequentially("lim", delay=30)
    if not _settled(page, lambda: 0 < _cards(page).count() < TOTAL and first_int(_count_text(page)) == _cards(page).count()):
        return False
    before = _cards(page).count()
    page.get_by_label("Cuisine").select_option("Mexican")
    return _settled(page, lambda: 0 < _cards(page).count() < before and first_int(_count_text(page)) == _cards(page).count())


def item_17(page: Page, base_url: str) -> bool:
    """The heart toggles its saved state, confirms with a message and updates the counter."""
    heart = _heart(page, "Falafel Wraps")
    fav_nav = page.get_by_role("button", name=re.compile("^Favourites"))
    if heart.get_attribute("aria-pressed") != "false":
        return False
    heart.click()
    if not holds(lambda: expect(heart).to_have_attribute("aria-pressed", "true")):
        return False
    if not holds(lambda: expect(page.get_by_role("status")).to_contain_text("Falafel Wraps")):
        return False
    if "1" not in fav_nav.inner_text():
        return False
    heart.click()
    return holds(lambda: expect(heart).to_have_attribute("aria-pressed", "false")) and "0" in fav_nav.inner_text()


def item_18(page: Page, base_url: str) -> bool:
    """The detail closes with its close button and with Escape."""
    dialog = page.get_by_role("dialog")
    return dismisses(dialog, lambda: _open(page, "Tom Yum Soup"), "Close recipe") and dismisses(dialog, lambda: _open(page, "Ratatouille"))


def item_19(page: Page, base_url: str) -> bool:
    """The result count equals the number of cards for several searches."""
    for action in (lambda: None, lambda: _search(page, "garlic"), lambda: page.get_by_label("Vegetarian", exact=True).check(),
                   lambda: page.get_by_label("Max cooking time").select_option(label="45 minutes")):
        action()
        if not _settled(page, lambda: first_int(_count_text(page)) == _cards(page).count()):
            return False
    return True


def item_20(page: Page, base_url: str) -> bool:
    """Each card's ingredient count matches the detail's ingredient list."""
    for title in ("Chana Masala", "Margherita Pizza", "Chicken Souvlaki with Lemon Potatoes"):
        card = _cards(page).filter(has=page.get_by_role("heading", name=title, exact=True))
        stated = int(re.search(r"(\d+) ingredients", card.inner_text()).group(1))
        dialog = _open(page, title)
        listed = dialog.get_by_role("list", name=re.compile("Ingredients")).get_by_role("listitem").count()
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        if stated != listed:
            return False
    return True


def item_21(page: Page, base_url: str) -> bool:
    """Cards show photo, cuisine, minutes and a rating out of 5; no placeholder text."""
    cards = _cards(page)
    expect(cards).to_have_count(TOTAL)
    for i in range(TOTAL):
        card = cards.nth(i)
        text = card.inner_text()
        if not re.search(r"\d+ min", text) or not 1 <= _rating(text) <= 5 or len(text.split("\n")[0].strip()) < 4:
            return False
        if card.get_by_label(re.compile(r"Rated \d\.\d out of 5")).count() != 1:
            return False
    for i in (0, TOTAL - 1):
        cards.nth(i).scroll_into_view_if_needed()
        if not image_loaded(cards.nth(i).get_by_role("img")):
            return False
    return not placeholder_hits(page.locator("body").inner_text())
