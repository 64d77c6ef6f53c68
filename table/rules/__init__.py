"""The pure rules core: cards, variants, meld, tricks, the auction and the game.

Nothing here does I/O, reads a clock, starts a thread or uses global randomness
(pass a `random.Random`). tests/test_purity.py enforces it.
"""

from .cards import (
    ALL_CARDS,
    ALL_SUITS,
    Card,
    CardParseError,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    pinochle_deck,
)
from .events import (
    EVENT_TYPES,
    BidMade,
    Buried,
    CardPlayed,
    CardsPassed,
    Conceded,
    Corrected,
    Event,
    EventFormatError,
    HandDealt,
    KittyShown,
    MeldShown,
    Passed,
    PushedToDealer,
    ThrownIn,
    TrickGathered,
    TrumpNamed,
    Undone,
    event_from_dict,
)
from .variants import (
    CLASSICAL,
    COUNTERS,
    COUNTERS_TENTHS,
    PRESET_NAMES,
    PRESETS,
    SIMPLIFIED,
    AllPass,
    Beat,
    CardPoints,
    Checks,
    MeldSaving,
    MeldValues,
    NineThrowIn,
    Rules,
    Scoring,
    SitOut,
    StakeRow,
    TieBreak,
    UnknownPresetError,
    WhoMelds,
    preset,
)

__all__ = [
    "ALL_CARDS", "ALL_SUITS", "CLASSICAL", "COUNTERS", "COUNTERS_TENTHS", "EVENT_TYPES",
    "PRESETS", "PRESET_NAMES", "SIMPLIFIED", "AllPass", "Beat", "BidMade", "Buried", "Card",
    "CardParseError", "CardPlayed", "CardPoints", "CardsPassed", "Checks", "Conceded",
    "Corrected", "Event", "EventFormatError", "HandDealt", "KittyShown", "MeldSaving",
    "MeldShown", "MeldValues", "NineThrowIn", "Passed", "PushedToDealer", "Rank", "Rules",
    "Scoring", "SitOut", "StakeRow", "Suit", "ThrownIn", "TieBreak", "TrickGathered",
    "TrumpNamed", "Undone", "UnknownPresetError", "WhoMelds", "event_from_dict",
    "format_cards", "parse_cards", "pinochle_deck", "preset",
]
