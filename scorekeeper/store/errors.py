"""The store's refusals: what a change or a look-up raises when it cannot be made."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorekeeper.store.replays import LoadedGame


class NotFound(LookupError):
    pass


class PlayerNameError(ValueError):
    pass


class BrokenGame(ValueError):
    """A stored game whose rounds the rules engine refuses (a game stored under other rules)."""


class NotInBin(Exception):
    pass


class AlreadyRecorded(Exception):
    """The round number a form carried has been recorded meanwhile (double tap, second phone).
    Raised with the write rolled back, nothing written: a game loaded next holds that round."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(f"Round {number} is already recorded")


class Conflict(Exception):
    """A change made on a version of the game that another phone has changed since."""

    def __init__(self, expected: int, loaded: LoadedGame) -> None:
        self.expected = expected
        self.loaded = loaded
        super().__init__(
            f"This game changed on another phone (version {loaded.game.version}, "
            f"you had version {expected}); nothing was saved. Here is the game as it is now."
        )
