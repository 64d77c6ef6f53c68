"""The disagreements an independent audit of the five rule texts found (issue 15), each with a
figure worked out from the text it quotes. Seats: South 0, West 1, East 2 (North 2 and East 3
with four); with South dealing, West speaks first."""

from __future__ import annotations

from dataclasses import replace

import pytest

from table.rules import (
    COUNTERS,
    BidMade,
    Buried,
    Card,
    CardPlayed,
    Claimed,
    Conceded,
    Game,
    HandDealt,
    IllegalAction,
    KittyShown,
    MeldShown,
    Passed,
    Phase,
    Rules,
    StockDrawn,
    Suit,
    TrumpNamed,
    legal_plays,
    new_game,
    next_game_dealer,
    parse_cards,
    preset,
)
from table.rules.notation import position_text

from .game_helpers import at, refused, sim_hands

B3 = "South,West,East 0,0,0 d0 #0"
B4 = "South,West,North,East 0,0,0,0 d0 #0"


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


# -- the declarer must save his meld too -----------------------------------------------------

# West holds every nine, both pinochles and the jacks: meld 360 in spades (double pinochle 300,
# jacks around 40, two dix 20), buries the kitty's three kings (30), and takes no trick.
WEST = cards("9S 9S 9H 9H 9C 9C 9D 9D JS JH JC JD JD QS QS")
KINGS = cards("KH KC KD")


def _no_trick_hand(name: str) -> Game:
    rules = preset(name)
    rest = [c for c in rules.deck()]
    for c in (*WEST, *KINGS):
        rest.remove(c)
    spades = [c for c in rest if c.suit is Suit.SPADES]
    others = [c for c in rest if c.suit is not Suit.SPADES]
    south = spades + others[:15 - len(spades)]   # every other trump: he draws West's
    east = others[15 - len(spades):]
    g = new_game(rules).apply(HandDealt(dealer=0, hands=(tuple(south), WEST, tuple(east)),
                                        kitty=KINGS))
    for e in (BidMade(seat=1, amount=300), Passed(seat=2), Passed(seat=0)):
        g = g.apply(e)
    g = g.apply(KittyShown(cards=KINGS)).apply(TrumpNamed(seat=1, suit=Suit.SPADES))
    g = g.apply(Buried(seat=1, cards=KINGS)).apply(MeldShown(seat=1, cards=WEST))
    while g.phase in (Phase.MELD, Phase.PLAY):
        seat = g.turn
        assert seat is not None
        legal = g.legal_plays
        # West plays his lowest card, the others their highest, trumps first
        card = min(legal, key=_trumps_first) if seat == 1 else max(legal, key=_trumps_first)
        g = g.apply(CardPlayed(seat=seat, card=card))
    return g


def _trumps_first(c: Card) -> tuple[bool, int]:
    return c.suit is Suit.SPADES, c.rank


@pytest.mark.parametrize("name", ["bison", "classic3"])
def test_a_declarer_who_takes_no_trick_loses_his_meld_and_goes_set(name: str) -> None:
    """000: "Any player that fails to capture a counter in the play of the hand scores nothing
    for any meld"; 004: "a player must take at least one trick to 'save his meld' ...
    otherwise, no meld points will be counted for that player". West's meld 360 and buried
    kings 30 would make 390 >= 300; without his meld he has 30 < 300: set, -300."""
    g = _no_trick_hand(name)
    assert g.won_tricks[1] == 0 and g.melds[1] is not None and g.melds[1].total == 360
    assert g.result is not None and g.result.outcome == "set"
    assert g.result.score_change[1] == -300 and g.result.tricks[1] == 30
    assert g.result.meld_counted[1] is False


def test_racehorse_asks_only_the_other_team_to_save_its_meld() -> None:
    """002: "If the other team fails to earn points while taking tricks ... they do not score
    any points that were melded": the bidding team is not asked. With that reading (the
    option racehorse sets) West's 360 meld counts without a trick: 390, made."""
    assert preset("racehorse").declarer_saves_meld is False
    rules = replace(preset("bison"), declarer_saves_meld=False)
    g = _no_trick_hand("bison")
    g2 = Game.parse(g.position().replace("bison ", "bison{declarer_saves_meld=no} ", 1))
    assert g2.rules == rules
    assert g2.result is not None and g2.result.score_change[1] == 390


