"""Which credentials the sign-in tries first, read from the sign-in page's text."""

from __future__ import annotations

import pytest

from webtester.probes.signin import ANY_EMAIL, ANY_PASSWORD, credential_candidates

pytestmark = pytest.mark.unit


def pairs(text: str) -> list[tuple[str, str]]:
    return [(c.identifier, c.password) for c in credential_candidates(text)]


@pytest.mark.parametrize(("text", "first"), [
    ("Demo credentials: admin@company.com / admin", ("admin@company.com", "admin")),
    ("Invalid email or password. Try demo@mindful.com / demo123", ("demo@mindful.com", "demo123")),
    ("Demo accounts:\nalex_dev / password123\nsarah_designs / password123", ("alex_dev", "password123")),
    ("Test login - Email: a@b.co Password: secret1.", ("a@b.co", "secret1")),
])
def test_a_demo_account_shown_on_the_page_comes_first(text, first):
    assert pairs(text)[0] == first
    assert pairs(text)[-1] == (ANY_EMAIL, ANY_PASSWORD)


def test_demo_addresses_without_a_password_get_one_guess_and_never_each_other_as_password():
    found = pairs("Demo accounts: alex@study.edu, sarah@study.edu, emily@study.edu")
    assert found == [("alex@study.edu", "password123"), (ANY_EMAIL, ANY_PASSWORD)]


@pytest.mark.parametrize("text", ["Sign in / Sign up", "Welcome back! Use any email and password to sign in", ""])
def test_without_a_demo_account_any_credentials_are_tried(text):
    assert pairs(text) == [(ANY_EMAIL, ANY_PASSWORD)]
