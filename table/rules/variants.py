"""One frozen `Rules` value per variant (../shared/rules/VARIANTS.md), presets by name.

Every variation a rule text lists is a field: switch it with `dataclasses.replace`, e.g.
`replace(preset("bison"), min_bid=300, beat=Beat.TRUMP_LED)`. All numbers are in the units the
players write down (the family game's are already divided by ten; `Rules.scaled(10)` divides any
other preset the same way).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields, replace

from .cards import Card, pinochle_deck


class UnknownPresetError(ValueError):
    """A preset name that is not one of `PRESET_NAMES`."""


@dataclass(frozen=True)
class CardPoints:
    """What each rank is worth in tricks, and the last trick."""

    ace: int
    ten: int
    king: int
    queen: int
    jack: int
    nine: int
    last_trick: int
    name: str = field(default="", compare=False)  # the values are the scheme

    def by_rank(self) -> tuple[int, int, int, int, int, int]:
        """Points indexed by `Rank` (9 J Q K 10 A)."""
        return (self.nine, self.jack, self.queen, self.king, self.ten, self.ace)

    def scaled(self, divisor: int) -> CardPoints:
        """Every value divided by `divisor`; `ValueError` if one does not divide (the 250 of a
        hand must stay exact: classical points cannot be divided by ten)."""
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "name"}
        uneven = [k for k, v in values.items() if v % divisor]
        if uneven:
            raise ValueError(f"{self.name or 'these'} card points cannot be divided by "
                             f"{divisor}: the {uneven[0].replace('_', ' ')} is worth "
                             f"{values[uneven[0]]}")
        return replace(self, name=f"{self.name}/{divisor}",
                       **{k: v // divisor for k, v in values.items()})


# The card-point schemes of VARIANTS.md section 2 (each makes 250 with the last trick).
COUNTERS = CardPoints(10, 10, 10, 0, 0, 0, 10, "counters")          # 000, 002, 004 "streamlined"
CLASSICAL = CardPoints(11, 10, 4, 3, 2, 0, 10, "classical")         # 001, 004 method 2
SIMPLIFIED = CardPoints(10, 10, 5, 5, 0, 0, 10, "simplified")       # 004 method 1
COUNTERS_TENTHS = CardPoints(1, 1, 1, 0, 0, 0, 1, "counters/10")    # 003


@dataclass(frozen=True)
class MeldValues:
    """Points for each meld. A `double_*` of None means a double scores as two singles."""

    run: int = 150
    royal_marriage: int = 40
    marriage: int = 20
    dix: int = 10
    pinochle: int = 40
    aces: int = 100
    kings: int = 80
    queens: int = 60
    jacks: int = 40
    double_run: int | None = 1500
    double_pinochle: int | None = 300
    double_aces: int | None = 1000
    double_kings: int | None = 800
    double_queens: int | None = 600
    double_jacks: int | None = 400
    # St Joseph option (000): two royal marriages 240, and with a run (sharing one K-Q) 390.
    double_royal_marriage: int | None = None
    double_royal_with_run: int | None = None
    # Roundhouse option (000, 001): a K and Q of every suit as one meld; beside a run that shares
    # the trump K-Q the pair is worth `roundhouse_with_run` (390 counts the royal marriage twice,
    # 350 does not: the texts disagree, the table chooses).
    roundhouse: int | None = None
    roundhouse_with_run: int = 350
    dix_own_class: bool = False  # racehorse (002) shows the nine of trump in its own category

    def without_double_bonuses(self) -> MeldValues:
        return replace(self, double_run=None, double_pinochle=None, double_aces=None,
                       double_kings=None, double_queens=None, double_jacks=None,
                       double_royal_marriage=None, double_royal_with_run=None)

    def scaled(self, divisor: int) -> MeldValues:
        changes: dict[str, int | None] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, int) and not isinstance(v, bool):
                changes[f.name] = v // divisor
        return replace(self, **changes)  # type: ignore[arg-type]


FULL_MELD = MeldValues()                                   # 000 and 002 singles and doubles
NO_DOUBLE_BONUS_MELD = FULL_MELD.without_double_bonuses()  # 001: eight kings are 160
# 004: double pinochle 300 and double arounds 10x; it names no double run, so two runs are 300.
GENERAL_MELD = replace(FULL_MELD, double_run=None)
FAMILY_MELD = NO_DOUBLE_BONUS_MELD.scaled(10)  # 003 lists no double melds: doubles are two singles


class Beat(enum.Enum):
    """When a player must beat the card(s) already played (VARIANTS.md section 6)."""

    ALWAYS = "always"            # 000 older rule: head the trick whenever you can
    TRUMP_LED = "trump-led"      # 000 newer rule, 001, 003: beat the highest trump if trump led
    TRUMP_LED_OVERRUFF = "trump-led-overruff"  # 004: as trump-led, and overruff an earlier ruff
    WIN = "win"                  # 002: take the trick if you can; trump only to win


class AllPass(enum.Enum):
    """What happens when nobody bids."""

    THROW_IN = "throw-in"            # the hand is thrown in and the next dealer deals
    DEALER_FORCED = "dealer-forced"  # the dealer must take it at `dealer_forced_bid`
    OPENER_FORCED = "opener-forced"  # dealer's left must open at the minimum (000 variation)


class WhoMelds(enum.Enum):
    ALL = "all"
    DECLARER = "declarer"


class MeldSaving(enum.Enum):
    """What a non-declaring player (or side) must take in tricks for its meld to count."""

    COUNTER = "counter"                  # 000: at least one counter
    COUNTER_OR_LAST = "counter-or-last"  # 002: a counter or the last trick
    POINT = "point"                      # 003: at least one trick point
    TRICK = "trick"                      # 004: at least one trick
    NONE = "none"                        # meld always counts


class Scoring(enum.Enum):
    POINTS = "points"        # a running score to a target
    STAKES = "stakes"        # 001: settled in stakes per hand by the bid
    POT = "pot"              # 001 pot version
    ALTERNATE = "alternate"  # 003 alternate: made +2, set -1 and each opponent +1
    CHECKS = "checks"        # 004 check pinochle: points, and checks settled in money


class TieBreak(enum.Enum):
    """Several players reach the target in one hand."""

    BIDDER_OUT = "bidder-out"      # the bidder (side) wins; else higher score; tied: another hand
    ANOTHER_HAND = "another-hand"  # 004 method 1: the higher score; tied, play another hand
    OVERTIME = "overtime"          # 004 method 2: the target rises by `overtime_step`


class SitOut(enum.Enum):
    """With one seat more than players dealt in (001): who sits out each hand."""

    DEALER_RIGHT = "dealer-right"
    DEALER = "dealer"


class NineThrowIn(enum.Enum):
    """The nine-count throw-ins of 000's variations: any one named lets a hand be redealt."""

    FIVE_NO_MELD = "5-nines-no-meld"     # five nines and no meld but dix
    SIX_NO_MELD = "6-nines-no-meld"
    SEVEN_ANY = "7-nines"
    FIVE_NO_ACES = "5-nines-no-aces"
    SIX_ONE_ACE = "6-nines-one-ace"      # six nines with at most one ace