# -- check pinochle (004) -------------------------------------------------------------------

CHECK = "deal 1:300 2:p 0:p kitty=AS.9H.QD 1:trump=S 1:bury=?"


def _checks(options: str, west: str, east: str, south: str) -> tuple[int, ...]:
    """Checks after West concedes at 300 having melded `west`, and the others lay down meld."""
    variant = "check{target=5000" + (f",{options}}}" if options else "}")
    others = " ".join(f"{s}:meld={m}" for s, m in ((2, east), (0, south)) if m != "-")
    g = at(f"{variant} {B3} : {CHECK} 1:meld={west} 1:concede {others}")
    return g.checks


@pytest.mark.parametrize(("options", "west", "east", "south", "want"), [
    # "Flush +1 check", "Aces +1 check", "Roundtable +2 checks"; West "looking at the talon
    # and losing": -1 (and "Checks are kept even if you ... throw it in")
    ("", "AS.10S.KS.QS.JS", "AS.AH.AC.AD", "KS.QS.KH.QH.KC.QC.KD.QD", (2, 0, 1)),
    # double aces hold two aces around (1 each); the optional double around +2
    ("", "KS.QS", "AS.AS.AH.AH.AC.AC.AD.AD", "-", (0, -1, 2)),
    ("checks.double_around=2", "KS.QS", "AS.AS.AH.AH.AC.AC.AD.AD", "KH.KH.KS.KS.KC.KC.KD.KD",
     (2, -1, 4)),
    # "Double marriage (2 marriages in same suit) +1 check (optional)"
    ("checks.double_marriage=1", "KS.QS", "KH.KH.QH.QH", "-", (0, -1, 1)),
    # "Double pinochle +1 check (optional)"
    ("checks.double_pinochle=1", "QS.JD", "QS.QS.JD.JD", "-", (0, -1, 1)),
    # "7 nines +5 or +10 checks (optional) (do not need to win the bid to get credit)"
    ("checks.seven_nines=5", "KS.QS", "9S.9S.9H.9H.9C.9C.9D", "-", (0, -1, 5)),
    ("checks.seven_nines=10", "KS.QS", "9S.9S.9H.9H.9C.9D", "-", (0, -1, 0)),
    ("", "KS.QS", "9S.9S.9H.9H.9C.9C.9D", "-", (0, -1, 0)),  # optional: off by default
])
def test_every_check_of_check_pinochle(options: str, west: str, east: str, south: str,
                                       want: tuple[int, ...]) -> None:
    assert _checks(options, west, east, south) == want


def test_checks_do_not_change_when_doubles_score_as_two_singles() -> None:
    """Double aces scored as two aces around still hold two aces arounds: the same checks."""
    assert _checks("double_bonuses=no", "KS.QS", "AS.AS.AH.AH.AC.AC.AD.AD", "-") == (0, -1, 2)


def test_conceding_300_unseen_costs_no_check() -> None:
    """004: "Not looking at the talon and conceding 300 points. - no gain or loss of checks"."""
    g = at(f"check {B3} : deal 1:300 2:p 0:p 1:concede")
    assert g.result is not None and g.result.outcome == "conceded unseen"
    assert g.checks == (0, 0, 0) and g.scores == (0, -300, 0)


def test_playing_and_losing_costs_the_optional_further_check() -> None:
    """004: "Looking at the 'talon' and losing the hand (either by conceding or playing) -1
    check"; "Playing the hand and losing -1 additional check (optional)": the same hands with
    the option differ by one check exactly where the declarer played and lost."""
    rules = preset("check")
    optional = replace(rules, checks=replace(rules.checks, played_and_lost=-1))
    sets = 0
    plain = list(sim_hands(rules, seed=11, hands=30))
    strict = list(sim_hands(optional, seed=11, hands=30))
    for (_, _, a), (_, _, b) in zip(plain, strict, strict=True):
        if a.result is None or b.result is None or a.result.declarer is None:
            continue
        d = a.result.declarer
        lost = a.result.outcome == "set"
        assert b.result.checks_change[d] - a.result.checks_change[d] == (-1 if lost else 0)
        sets += lost
    assert sets


