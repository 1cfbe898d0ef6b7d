"""The order the form batteries run in: forms that create the app's own entries first, accounts, settings and edits
last (what a tester does first when the time may not last for every form)."""

from __future__ import annotations

from webtester.baseline.explore import _FormSpot, battery_order


def spot(name: str, url: str = "http://127.0.0.1:5173/") -> _FormSpot:
    return _FormSpot(name, url, (), name)


def names(*spots: _FormSpot) -> list[str]:
    return [s.name for s in battery_order(list(spots))]


def test_creating_forms_come_first_and_accounts_settings_and_edits_last():
    assert names(spot("Sign In"), spot("Log Workout"), spot("New Goal")) == ["Log Workout", "New Goal", "Sign In"]
    assert names(spot("Settings"), spot("Transactions"), spot("Add Transaction")) == \
        ["Add Transaction", "Transactions", "Settings"]
    assert names(spot("Edit Task"), spot("Create Task"), spot("Profile Settings"), spot("Create New Project")) == \
        ["Create Task", "Create New Project", "Edit Task", "Profile Settings"]


def test_a_form_on_a_route_for_a_new_entry_counts_as_creating():
    profile, meeting = spot("My Availability", "http://127.0.0.1:5173/profile"), spot("Meeting Details", "http://127.0.0.1:5173/meeting/new")
    assert names(profile, meeting) == ["Meeting Details", "My Availability"]


def test_forms_of_the_same_kind_keep_the_order_they_were_found_in():
    assert names(spot("Submit Review"), spot("Confirm Reservation")) == ["Submit Review", "Confirm Reservation"]
    assert names(spot("Newsletter"), spot("Contact")) == ["Newsletter", "Contact"]
