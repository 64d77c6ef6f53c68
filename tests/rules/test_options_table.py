"""The README's options table is true: it names every option there is (and nothing else), and
each option, set once as text, is taken, written back by the notation, and plays a hand."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from table.rules import (
    Game,
    new_game,
    option_names,
    options_of,
    preset,
    with_options,
)

from .game_helpers import sim_hands

README = Path(__file__).resolve().parents[2] / "README.md"

# Each option once, as the table's text would set it, on a preset where it means something.
SAMPLES: list[tuple[str, dict[str, str]]] = [
    ("partnership4", {"players": "3", "partnerships": "no", "hand_size": "15",
                      "kitty_size": "3", "bury": "3"}),
    ("double-deck", {"copies": "2", "nines": "yes", "hand_size": "12", "min_bid": "150",
                     "dealer_forced_bid": "149"}),
    ("partnership4", {"pass_cards": "3"}),
    ("classic3", {"players": "2", "hand_size": "12", "kitty_size": "0", "bury": "0",
                  "draw_from_stock": "yes", "must_open_with_meld": "no"}),
    ("two-hand", {"draw_events": "no"}),
    ("bison", {"bid_step": "20", "all_pass": "opener-forced", "opener_may_jump": "yes"}),
    ("brooklyn", {"forbidden_endings": "none", "push_to_dealer": "0", "push_from_bid": "350"}),
    ("brooklyn", {"seats_at_table": "4", "sit_out": "dealer"}),
    ("partnership4", {"dealer_forced_bid": "190", "dealer_forced_needs_meld": "yes"}),
    ("family", {"single_round": "no", "kitty_reveal_auction": "yes"}),
    ("bison", {"points": "simplified", "beat": "trump-led", "first_lead_trump": "yes",
               "double_bonuses": "no"}),
    ("bison", {"meld.roundhouse": "240", "meld.roundhouse_with_run": "390",
               "meld.double_royal_marriage": "240", "meld.double_royal_with_run": "390"}),
    ("bison", {"meld.run": "160", "meld.royal_marriage": "50", "meld.marriage": "30",
               "meld.dix": "20", "meld.pinochle": "50", "meld.aces": "110", "meld.kings": "90",
               "meld.queens": "70", "meld.jacks": "50", "meld.double_run": "none",
               "meld.double_pinochle": "80", "meld.double_aces": "none",
               "meld.double_kings": "none", "meld.double_queens": "none",
               "meld.double_jacks": "none", "meld.dix_own_class": "yes"}),
    ("bison", {"nine_throw_ins": "5-nines-no-meld+7-nines", "throw_in_by_agreement": "yes"}),
    ("bison", {"who_melds": "declarer", "meld_before_bury": "yes", "meld_saving": "trick",
               "declarer_saves_meld": "no"}),
    ("bison", {"concede_after_meld": "no", "concede_names_trump": "yes",
               "forced_concede_margin": "250", "concede_unseen": "yes",
               "concede_before_opponents_meld": "yes"}),
    ("brooklyn", {"voluntary_set": "no", "voluntary_set_after_trump": "no"}),
    ("racehorse", {"concede_margin": "200"}),
    ("family", {"unburied_forfeit": "10"}),
    ("bison", {"scoring": "alternate", "alternate_made": "3", "alternate_set": "-2",
               "alternate_opponent": "2"}),
    ("brooklyn", {"stakes": "300:1:2+400:2:4", "spades_double": "no", "hearts_triple": "yes"}),
    ("brooklyn-pot", {"pot_ante": "50", "pot_min_bid": "350"}),
    ("bison", {"game_stake": "2", "set_stake": "1"}),
    ("check", {"checks.run": "2", "checks.aces_around": "2", "checks.roundtable": "3",
               "checks.looked_and_lost": "-2", "checks.played_and_lost": "-1",
               "checks.double_marriage": "1", "checks.double_pinochle": "1",
               "checks.double_around": "2", "checks.seven_nines": "5", "checks.game": "10"}),
    ("bison", {"target": "1000", "deals": "3", "negative_limit": "-500",
               "negative_limit_reached": "yes", "winner_deals_next": "no"}),
    ("classic3", {"tie_break": "overtime", "overtime_step": "500"}),
    ("bison", {"scale": "10", "min_bid": "25", "points": "counters/10"}),
    ("bison", {"agree_hands": "1"}),
]


def table_names() -> set[str]:
    """The option names in the first column of the README's options table."""
    text = README.read_text()
    section = text[text.index("<!-- section:rules -->"):text.index("<!-- /section:rules -->")]
    start = section.index("| option | values |")
    names: set[str] = set()
    for line in section[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        names |= set(re.findall(r"`([a-z_.*]+)`", line.split("|")[1]))
    return names


def test_the_table_names_every_option_and_only_options() -> None:
    names = table_names()
    wild = {n[:-1] for n in names if n.endswith(".*")}
    plain = names - {n for n in names if n.endswith(".*")}
    options = set(option_names())
    assert plain <= options, f"the table names what is no option: {sorted(plain - options)}"
    missing = [o for o in options if o not in plain and not any(o.startswith(w) for w in wild)]
    assert not missing, f"the table leaves out {missing}"


def test_the_samples_set_every_option() -> None:
    assert {k for _, opts in SAMPLES for k in opts} == set(option_names())


@pytest.mark.parametrize(("name", "options"), SAMPLES,
                         ids=[",".join(o) for _, o in SAMPLES])
def test_each_option_is_taken_written_back_and_plays(name: str, options: dict[str, str]
                                                     ) -> None:
    base = preset(name)
    rules = with_options(base, options)
    assert rules != base
    assert set(options) - set(options_of(rules)) <= {k for k, v in options.items()
                                                     if options_of(base).get(k) == v}
    g = new_game(rules)
    assert Game.parse(g.position()).rules == rules
    *_, (_, _, end) = sim_hands(rules, seed=3, hands=1)  # an illegal event would raise
    assert end.result is not None