@pytest.mark.parametrize(("game_checks", "want"), [(5, 5), (10, 10)])
def test_winning_the_game_is_worth_five_or_ten_checks(game_checks: int, want: int) -> None:
    """004: "Winning the game +5 checks or +10 checks"."""
    g = at(f"check{{checks.game={game_checks}}} South,West,East 950,0,0 d0 #4 : {CHECK} "
           f"1:meld=KS.QS 1:concede 0:meld=KS.QS.KH.QH.KC.QC.KD.QD")
    assert g.winner == 0 and g.checks == (want + 2, -1, 0)  # and the roundtable's 2


# -- the forced dealer, the forced opener, the forced price -------------------------------------

def test_a_dealer_forced_to_bid_190_may_not_bid_the_150_minimum() -> None:
    """004 option: "the dealer is forced to bid 190"."""
    g = at(f"partnership4{{dealer_forced_bid=190}} {B4} : deal 1:p 2:p 3:p")
    assert g.must_bid(0) == 190
    assert refused(g, BidMade(seat=0, amount=150)) == "South cannot bid 150: the forced bid is 190"
    assert refused(g, Passed(seat=0)) == "South may not pass: must bid at least 190"
    assert g.apply(BidMade(seat=0, amount=190)).bid == 190


@pytest.mark.parametrize(("jump", "accepted"), [(False, False), (True, True)])
def test_the_forced_opener_begins_with_the_minimum_unless_jumps_are_allowed(
        jump: bool, accepted: bool) -> None:
    """000: "Some players require player to the left of the dealer always to begin with the
    minimum bid" - read by default as exactly 250 (`opener_may_jump=yes`: at least 250)."""
    g = at(f"bison{{all_pass=opener-forced,opener_may_jump={'yes' if jump else 'no'}}} {B3} "
           f": deal")
    if accepted:
        assert g.apply(BidMade(seat=1, amount=300)).high_bid == 300
    else:
        assert refused(g, BidMade(seat=1, amount=300)) == \
            "West cannot bid 300: the opening bid must be the minimum, 250"
    assert g.apply(BidMade(seat=1, amount=250)).high_bid == 250


@pytest.mark.parametrize(("price", "score"), [(299, -299), (300, -300)])
def test_the_forced_price_299_or_300_conceded_unseen(price: int, score: int) -> None:
    """004: "the dealer names trump at a 'price' usually one less than the minimum bid" (299,
    the default) or the notes' "A player forced to take the bid for 300 points may choose to
    concede without viewing the widow. His score is lowered by 300 points, and the opponents
    score nothing" (`dealer_forced_bid=300`)."""
    options = "" if price == 299 else "{dealer_forced_bid=300}"
    g = at(f"classic3{options} {B3} : deal 1:p 2:p")
    assert g.must_bid(0) == price
    g = g.apply(BidMade(seat=0, amount=price)).apply(Conceded(seat=0))
    assert g.result is not None and g.result.outcome == "conceded unseen"
    assert g.scores == (score, 0, 0)


# -- scaled scores keep the rules that read amounts ----------------------------------------

def test_scaled_brooklyn_still_forbids_bids_ending_in_40_or_90() -> None:
    """001: "Bids ending in 40 or 90 such as 340, 390, 440 are not allowed"; 000: "Some divide
    all the scores by 10". Scaled, 34, 39 and 44 stand for 340, 390 and 440."""
    rules = replace(preset("brooklyn"), points=COUNTERS).scaled(10)  # 001's counters variation
    assert rules.min_bid == 30 and rules.trick_total == 25
    for bad in (34, 39, 44):
        assert rules.bid_error(bad, 30) == "no bid may end in 40 or 90"
    assert rules.bid_error(35, 30) is None and rules.bid_error(41, 35) is None
    assert Game.parse(new_game(rules).position()).rules == rules


