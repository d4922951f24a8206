"""A game read from a file, as the store takes it in: the files layer reads and checks the file,
the store keeps what it found."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from scorekeeper.rules import GameSetup, GameState, RoundRecord

#: The key a game read from a file keeps when its rules are a document equal to no preset.
IMPORTED_KEY = "imported"


@dataclass(frozen=True)
class GameFile:
    setup: GameSetup
    rounds: tuple[RoundRecord, ...]
    state: GameState
    started_at: datetime | None
    finished_at: datetime | None
