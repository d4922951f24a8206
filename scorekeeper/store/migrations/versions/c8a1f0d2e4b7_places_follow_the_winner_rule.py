"""the places of games whose winner is the lowest among those who complete the last stage

A game's summary keeps each seat's place. Where the winner is the lowest total among the players
who complete the last stage (Phase 10's rule), the engine now places players by the stage
reached first and the total second (a player on phase 10 is ahead of one on phase 9, whatever
the points), where it placed them by total alone. The summaries of those games are worked out
again from their facts, as ``flask games rebuild`` does; no other game's summary changes.

Revision ID: c8a1f0d2e4b7
Revises: 9f4b2e6c1d83
Create Date: 2026-11-30 23:20:00

"""
import logging

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

revision = 'c8a1f0d2e4b7'
down_revision = '9f4b2e6c1d83'
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade():
    from scorekeeper.store.rebuild import worked_out_rows
    from scorekeeper.store.summaries import store

    game = sa.table('game', sa.column('id', sa.Integer()), sa.column('rules_document', sa.Text()))
    # Every stored document is written the same way (rules.document_text: no spaces), so this
    # finds each game with that winner rule; a game found that has another is stored unchanged.
    ids = [row.id for row in op.get_bind().execute(
        sa.select(game.c.id).where(game.c.rules_document.contains('"winner":"lowest-finisher"')))]
    session = Session(bind=op.get_bind())
    rows = worked_out_rows(ids, session)
    store(list(rows.values()), session)
    session.flush()
    log.info("Places worked out again for %d games", len(rows))


def downgrade():
    pass  # nothing to undo: the older version's own `flask games rebuild` places by total again