def test_classical_points_cannot_be_divided_by_ten() -> None:
    """001's classical points (an ace is 11) do not divide by ten: the 250 would not stay
    exact, so scaling them is refused rather than done wrong."""
    with pytest.raises(ValueError, match="the ace is worth 11"):
        preset("brooklyn").scaled(10)


def test_the_scaled_pot_pays_in_the_same_cents() -> None:
    """001 pot: "divide the bid by 10 and round down to the next 5 cents": a bid of 330 (33
    scaled) given up pays 30 cents to each player and to the pot, scaled or not."""
    plain = at(new_game(replace(preset("brooklyn-pot"), points=COUNTERS)).position()
               + " deal 1:330 2:p 0:p kitty=AS.9H.QD 1:concede")
    rules = replace(preset("brooklyn-pot"), points=COUNTERS).scaled(10)
    g = new_game(rules)
    g = Game.parse(g.position() + " deal 1:33 2:p 0:p kitty=AS.9H.QD 1:concede")
    assert g.ledger == plain.ledger == (5, -115, 5) and g.pot == plain.pot == 105


# -- conceding: when, and by agreement -------------------------------------------------------

def test_004_concession_is_decided_before_seeing_the_opponents_meld() -> None:
    """004: "Remember, the decision to concede a hand must be made before seeing the opponents'
    meld."  A concession the text forces ("forced to concede") is taken at any time."""
    base = f"classic3 {B3} : deal 1:300 2:p 0:p kitty=AS.9H.QD 1:trump=S 1:bury=? "
    g = at(base + "1:meld=AS.10S.KS.QS.JS 2:meld=KH.QH")
    assert refused(g, Conceded(seat=1)) == ("the decision to concede is made before seeing "
                                            "the opponents' meld, and East has shown meld")
    before = at(base + "1:meld=AS.10S.KS.QS.JS").apply(Conceded(seat=1))
    assert before.result is not None and before.result.outcome == "conceded"
    forced = at(f"classic3 {B3} : deal 1:400 2:p 0:p kitty=AS.9H.QD 1:trump=S 1:bury=? "
                f"1:meld=KS.QS 2:meld=KH.QH").apply(Conceded(seat=1))
    assert forced.scores == (0, -400, 20)


def test_racehorse_throws_in_a_makeable_hand_only_if_everybody_agrees() -> None:
    """002: "if they miss the bid by 250 or less, then they must play out the hand unless
    everybody agrees to throw it in": meld void, the bid 280 subtracted."""
    g = at(f"racehorse {B4} : deal 1:280 2:p 3:p 0:p 1:trump=S 3:pass1=? 1:meld=KS.QS")
    assert "unless everybody agrees" in refused(g, Conceded(seat=1))
    g = g.apply(Conceded(seat=1, agreed=True))
    assert g.scores == (0, -280, 0, -280)
    assert g.position().endswith("1:concede=agreed")
    assert Game.parse(g.position()) == g


@pytest.mark.parametrize("after_trump", [True, False])
def test_the_pots_voluntary_set_in_spades_pays_double(after_trump: bool) -> None:
    """001 pot: "For a single set (given up without play) the bidder has to pay the same amount
    per player that the bid would have won, plus the kitty"; "Any bid with spades as trumps
    wins or loses double". 330 is worth 30 cents: given up in spades, 60 to each and the pot.
    (`voluntary_set_after_trump=no` keeps Brooklyn's "does not have to name a trump suit" as
    "may not have named one".)"""
    rules = replace(preset("brooklyn-pot"), voluntary_set_after_trump=after_trump)
    g = at(new_game(rules).position() + " deal 1:330 2:p 0:p kitty=AS.9H.QD 1:trump=S")
    if not after_trump:
        assert refused(g, Conceded(seat=1)) == "a voluntary set is taken before naming trump"
        return
    g = g.apply(Conceded(seat=1))
    assert g.result is not None and g.result.outcome == "voluntary set"
    assert g.ledger == (-25 + 60, -25 - 180, -25 + 60) and g.pot == 75 + 60


