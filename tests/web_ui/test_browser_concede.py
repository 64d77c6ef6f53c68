"""Conceding on the page in headless Chromium (a real server, session and journal): offered only
while the game allows it, a second tap to concede alone, every player's tap for a throw-in by
agreement (002). Screenshots go to artifacts/web_ui/ as page-*-concede*.png."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from table.rules import Phase
from web_ui.state import concession

from .conftest import PIN
from .test_browser import CHROMIUM, PHONE, browser, open_page, shot, shows
from .test_browser_page import Table, tables

__all__ = ["browser", "tables"]  # the fixtures, shared

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
    pytest.mark.timeout(240),
]


def test_concede_alone_takes_a_second_tap(browser: Any,
                                          tables: Callable[..., Table]) -> None:
    t = tables(seed=3)
    game = t.until(lambda g: g.phase is Phase.MELD)
    declarer = game.declarer
    assert declarer is not None
    page = open_page(browser, t.server.url, PHONE, pin=PIN)
    # with the contract, away from Undo, and whole at 390 px
    assert page.query_selector("#actions #concede") is None
    box = page.eval_on_selector("#contract #concede", "e => [e.getBoundingClientRect().right, "
                                "e.scrollWidth, e.clientWidth, e.textContent]")
    assert box[0] <= PHONE["width"] and box[1] <= box[2] and box[3] == "Concede"
    number = t.session.last_number
    page.click("#concede")  # the first tap only asks
    sure = page.wait_for_selector("#concede-sure")
    assert sure.inner_text() == f"Tap again: {t.names[declarer]} concedes"
    assert t.session.last_number == number
    shot(page, "page-phone-concede-confirm")
    page.click("#concede-cancel")  # taken back: nothing was said
    page.wait_for_selector("#concede")
    assert page.query_selector("#concede-sure") is None and t.session.last_number == number
    page.click("#concede")
    page.click("#concede-sure")
    shows(page, number + 1)
    assert t.session.game.result is not None and t.session.game.result.declarer == declarer
    assert page.query_selector("#concede") is None  # the hand is over
    assert page.errors == []


def test_throw_in_by_agreement_needs_every_player(browser: Any,
                                                  tables: Callable[..., Table]) -> None:
    t = tables("racehorse", names=["Ann", "Bob", "Cy", "Dee"], seed=1)
    game = t.until(lambda g: ((c := concession(g)) is not None and c["agreed"])
                   or g.phase is Phase.PLAY)
    assert game.phase is not Phase.PLAY, "the simulated hand reached no agreed throw-in"
    page = open_page(browser, t.server.url, PHONE, pin=PIN)
    number = t.session.last_number
    assert page.inner_text("#concede") == "Throw in"
    page.click("#concede")
    page.wait_for_selector("#concede-confirm")
    assert "only if everybody agrees" in page.inner_text("#concede-confirm")
    for seat in (0, 1, 2):
        assert page.is_disabled("#concede-sure")
        page.click(f"[data-agree-seat='{seat}']")
        page.wait_for_selector(f"[data-agree-seat='{seat}'][aria-pressed=true]")
    assert page.is_disabled("#concede-sure") and t.session.last_number == number
    shot(page, "page-phone-throw-in-agreeing")
    page.click("[data-agree-seat='3']")
    page.wait_for_selector("#concede-sure:not([disabled])")
    page.click("#concede-sure")
    shows(page, number + 1)
    result = t.session.game.result
    assert result is not None and result.declarer == game.declarer
    assert page.errors == []
