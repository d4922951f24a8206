"""The game store: every change to the stored facts, each in one transaction.

Each change is checked by the rules engine before anything is written, and writes the game's
summary (:mod:`~scorekeeper.store.figures.summaries`) with the facts it comes from. Views and the
command line call these functions as ``store.record_round(...)``; none of them writes a rule of
its own. Where each lives:

- :mod:`~scorekeeper.store.players`: the roster (add, rename, remove, games played);
- :mod:`~scorekeeper.store.games`: a game started, loaded with its state, peeked at for its
  version, and the bin (delete, restore, purge);
- :mod:`~scorekeeper.store.rounds`: a round recorded, corrected or deleted;
- :mod:`~scorekeeper.store.rulesets`: the table's house rule sets beside the presets;
- :mod:`~scorekeeper.store.imports`: games read from files, stored;
- :mod:`~scorekeeper.store.seats.seat_keys`: seat links, a player's own key for their place at a game;
- :mod:`~scorekeeper.store.seats.sent_hands`: the hands players send from their own phones, until
  the round is saved; :mod:`~scorekeeper.store.seats.flags`: "that's not my hand" after it is;
- :mod:`~scorekeeper.store.errors`: what they raise when a change cannot be made.

Below them: :mod:`~scorekeeper.store.models` (the tables), :mod:`~scorekeeper.store.database`
(transactions), :mod:`~scorekeeper.store.replays` (a game's rows into the engine),
:mod:`~scorekeeper.store.figures.summaries` and :mod:`~scorekeeper.store.figures.rating_summaries` (what is
derived, written with the facts), :mod:`~scorekeeper.store.access` (edit keys).
"""

from __future__ import annotations

from scorekeeper.store.access import games_opened_by, key_matches, reissue_key
from scorekeeper.store.errors import (AlreadyRecorded, BrokenGame, Conflict, InBin, NotFound, NotInBin,
                                      PlayerNameError)
from scorekeeper.store.games import (
    VERSION_OF,
    Peeked,
    VersionReader,
    all_game_ids,
    create_game,
    delete_game,
    freeze,
    get_game,
    load,
    peek,
    peek_with_rules,
    purge_game,
    restore_game,
    take_out_of_bin,
)
from scorekeeper.store.seats.flags import Flag, dismiss_flag, flag_round, flags_of
from scorekeeper.store.imports import IMPORTED_KEY, GameFile, import_games
from scorekeeper.store.players import (
    GamesPlayed,
    add_player,
    find_player,
    games_played,
    games_played_by_everyone,
    get_or_create_player,
    get_player,
    remove_player,
    rename_player,
    roster,
)
from scorekeeper.store.replays import LoadedGame
from scorekeeper.store.rounds import RecordedRound, delete_round, record_round, replace_round
from scorekeeper.store.seats.seat_keys import HeldSeat, make_seat_keys, seat_of
from scorekeeper.store.seats.sent_hands import Sent, next_round_number, send_hand, sent_hands, sent_tag
from scorekeeper.store.rulesets import (
    HOUSE,
    RuleSetEntry,
    delete_ruleset,
    get_house_ruleset,
    get_ruleset,
    house_key,
    list_rulesets,
    rename_ruleset,
    save_ruleset,
)

__all__ = [
    "seat_of",
    "make_seat_keys",
    "reissue_key",
    "key_matches",
    "games_opened_by",
    "HeldSeat",
    "HOUSE",
    "IMPORTED_KEY",
    "VERSION_OF",
    "AlreadyRecorded",
    "BrokenGame",
    "Conflict",
    "Flag",
    "GameFile",
    "GamesPlayed",
    "LoadedGame",
    "NotFound",
    "InBin",
    "NotInBin",
    "Peeked",
    "PlayerNameError",
    "RecordedRound",
    "RuleSetEntry",
    "Sent",
    "VersionReader",
    "add_player",
    "all_game_ids",
    "create_game",
    "delete_game",
    "delete_round",
    "delete_ruleset",
    "dismiss_flag",
    "find_player",
    "flag_round",
    "flags_of",
    "freeze",
    "games_played",
    "games_played_by_everyone",
    "get_game",
    "get_house_ruleset",
    "get_or_create_player",
    "get_player",
    "get_ruleset",
    "house_key",
    "import_games",
    "list_rulesets",
    "load",
    "next_round_number",
    "peek",
    "peek_with_rules",
    "purge_game",
    "record_round",
    "remove_player",
    "rename_player",
    "rename_ruleset",
    "replace_round",
    "restore_game",
    "take_out_of_bin",
    "roster",
    "save_ruleset",
    "send_hand",
    "sent_hands",
    "sent_tag",
]
