"""Simulated players at a real table: they act only through the table's own inputs.

The seeded `SimTable` (table.rules) decides what each seat does and keeps the true cards; these
modules carry it out the way people would, through the same table a real game uses:

- `players`: the game loop: each move done at the table and waited for until the session takes
  it, and what really happened (`true_events`, with the hands).
- `fingers`: bids, passes, trump and concessions pressed on the seat buttons (mock GPIO pins,
  the simulated serial board) or, with neither, said on the page.
- `camera`: the rendered mat photographed frame by frame into the real vision tracker, paced
  like a real camera and a real player.
- `answers`: the session's outcomes and alerts, matched to the move that was made.
- `mistakes`: a few deliberate mistakes per run that the table must catch.
"""

from .answers import PlayersStuck
from .camera import Pacing
from .fingers import Fingers
from .mistakes import Mistake
from .players import SimulatedPlayers

__all__ = ["Fingers", "Mistake", "Pacing", "PlayersStuck", "SimulatedPlayers"]