# -- ending the game --------------------------------------------------------------------------

@pytest.mark.parametrize(("reached", "winner"), [(False, None), (True, 1)])
def test_a_negative_score_must_go_beyond_the_limit(reached: bool, winner: int | None) -> None:
    """000: "if any player's negative score goes beyond some agreed value, for example -1000,
    while at least one player has a positive score, the game ends": at -1000 exactly it has
    not gone beyond (the default; `negative_limit_reached=yes` ends it there)."""
    options = "negative_limit=-1000" + (",negative_limit_reached=yes" if reached else "")
    g = at(f"bison{{{options}}} South,West,East -750,500,0 d2 #3 : deal 0:250 1:p 2:p "
           f"kitty=AS.9H.QD 0:trump=S 0:bury=? 0:concede")
    assert g.scores == (-1000, 500, 0) and g.winner == winner


def test_the_winner_deals_the_first_hand_of_the_next_game() -> None:
    """000: "After the first complete game is finished, the winner is the first dealer of the
    second game." The other texts leave it to the table."""
    g = at("bison South,West,East 1450,0,1460 d0 #5 : deal 1:250 2:p 0:p kitty=AS.9H.JC "
           "1:trump=S 1:bury=? 1:meld=KS.QS 2:meld=KH.QH.KC.QC 0:meld=QS.QH.QC.QD.JD "
           "1:concede")
    assert g.winner == 0 and next_game_dealer(g) == 0
    g2 = at(g.position().replace("bison ", "bison{winner_deals_next=no} ", 1))
    assert g2.winner == 0 and next_game_dealer(g2) is None
    assert next_game_dealer(at(f"bison {B3} :")) is None  # no winner yet


# -- two-handed: drawing from the stock, and the discard piles ---------------------------------

def test_two_handed_draws_are_refereed_turn_by_turn() -> None:
    """004: "One player begins the hand-building process by drawing the top card of the stock.
    The player now has two choices: 1) either keep that card ... or 2) reject that card ...
    Players alternate turns ... At that time, each player will hold 12 cards in hand, and
    have 12 cards in discard": 24 turns, alternating from the dealer's left."""
    g = at("two-hand South,North 0,0 d0 #0 : deal")
    assert g.phase is Phase.DRAW and g.turn == 1
    assert refused(g, StockDrawn(seat=0, kept_first=True)) == \
        "it is North's turn to draw, not South's"
    assert refused(g, BidMade(seat=1, amount=150)) == "there is no auction now (draw)"
    for i in range(24):
        assert g.phase is Phase.DRAW
        g = g.apply(StockDrawn(seat=g.turn or 0, kept_first=i % 3 == 0))
    assert g.phase is Phase.AUCTION and g.turn == 1
    assert refused(g, StockDrawn(seat=1, kept_first=True)).startswith("no card can be drawn")
    assert Game.parse(g.position()) == g and " 1:keep 0:reject " in g.position()


def test_a_card_drawn_more_often_than_the_deck_has_it_is_refused() -> None:
    g = at("two-hand South,North 0,0 d0 #0 : deal 1:keep=AS.? 0:keep=AS.? 1:reject=?.9H")
    assert refused(g, StockDrawn(seat=0, kept_first=True, kept=Card.parse("AS"))) == (
        "the ace of spades has now been drawn 3 times, and the deck has 2: was it misread?")


def test_known_draws_must_be_the_cards_dealt_and_stay_private() -> None:
    rules = preset("two-hand")
    events = [e for e, _, _ in sim_hands(rules, seed=4, hands=1)]
    deal = events[0]
    assert isinstance(deal, HandDealt) and deal.hands is not None
    g = new_game(rules).apply(deal)
    first = events[1]
    assert isinstance(first, StockDrawn) and first.kept is not None
    wrong = next(c for c in rules.deck() if c not in deal.hands[first.seat])
    assert refused(g, replace(first, kept=wrong)) == \
        f"North was not dealt the {wrong.name} to keep"
    g = g.apply(first)
    assert "keep=" not in position_text(g, public=True)
    assert Game.parse(g.position()) == g