@dataclass(frozen=True)
class StakeRow:
    """Bids from `min_bid` up pay `win` if made and `set` if set (units of the stake)."""

    min_bid: int
    win: int
    set: int


BROOKLYN_STAKES = (
    StakeRow(250, 1, 2), StakeRow(350, 2, 4), StakeRow(400, 4, 8),
    StakeRow(450, 8, 16), StakeRow(500, 16, 32), StakeRow(550, 32, 64),
)


@dataclass(frozen=True)
class Checks:
    """Check pinochle (004): checks per event; 0 switches an optional one off."""

    run: int = 1
    aces_around: int = 1
    roundtable: int = 2
    looked_and_lost: int = -1
    played_and_lost: int = 0       # optional: a further -1
    double_marriage: int = 0       # optional +1
    double_pinochle: int = 0       # optional +1
    double_around: int = 0         # optional +2
    seven_nines: int = 0           # optional +5 or +10
    game: int = 5                  # +5 or +10


@dataclass(frozen=True)
class Rules:
    """Every parameter of a pinochle variant. Seats are numbered clockwise."""

    name: str
    description: str = ""
    source: str = ""  # the rule text in ../shared/rules it comes from

    # cards and deal
    players: int = 3                   # players dealt in
    seats_at_table: int = 0            # 001: a fourth may sit out; 0 = the players dealt in
    sit_out: SitOut = SitOut.DEALER_RIGHT
    partnerships: bool = False         # 4 players, partners opposite
    copies: int = 2                    # copies of each face: 2, or 4 for the double deck
    nines: bool = True
    hand_size: int = 15
    kitty_size: int = 3
    bury: int = 3                      # cards the declarer buries after taking the kitty
    pass_cards: int = 0                # cards passed each way between partners (002)
    draw_from_stock: bool = False      # two-hand: hands are built from the stock
    draw_events: bool = True           # two-hand: each keep/reject from the stock is entered
    nine_throw_ins: frozenset[NineThrowIn] = frozenset()
    throw_in_by_agreement: bool = False

    # card points
    points: CardPoints = COUNTERS

    # bidding
    min_bid: int = 250
    bid_step: int = 10
    forbidden_endings: tuple[int, ...] = ()   # bid % 100 values not allowed (001: 40 and 90)
    all_pass: AllPass = AllPass.THROW_IN
    dealer_forced_bid: int = 0          # 0 = the minimum bid
    dealer_forced_needs_meld: bool = False  # 004 option: the dealer must bid only if he has meld
    opener_may_jump: bool = False       # opener-forced (000): "begin with the minimum bid" exactly
    must_open_with_meld: bool = False   # 004: a player holding meld (other than nines) must open
    single_round: bool = False          # 003: one round of bidding
    kitty_reveal_auction: bool = False  # 003 option: a kitty card is shown after each round
    push_to_dealer: int = 0             # 001: a 300 opening passed out may be pushed to the dealer
    push_from_bid: int = 300

    # kitty, trump, meld
    who_melds: WhoMelds = WhoMelds.ALL
    meld: MeldValues = FULL_MELD
    double_bonuses: bool = True         # 000 variation: False scores every double as two singles
    meld_before_bury: bool = False      # 003: the declarer may meld first and bury from the rest
    meld_saving: MeldSaving = MeldSaving.COUNTER
    declarer_saves_meld: bool = True    # the declaring side must save its meld too (not 002)

    # play
    first_lead_trump: bool = False
    beat: Beat = Beat.ALWAYS

    # conceding
    concede_after_meld: bool = True     # 000: after the melds the bidder may give up
    voluntary_set: bool = False         # 001: after seeing the kitty, before the first lead
    voluntary_set_after_trump: bool = True  # 001 pot: "given up" in spades still doubles
    concede_names_trump: bool = False   # 004: conceding still names trump; others score meld
    concede_margin: int = 0             # 002: may throw in if meld is more than this below bid
    forced_concede_margin: int = 0      # 004: must concede if bid > meld + this (0 = off)
    concede_unseen: bool = False        # 004: a forced bidder may concede without the widow
    concede_before_opponents_meld: bool = False  # 004: decide before seeing the others' meld
    unburied_forfeit: int = 0           # 003: not buried, found at the hand's end: set, and
    #                                     each opponent scores this many trick points (0 = off)

    # scoring
    scoring: Scoring = Scoring.POINTS
    stakes: tuple[StakeRow, ...] = BROOKLYN_STAKES
    spades_double: bool = True
    hearts_triple: bool = False
    pot_ante: int = 0                   # pot version: each antes this (in stake units)
    pot_min_bid: int = 400              # a made bid of at least this takes the pot
    game_stake: int = 0                 # 000 money option: paid by each opponent to the winner
    set_stake: int = 0                  # 000 money option: per set (two for a double set)
    checks: Checks = field(default_factory=Checks)
    alternate_made: int = 2
    alternate_set: int = -1
    alternate_opponent: int = 1

    # ending the game
    target: int = 1500
    deals: int = 0                      # play a fixed number of deals instead (0 = off)
    negative_limit: int = 0             # e.g. -1000 ends the game if someone is positive (0 = off)
    negative_limit_reached: bool = False  # no: the score must go "beyond" (below) the limit
    winner_deals_next: bool = False     # 000: the winner deals the first hand of the next game
    tie_break: TieBreak = TieBreak.BIDDER_OUT
    overtime_step: int = 250
    # 1: a hand's result is final only when a player of the other side agrees (as at a Bridgemate)
    agree_hands: int = 0

    # every amount above is divided by this (000: "some divide all the scores by 10"); bid
    # endings and the pot's money are read in the undivided amounts. Set by `scaled`.
    scale: int = 1

    # -- derived values -------------------------------------------------------------------

    @property
    def table_seats(self) -> int:
        return self.seats_at_table or self.players

    @property
    def deck_size(self) -> int:
        return self.copies * 4 * (6 if self.nines else 5)

    @property
    def trick_total(self) -> int:
        """All card points in a hand, last trick included."""
        per_copy = sum(self.points.by_rank()[0 if self.nines else 1:])
        return per_copy * 4 * self.copies + self.points.last_trick

    @property
    def melds_all(self) -> bool:
        return self.who_melds is WhoMelds.ALL

    @property
    def forced_bid(self) -> int:
        return self.dealer_forced_bid or self.min_bid

    def deck(self) -> list[Card]:
        """The deck, in a fixed order (shuffle it with a seeded `random.Random`)."""
        return pinochle_deck(self.copies, self.nines)

    def bid_error(self, amount: int, high: int | None) -> str | None:
        """Why `amount` is not a legal bid over the current `high` bid (None: it is legal)."""
        if amount < self.min_bid:
            return f"the minimum bid is {self.min_bid}"
        if high is not None and amount <= high:
            return f"a bid must be higher than {high}"
        if (amount - self.min_bid) % self.bid_step:
            return f"bids go up in steps of {self.bid_step}"
        if amount * self.scale % 100 in self.forbidden_endings:
            endings = " or ".join(str(e) for e in self.forbidden_endings)
            return f"no bid may end in {endings}"
        return None

    def next_bid(self, high: int | None, above: int | None = None) -> int:
        """The lowest legal bid over `high` (and over `above`, to step a raise further)."""
        amount = self.min_bid if high is None else high + self.bid_step
        amount = max(amount, self.min_bid)
        if above is not None:
            amount = max(amount, above + self.bid_step)
        while self.bid_error(amount, high) is not None:
            amount += self.bid_step
        return amount

    def stake_row(self, bid: int) -> StakeRow:
        """The stakes row for a bid (the lowest row for a bid below the table)."""
        row = self.stakes[0]
        for r in self.stakes:
            if bid >= r.min_bid:
                row = r
        return row

    def scaled(self, divisor: int) -> Rules:
        """Every score divided by `divisor` (000: "some divide all the scores by 10"). Rules
        that read an amount as written (bid endings, the pot's cents) read it times `scale`."""
        if divisor < 1:
            raise ValueError(f"scores are divided by a whole number from 1, not {divisor}")

        def d(v: int) -> int:
            return v // divisor
        return replace(
            self, scale=self.scale * divisor, unburied_forfeit=d(self.unburied_forfeit),
            points=self.points.scaled(divisor), meld=self.meld.scaled(divisor),
            min_bid=d(self.min_bid), bid_step=max(1, d(self.bid_step)),
            dealer_forced_bid=d(self.dealer_forced_bid), push_to_dealer=d(self.push_to_dealer),
            push_from_bid=d(self.push_from_bid), concede_margin=d(self.concede_margin),
            forced_concede_margin=d(self.forced_concede_margin), pot_min_bid=d(self.pot_min_bid),
            target=d(self.target), negative_limit=d(self.negative_limit),
            overtime_step=d(self.overtime_step),
            stakes=tuple(replace(r, min_bid=d(r.min_bid)) for r in self.stakes),
        )


