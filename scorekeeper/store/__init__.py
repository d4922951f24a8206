"""The game store's face: everything the layers above may ask of the stored facts.

The web layer, ``club/``, ``files/``, the command line and the backups import this package and
nothing inside it (``[tool.importlinter]`` in pyproject.toml holds it; ``club/`` alone reads the
summaries' tables with SQL of its own, the one read side below it: ``store.models`` and
``store.figures``). Each change to the stored facts is one function here, in one write
transaction: checked by the rules engine before anything is written, and ended by
:mod:`~scorekeeper.store.changes` (the game's version moves on, its summary and ratings are
written with the facts they come from, all of it committed together). Nothing here knows of
HTTP: a key reaches the store as an argument (:mod:`scorekeeper.web.keyring` reads it from the
request). Where each lives:

- :mod:`~scorekeeper.store.players`: the roster (add, rename, remove, games played);
- :mod:`~scorekeeper.store.games`: a game started, loaded with its state, peeked at for its
  version, and the bin (delete, restore, purge);
- :mod:`~scorekeeper.store.rounds`: a round recorded, corrected or deleted, and whether a round
  sent again is the one stored;
- :mod:`~scorekeeper.store.nights`: club nights (opened, players checked in and gone home, their
  games, closed);
- :mod:`~scorekeeper.store.rulesets`: the table's house rule sets beside the presets;
- :mod:`~scorekeeper.store.imports`: games read from files, stored, never twice;
- :mod:`~scorekeeper.store.access`: a game's edit key, checked against its hash;
- :mod:`~scorekeeper.store.seats.seat_keys`: seat links, a player's own key for their place at a game;
- :mod:`~scorekeeper.store.seats.sent_hands`: the hands players send from their own phones, until
  the round is saved; :mod:`~scorekeeper.store.seats.flags`: "that's not my hand" after it is;
- :mod:`~scorekeeper.store.rebuild`: every summary worked out again (``flask games rebuild``);
- :mod:`~scorekeeper.store.database`: the database as a whole (set-up, transactions, its file and
  migration, for the backups); :mod:`~scorekeeper.store.private`: the instance folder's secret files;
- :mod:`~scorekeeper.store.errors`: what they raise when a change cannot be made.

Below them: :mod:`~scorekeeper.store.models` (the tables), :mod:`~scorekeeper.store.replays` (a
game's rows into the engine), :mod:`~scorekeeper.store.changes` (the end of every change),
:mod:`~scorekeeper.store.figures.summaries` and :mod:`~scorekeeper.store.figures.rating_summaries`
(what is derived, written with the facts).
"""

from __future__ import annotations

from scorekeeper.store.access import games_opened_by, key_matches, reissue_key
from scorekeeper.store.database import close_connections, head_revision, live_sqlite_file, revision_now
from scorekeeper.store.errors import (DATABASE_AWAY, DISK_FULL, AlreadyRecorded, BrokenGame, Conflict, DatabaseRefused, InBin,
                                      NightRefused, NotFound, NotInBin, PlayerNameError, is_database_away, is_disk_full)
from scorekeeper.store.figures.ratings import PROVISIONAL_BELOW
from scorekeeper.store.games import (
    Peeked,
    VersionReader,
    all_game_ids,
    create_game,
    delete_game,
    every_game,
    get_game,
    load,
    peek,
    peek_with_rules,
    purge_game,
    restore_game,
)
from scorekeeper.store.imports import (EXISTING, IMPORTED_KEY, NEW, REPEATED, RESTORED, GameFile, Outcome, import_files,
                                       import_games)
# The rows the store hands back, named for type hints: the layers above do not query them.
from scorekeeper.store.models import MAX_ID, Game, Night, Player
from scorekeeper.store.nights import (CheckedIn, DrawnTable, NightGameRecord, NightPlayerRecord, NightRecord, NightTable,
                                      NightVersion, StartedTable, check_in, checked_in, close_night, draw_night,
                                      drawn_tables, every_night, get_night, leave_night, list_nights, night_games,
                                      night_key_matches, night_of, night_version, open_night, start_table,
                                      table_seat_keys)
from scorekeeper.store.players import (
    GamesPlayed,
    add_player,
    find_player,
    games_played,
    games_played_by_everyone,
    get_player,
    remove_player,
    rename_player,
    roster,
)
from scorekeeper.store.private import check_private, create_private, write_private
from scorekeeper.store.rebuild import SUMMARY_LOGIC, rebuild_summaries
from scorekeeper.store.replays import LoadedGame, load_game, rules_of
from scorekeeper.store.rounds import RecordedRound, delete_round, record_round, replace_round, same_round
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
from scorekeeper.store.seats.flags import Flag, dismiss_flag, flag_round, flags_of
from scorekeeper.store.seats.seat_keys import HeldSeat, make_seat_keys, seat_of
from scorekeeper.store.seats.sent_hands import Sent, next_round_number, send_hand, sent_hands, sent_tag

__all__ = [
    "HOUSE",
    "IMPORTED_KEY",
    "MAX_ID",
    "PROVISIONAL_BELOW",
    "SUMMARY_LOGIC",
    "DATABASE_AWAY",
    "DISK_FULL",
    "DrawnTable",
    "NEW",
    "EXISTING",
    "RESTORED",
    "REPEATED",
    "AlreadyRecorded",
    "BrokenGame",
    "CheckedIn",
    "Conflict",
    "DatabaseRefused",
    "Flag",
    "Game",
    "GameFile",
    "GamesPlayed",
    "HeldSeat",
    "InBin",
    "LoadedGame",
    "Night",
    "NightGameRecord",
    "NightPlayerRecord",
    "NightRecord",
    "NightRefused",
    "NightTable",
    "NightVersion",
    "NotFound",
    "NotInBin",
    "Outcome",
    "Peeked",
    "Player",
    "PlayerNameError",
    "RecordedRound",
    "RuleSetEntry",
    "Sent",
    "StartedTable",
    "VersionReader",
    "add_player",
    "all_game_ids",
    "check_in",
    "check_private",
    "checked_in",
    "close_night",
    "close_connections",
    "create_game",
    "create_private",
    "delete_game",
    "delete_round",
    "delete_ruleset",
    "dismiss_flag",
    "draw_night",
    "drawn_tables",
    "every_game",
    "every_night",
    "find_player",
    "flag_round",
    "flags_of",
    "games_opened_by",
    "games_played",
    "games_played_by_everyone",
    "get_game",
    "get_house_ruleset",
    "get_night",
    "get_player",
    "get_ruleset",
    "head_revision",
    "house_key",
    "import_files",
    "import_games",
    "is_database_away",
    "is_disk_full",
    "key_matches",
    "leave_night",
    "list_nights",
    "list_rulesets",
    "live_sqlite_file",
    "load",
    "load_game",
    "make_seat_keys",
    "next_round_number",
    "night_games",
    "night_key_matches",
    "night_of",
    "night_version",
    "open_night",
    "peek",
    "peek_with_rules",
    "purge_game",
    "rebuild_summaries",
    "record_round",
    "reissue_key",
    "remove_player",
    "rename_player",
    "rename_ruleset",
    "replace_round",
    "restore_game",
    "revision_now",
    "roster",
    "rules_of",
    "same_round",
    "save_ruleset",
    "seat_of",
    "send_hand",
    "sent_hands",
    "sent_tag",
    "start_table",
    "table_seat_keys",
    "write_private",
]