def test_two_handed_discard_piles_are_checked_against_the_deck() -> None:
    """004: "each player will hold 12 cards in hand, and have 12 cards in discard" from one
    48-card deck: a pile with a third ace of spades is refused, hidden hands or known."""
    g = at("two-hand{draw_events=no} South,North 0,0 d0 #0 : deal "
           "0:bury=AS.AS.9H.9H.9C.9C.9D.9D.JS.JS.JH.JH")
    pile = cards("AS 10S 10S KS KS QS QS 9S 9S JC JC JD")
    assert refused(g, Buried(seat=1, cards=pile)) == ("the ace of spades has now been seen 3 "
                                                      "times, and the deck has 2: was it "
                                                      "misread?")
    rules = preset("two-hand")
    for e, before, _ in sim_hands(rules, seed=2, hands=1):
        if isinstance(e, Buried):
            assert e.cards is not None
            swapped = (*e.cards[1:], next(c for c in rules.deck() if c not in e.cards))
            assert "discarded" in refused(before, Buried(seat=e.seat, cards=swapped))
            return
    raise AssertionError("no discard pile was shown")


# -- 003: not burying ------------------------------------------------------------------------

def _family_hand_hidden(seed: int = 5) -> Game:
    """A family hand on a hidden table, played out: the buried cards were never seen."""
    rules = preset("family")
    for _, before, g in sim_hands(rules, seed, hands=1, known=False):
        if g.result is not None and before.result is None and len(g.tricks) == 15:
            return g
    raise AssertionError("the hand was not played out")


def test_family_a_declarer_found_at_the_end_not_to_have_buried_forfeits_the_hand() -> None:
    """003: the penalty for not burying ranges "to forfeiture of the hand (resulting in 'going
    up' and - for standard scoring - each opponent receiving 12 points for trick play.)" On a
    hidden table it shows when the buried pile is turned up to be counted: none at all. The
    bid is subtracted; each opponent scores his meld and 12."""
    g = _family_hand_hidden()
    d = g.declarer
    assert d is not None and g.bid is not None and g.start is not None
    g = g.apply(Buried(seat=d, cards=()))
    res = g.result
    assert res is not None and res.outcome == "forfeit"
    for s in range(3):
        meld = g.melds[s]
        want = -g.bid if s == d else (meld.total if meld is not None else 0) + 12
        assert res.score_change[s] == want
        assert g.scores[s] == g.start.scores[s] + want
    assert g.position().endswith(f"{d}:bury=-") and Game.parse(g.position()) == g


def test_family_a_buried_pile_turned_up_must_be_the_cards_never_played() -> None:
    """003: "At the end of play, any pointers buried count towards the declarer's points"."""
    g = _family_hand_hidden()
    d = g.declarer
    assert d is not None
    played = [c for t in g.tricks for _, c in t]
    left = list(preset("family").deck())
    for c in played:
        left.remove(c)
    wrong = (*left[1:], next(c for c in left if c != left[0]))
    assert refused(g, Buried(seat=d, cards=tuple(wrong))).startswith("the buried pile is")
    shown = g.apply(Buried(seat=d, cards=tuple(left)))
    assert shown.scores == g.scores and shown.buried == tuple(left)


# -- claims ----------------------------------------------------------------------------------

POT = (new_game(preset("brooklyn-pot")).position()
       + " deal 1:250 2:p 0:p kitty=KS.9C.QD 1:trump=H 1:bury=?")


def test_the_pot_bidder_claims_once_he_has_enough() -> None:
    """001 pot: "Once the bidder has enough points to win, or acknowledges defeat, the play
    stops". West's run and 100 aces in hearts (250) make the 250 bid: he wins 25 cents from
    each opponent."""
    g = at(POT + " 1:meld=AH.10H.KH.QH.JH.AS.AC.AD 1:AH 2:9H 0:9H")
    g = g.apply(Claimed(seat=1))
    assert g.result is not None and g.result.outcome == "made"
    assert g.ledger == (-25 - 25, -25 + 50, -25 - 25)
    assert Game.parse(g.position()) == g and g.position().endswith("1:claim")


