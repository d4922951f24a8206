"""The round just taken off with "Undo", kept in this browser's session.

A one-time message was easy to miss (off-screen, gone after a reload or another page), and a
round undone by mistake was then lost. So the round undone stays offered for "Restore" on the
game's board for as long as the game is exactly as the undo left it: any change to the game
(a round recorded, corrected, restored) moves its version on and the offer goes.
"""

from __future__ import annotations

from flask import session

KEY = "undone"


def remember(game_id: int, version: int, number: int, word: str, document: dict) -> None:
    """Keep the round undone (only the last one: one offer at a time for this browser)."""
    session[KEY] = {"game": game_id, "version": version, "number": number, "word": word,
                    "round": document}


def offered(game) -> dict | None:
    """The round this browser may put back into ``game`` as it stands now, if any."""
    kept = session.get(KEY)
    if isinstance(kept, dict) and kept.get("game") == game.id and kept.get("version") == game.version:
        return kept
    return None


def forget(game_id: int) -> None:
    kept = session.get(KEY)
    if isinstance(kept, dict) and kept.get("game") == game_id:
        session.pop(KEY, None)
