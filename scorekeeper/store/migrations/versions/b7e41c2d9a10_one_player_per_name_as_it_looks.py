"""one player per name as it looks: names in NFC, keys without invisible characters

Players whose names differ only in how Unicode writes them ("María" with a precomposed or a
combining accent) or by characters that show nothing (a zero-width joiner, U+3164) were two
players; this merges them into the older one: its seats, rounds and hands take the other's,
and the games of both get a new version (their pages and files are worked out again).
Two such players who sat in the same game cannot be one: they are left as they are and
reported here, for the club's keeper to rename.

Revision ID: b7e41c2d9a10
Revises: f32542358b5b
Create Date: 2026-12-06 10:00:00

"""
import logging
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = 'b7e41c2d9a10'
down_revision = 'f32542358b5b'
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")
MAX_NAME = 40

# The key the app compared names by when this was written (scorekeeper.rules.replay.name_key):
# a copy, so that this revision writes the same keys whatever the app's function becomes.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180e\u2061\u2062\u2063\u2064")


def _invisible(ch: str) -> bool:
    return ch in BLANKS or unicodedata.category(ch) in ("Cf", "Cc", "Zs", "Zl", "Zp") or ch.isspace() \
        or "\ufe00" <= ch <= "\ufe0f"


def name_key(name: str) -> str:
    """Case, spacing, NFC and the characters that show nothing ignored."""
    words = ("".join(ch for ch in word if not _invisible(ch)) for word in name.split())
    return unicodedata.normalize("NFC", " ".join(w for w in words if w).casefold())


def _games_of(conn, player_id: int) -> set[int]:
    return set(conn.execute(sa.text("SELECT game_id FROM seat WHERE player_id = :p"), {"p": player_id}).scalars())


def upgrade():
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, name, name_key FROM player ORDER BY id")).all()
    groups: dict[str, list[tuple[int, str, str]]] = {}
    for player_id, name, old_key in rows:
        new_name = unicodedata.normalize("NFC", " ".join(name.split()))
        key = name_key(new_name)
        if not key or len(key) > MAX_NAME or len(new_name) > MAX_NAME:
            # A name that shows nothing (refused since) or would outgrow its column: kept as it is.
            log.warning("player %s %r: the name shows nothing or is too long; rename them on the Players page",
                        player_id, name)
            key, new_name = old_key, name
        groups.setdefault(key, []).append((player_id, new_name, old_key))
    # Every key out of the way first, so that no rewrite meets a key not yet moved: a control
    # character (no name holds one) and the id.
    conn.execute(sa.text("UPDATE player SET name_key = :mark || CAST(id AS VARCHAR(12))"), {"mark": "\x01"})
    original = {player_id: name for player_id, name, _ in rows}
    touched: set[int] = set()
    for key, members in groups.items():
        keep_id, keep_name, _ = members[0]
        kept_games = _games_of(conn, keep_id)
        for other_id, other_name, old_key in members[1:]:
            theirs = _games_of(conn, other_id)
            if theirs & kept_games:
                log.warning("players %s %r and %s %r look the same but sat in the same game: not merged; "
                            "the club's keeper may rename one", keep_id, keep_name, other_id, other_name)
                # Its old key was unique among the old keys; among the new ones too, unless it is one.
                fallback = old_key if old_key not in groups else f"{key[:MAX_NAME - 12]}\x01{other_id}"
                conn.execute(sa.text("UPDATE player SET name = :n, name_key = :k WHERE id = :p"),
                             {"n": other_name, "k": fallback, "p": other_id})
                continue
            log.warning("players %s %r and %s %r are the same name: merged into %s",
                        keep_id, keep_name, other_id, other_name, keep_id)
            for table, column in (("seat", "player_id"), ("round", "went_out_id"), ("hand", "player_id")):
                conn.execute(sa.text(f"UPDATE {table} SET {column} = :keep WHERE {column} = :other"),
                             {"keep": keep_id, "other": other_id})
            conn.execute(sa.text("DELETE FROM player WHERE id = :p"), {"p": other_id})
            kept_games |= theirs
            touched |= kept_games
        if keep_name != original[keep_id]:
            touched |= kept_games
        conn.execute(sa.text("UPDATE player SET name = :n, name_key = :k WHERE id = :p"),
                     {"n": keep_name, "k": key, "p": keep_id})
    for game_id in sorted(touched):
        conn.execute(sa.text("UPDATE game SET version = version + 1 WHERE id = :g"), {"g": game_id})


def downgrade():
    # Merged players stay merged (which of two same-looking names was which is not kept).
    pass