def test_a_claim_that_is_not_sure_is_refused_with_the_reason() -> None:
    g = at(POT + " 1:meld=AH.10H.KH.QH.JH 1:AH 2:9H 0:9H")
    assert refused(g, Claimed(seat=1)) == ("West cannot claim yet: meld 150 and 11 in tricks "
                                           "make 161, short of the bid 250")
    assert refused(g, Claimed(seat=2)) == ("East cannot claim yet: West can still make 250 "
                                           "(meld 150 and up to 250 in tricks)")
    assert refused(g, Claimed(seat=0, lost=True)) == \
        "only West's side can acknowledge defeat; South claims instead"


def test_the_pot_bidder_acknowledging_defeat_is_a_double_set() -> None:
    """001 pot: "a double set (played and lost) costs double": 25 cents x 2 to each player and
    the pot."""
    g = at(POT + " 1:meld=KH.QH 1:AH 2:9H 0:9H").apply(Claimed(seat=1, lost=True))
    assert g.result is not None and g.result.outcome == "set"
    assert g.ledger == (-25 + 50, -25 - 150, -25 + 50) and g.pot == 75 + 50


def test_the_opponents_claim_once_the_bid_is_out_of_reach() -> None:
    g = at(new_game(preset("brooklyn-pot")).position() + " deal 1:400 2:p 0:p "
           "kitty=KS.9C.QD 1:trump=H 1:bury=? 1:meld=KH.QH 1:9H 2:AH 0:9H")
    # West can have at most 40 + 250 - 11 = 279 < 400
    g = g.apply(Claimed(seat=2))
    assert g.result is not None and g.result.outcome == "set"


@pytest.mark.parametrize("name", ["bison", "racehorse", "classic3", "two-hand", "family"])
def test_a_claim_of_the_last_trick_scores_as_playing_it(name: str) -> None:
    """With one trick left every card is forced: a claim by a seat of the side that wins it is
    accepted and scores exactly as playing it out; a claim by the other side is refused."""
    rules = preset(name)
    checked = 0
    for seed in range(30):
        events = [e for e, _, _ in sim_hands(rules, seed, hands=1)]
        g = new_game(rules)
        i = 0
        for i, e in enumerate(events):  # noqa: B007 - the events after it are played below
            if g.phase is Phase.PLAY and len(g.tricks) == rules.hand_size - 1 and \
                    g.trick_full and g.result is None:
                break
            g = g.apply(e)
        else:
            continue
        played = g
        for e in events[i:]:
            if played.result is not None:
                break
            played = played.apply(e)
        if rules.draw_from_stock:  # the piles are shown before a claim
            for s in g.active:
                pile = next(e for e in events if isinstance(e, Buried) and e.seat == s)
                g = g.apply(pile)
        last = played.tricks[-1]
        winner = next(s for s, c in last if c == max(
            (c for _, c in last), key=lambda c: (c.suit is played.trump,
                                                 c.suit is last[0][1].suit, c.rank)))
        losers = [s for s in g.active if g.side(s) != g.side(winner)]
        assert "cannot claim the rest" in refused(g, Claimed(seat=losers[0]))
        claimed = g.apply(Claimed(seat=winner))
        assert claimed.result is not None and played.result is not None
        assert claimed.scores == played.scores, (name, seed)
        checked += 1
        if checked == 3:
            return
    raise AssertionError(f"{name}: no hand reached its last trick")


def test_on_a_hidden_table_the_others_cannot_claim_unseen_buried_cards() -> None:
    g = at(f"bison {B3} : deal 1:250 2:p 0:p kitty=AS.9H.QD 1:trump=S 1:bury=? 1:meld=KS.QS "
           f"1:AS 2:9S 0:JS")
    assert refused(g, Claimed(seat=2)) == ("the buried cards lie face down: turn them up "
                                           "(correct the bury) before the others claim the "
                                           "rest")
    g = g.apply(Claimed(seat=1))  # the declarer's own: accepted on the table's word
    assert g.result is not None and g.result.tricks[1] == 250  # West took the first trick too


