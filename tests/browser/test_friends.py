"""Two accounts in two browsers: follow, see each other come online, invite, accept from
another page, race, and the head-to-head shows the race; invitations refused for "from no
one" and for a blocked player (games/friends/)."""

from __future__ import annotations

import secrets
from typing import Any

from playwright.sync_api import expect

from tests.browser.racing import WAIT, no_js_errors, resign, wait_until_racing

ONLINE_WITHIN_MS = 2_000


def _sign_up(page: Any, username: str) -> None:
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    password = secrets.token_urlsafe(12)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/" not in url)


def _follow(page: Any, username: str) -> None:
    page.goto(f"/@/{username}/")
    page.locator(".relation-actions").get_by_role("button", name="Follow").click()
    expect(page.locator(".site-messages")).to_contain_text(f"You follow {username}.")


def _socket_open(page: Any) -> None:
    expect(page.locator("html")).to_have_attribute("data-site-socket", "open", timeout=WAIT)


def test_friends_see_each_other_invite_accept_race_and_see_the_record(new_page, shot) -> None:
    suffix = secrets.token_hex(3)
    ann, ben = f"ann{suffix}", f"ben{suffix}"
    alice, bob = new_page(), new_page()
    _sign_up(alice, ann)
    _sign_up(bob, ben)
    _follow(alice, ben)
    shot(alice, "friends-profile-follow")
    _follow(bob, ann)
    bob.goto("about:blank")  # bob leaves the site: his socket closes

    alice.goto("/friends/")
    _socket_open(alice)
    # A friend is in both lists, whom she follows and her followers: one dot in each.
    dot = alice.get_by_role("region", name="You follow").locator(f'[data-presence="{ben}"]')
    also = alice.get_by_role("region", name="Your followers").locator(f'[data-presence="{ben}"]')
    expect(dot).not_to_have_class("presence-dot is-online")
    bob.goto("/leaderboard/")  # anywhere on the site
    _socket_open(bob)
    expect(dot).to_have_class("presence-dot is-online", timeout=ONLINE_WITHIN_MS)
    expect(also).to_have_class("presence-dot is-online")
    shot(alice, "friends-page")

    alice.locator(f'input[name="to"][value="{ben}"]').check()
    alice.get_by_label("Time limit (minutes)").fill("5")
    alice.get_by_role("button", name="Invite", exact=True).click()
    alice.wait_for_url("**/r/*/")
    code = alice.url.rstrip("/").rsplit("/", 1)[1]
    _socket_open(alice)  # the accepted note goes to her open site socket only

    bob.goto("/daily/")  # a page change: the invitation is sent again on connect
    toast = bob.locator(".site-toast", has_text=f"{ann} invites you to a race")
    expect(toast).to_be_visible(timeout=WAIT)
    shot(bob, "friends-invitation-toast")
    accept = toast.get_by_role("button", name="Accept")
    accept.focus()  # reachable from the keyboard
    bob.keyboard.press("Enter")
    # The inviter's note first: it shows for 8 s from the answer (test_friends_invites.py).
    expect(alice.locator(".site-toast")).to_contain_text(f"{ben} accepted your invitation.")
    bob.wait_for_url(f"**/r/{code}/")

    bob.get_by_role("button", name="I’m ready").click()
    alice.get_by_role("button", name="Start the race").click()
    wait_until_racing(alice)
    wait_until_racing(bob)
    resign(bob)
    resign(alice)
    expect(alice.locator("#results-table")).to_be_visible(timeout=WAIT)

    bob.goto(f"/@/{ann}/")
    expect(bob.locator(".h2h-score")).to_contain_text(f"You and {ann}: 1 race")
    expect(bob.locator(".h2h-replays a")).to_have_count(2)
    no_js_errors(alice, bob)


def test_invitations_are_refused_from_no_one_and_for_a_blocked_player(new_page) -> None:
    suffix = secrets.token_hex(3)
    ann, cat = f"ann{suffix}", f"cat{suffix}"
    alice, charlie = new_page(), new_page()
    _sign_up(alice, ann)
    _sign_up(charlie, cat)
    _follow(alice, cat)
    _follow(charlie, ann)

    charlie.goto("/friends/")
    charlie.get_by_label("No one").check()
    charlie.get_by_role("button", name="Save").click()
    expect(charlie.locator(".site-messages")).to_contain_text("Your invitation setting is saved.")
    alice.goto(f"/@/{cat}/")  # friends, but no one may invite cat: no Invite offered
    expect(alice.locator(".relation-actions")).to_be_visible()
    expect(alice.locator("#profile-invite")).to_have_count(0)
    alice.goto("/friends/")
    expect(alice.locator(f'input[name="to"][value="{cat}"]')).to_be_disabled()

    charlie.get_by_label("Anyone").check()
    charlie.get_by_role("button", name="Save").click()
    charlie.goto(f"/@/{ann}/")
    charlie.locator(".relation-actions").get_by_role("button", name="Block").click()
    expect(charlie.locator(".site-messages")).to_contain_text(f"You blocked {ann}.")
    alice.goto(f"/@/{cat}/")
    expect(alice.locator("#profile-invite")).to_have_count(0)
    alice.locator(".relation-actions").get_by_role("button", name="Follow").click()
    expect(alice.locator(".site-messages")).to_contain_text("does not accept follows from you")
    no_js_errors(alice, charlie)