def _presets() -> dict[str, Rules]:
    bison = Rules(
        name="bison", source="000_4a0caaf70a615e09.txt", winner_deals_next=True,
        description="Three-player auction as played in Bison, South Dakota: everyone melds, "
                    "double melds pay extra, game to 1500.",
    )
    brooklyn = Rules(
        name="brooklyn", source="001_7d1bfbefdb2935db.txt",
        description="Brooklyn auction: only the declarer melds, classical card points, "
                    "settled in stakes per hand; a fourth player may sit out.",
        points=CLASSICAL, min_bid=300, forbidden_endings=(40, 90), push_to_dealer=250,
        who_melds=WhoMelds.DECLARER, meld=NO_DOUBLE_BONUS_MELD, meld_saving=MeldSaving.NONE,
        beat=Beat.TRUMP_LED, concede_after_meld=False, voluntary_set=True,
        scoring=Scoring.STAKES, target=0,
    )
    brooklyn_pot = replace(
        brooklyn, name="brooklyn-pot",
        description="Auction pinochle with a pot (001): minimum 250, the dealer must bid if the "
                    "first two pass, sets pay the pot, a made 400 takes it.",
        min_bid=250, forbidden_endings=(), push_to_dealer=0, all_pass=AllPass.DEALER_FORCED,
        scoring=Scoring.POT, pot_ante=25, pot_min_bid=400,  # money in cents, as 001 counts
    )
    racehorse = Rules(
        name="racehorse", source="002_8c758d5a15c0b8ad.txt",
        description="Four-player partnership racehorse: partners pass three cards each way, "
                    "must take the trick if you can, game to 1500.",
        players=4, partnerships=True, hand_size=12, kitty_size=0, bury=0, pass_cards=3,
        all_pass=AllPass.DEALER_FORCED, meld=replace(FULL_MELD, dix_own_class=True),
        meld_saving=MeldSaving.COUNTER_OR_LAST, declarer_saves_meld=False, beat=Beat.WIN,
        concede_after_meld=False, concede_margin=250,
    )
    family = Rules(
        name="family", source="003_1722af295058f19b.txt",
        description="A family's three-handed game scaled down by ten: one round of bidding "
                    "from 20, first lead trump, game to 120.",
        points=COUNTERS_TENTHS, min_bid=20, bid_step=1, all_pass=AllPass.DEALER_FORCED,
        single_round=True, meld=FAMILY_MELD, meld_before_bury=True,
        meld_saving=MeldSaving.POINT, first_lead_trump=True, beat=Beat.TRUMP_LED,
        concede_after_meld=False, target=120, unburied_forfeit=12, scale=10,
    )
    family_alternate = replace(
        family, name="family-alternate",
        description="The family game's alternate scoring: made +2, set -1 and each opponent "
                    "+1, only the declarer melds, game to 15.",
        who_melds=WhoMelds.DECLARER, scoring=Scoring.ALTERNATE, concede_after_meld=True,
        target=15,
    )
    classic3 = Rules(
        name="classic3", source="004_04ff5920939269dd.txt",
        description="The general three-handed game to 1000: minimum 300, obligatory opening "
                    "with meld, first lead trump, overruff.",
        min_bid=300, must_open_with_meld=True, all_pass=AllPass.DEALER_FORCED,
        dealer_forced_bid=299,  # 004: "the dealer names trump at a price usually one less"
        meld=GENERAL_MELD, meld_saving=MeldSaving.TRICK, first_lead_trump=True,
        beat=Beat.TRUMP_LED_OVERRUFF, concede_after_meld=False, concede_names_trump=True,
        forced_concede_margin=250, concede_unseen=True, concede_before_opponents_meld=True,
        target=1000,
        tie_break=TieBreak.BIDDER_OUT,
    )
    partnership4 = replace(
        classic3, name="partnership4",
        description="The general four-handed partnership game to 1000: opening bid 150, "
                    "twelve cards each, no widow.",
        players=4, partnerships=True, hand_size=12, kitty_size=0, bury=0, min_bid=150,
        dealer_forced_bid=149, concede_names_trump=False, forced_concede_margin=0,
        concede_unseen=False, concede_before_opponents_meld=False,
    )
    two_hand = replace(
        classic3, name="two-hand",
        description="Two-handed (004): hands built by drawing from the stock, twelve kept and "
                    "twelve discarded, discards count for their owner, game to 1000.",
        players=2, hand_size=12, kitty_size=0, bury=0, draw_from_stock=True,
        must_open_with_meld=False, min_bid=150, dealer_forced_bid=149,
        concede_names_trump=False, forced_concede_margin=0, concede_unseen=False,
        concede_before_opponents_meld=False,
    )
    check = replace(
        classic3, name="check",
        description="Three-player check pinochle (004): the game to 1000 plus checks for "
                    "runs, aces, roundtables, losses and the game.",
        scoring=Scoring.CHECKS,
    )
    double_deck = replace(
        partnership4, name="double-deck",
        description="Double-deck partnership (004): 80 cards without nines, 20 each, "
                    "minimum bid 500.",
        copies=4, nines=False, hand_size=20, min_bid=500, dealer_forced_bid=499,
    )
    return {r.name: r for r in (bison, brooklyn, brooklyn_pot, racehorse, family,
                                family_alternate, classic3, partnership4, two_hand, check,
                                double_deck)}


PRESETS: dict[str, Rules] = _presets()
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)


def preset(name: str) -> Rules:
    """The `Rules` of a named variant; raises `UnknownPresetError` listing the known names."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise UnknownPresetError(
            f"unknown variant {name!r}; known: {', '.join(PRESET_NAMES)}"
        ) from None