def test_a_claim_waits_for_the_trick_on_the_table() -> None:
    g = at(POT + " 1:meld=AH.10H.KH.QH.JH.AS.AC.AD 1:AH 2:9H")
    assert refused(g, Claimed(seat=1)) == "finish the trick on the table before claiming"


def _sure(hands: dict[int, list[Card]], order: list[int], leader: int, ours: set[int],
          trump: Suit | None, rules: Rules, trick: list[tuple[int, Card]]) -> bool:
    """Written apart from claims.py: every line of play, the claiming side choosing its cards
    and the others every legal card; the claim holds if each trick is won by the side."""
    if len(trick) == len(order):
        best = 0
        for i, (_, c) in enumerate(trick):  # highest trump, else highest of the suit led
            top = trick[best][1]
            if (c.suit is top.suit and c.rank > top.rank) or (
                    c.suit is trump and top.suit is not trump):
                best = i
        win = trick[best][0]
        if win not in ours:
            return False
        if not any(hands[s] for s in order):
            return True
        return _sure(hands, order, win, ours, trump, rules, [])
    seat = order[(order.index(leader) + len(trick)) % len(order)]
    options = []
    for card in legal_plays(hands[seat], [c for _, c in trick], trump, rules):
        rest = dict(hands)
        rest[seat] = list(hands[seat])
        rest[seat].remove(card)
        options.append(_sure(rest, order, leader, ours, trump, rules, [*trick, (seat, card)]))
    return any(options) if seat in ours else all(options)


@pytest.mark.parametrize("name", ["bison", "racehorse", "classic3"])
def test_claims_with_tricks_left_are_accepted_exactly_when_sure(name: str) -> None:
    """With two or three tricks left and the hands known, each seat's claim is accepted
    exactly when its side wins every trick left however the others play."""
    rules = preset(name)
    seen = {True: 0, False: 0}
    for seed in range(12):
        for left in (2, 3):
            g = new_game(rules)
            for _, _, after in sim_hands(rules, seed, hands=1):
                g = after
                if after.phase is Phase.PLAY and after.trick_full and \
                        len(after.tricks) == rules.hand_size - left:
                    break
            else:
                continue
            assert g.hands is not None and g.turn is not None
            hands = {s: list(g.hands[s]) for s in g.active}
            for seat in g.active:
                ours = {s for s in g.active if g.side(s) == g.side(seat)}
                want = _sure(hands, list(g.active), g.turn, ours, g.trump, rules, [])
                try:
                    g.apply(Claimed(seat=seat))
                    got = True
                except IllegalAction as exc:
                    assert "cannot claim the rest" in exc.reason
                    got = False
                assert got == want, (seat, g.position())
                seen[want] += 1
    assert seen[True] and seen[False], seen


def test_the_concession_query_answers_as_the_concession_is_judged() -> None:
    """`concede_refusal` gives the reason a concession would be refused, before it is tried."""
    base = f"classic3 {B3} : deal 1:300 2:p 0:p kitty=AS.9H.QD 1:trump=S 1:bury=? "
    open_ = at(base + "1:meld=AS.10S.KS.QS.JS")
    assert open_.concede_refusal(1) is None
    assert open_.concede_refusal(2) == "only West's side may concede"
    shut = at(base + "1:meld=AS.10S.KS.QS.JS 2:meld=KH.QH")
    assert shut.concede_refusal(1) == refused(shut, Conceded(seat=1))


def test_a_hidden_hand_holding_meld_must_open_as_a_known_one() -> None:
    """004: "a player holding meld (other than nines) must open"; with the hands unseen the
    game asks for the cards held."""
    g = at(f"classic3 {B3} : deal")
    assert g.must_bid(1) is None and g.must_bid(1, parse_cards("KH QH 9S")) == 300
    assert g.must_bid(1, parse_cards("KH QS 9S")) is None
