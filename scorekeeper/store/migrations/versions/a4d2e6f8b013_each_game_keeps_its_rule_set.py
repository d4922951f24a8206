"""each game keeps a frozen copy of its rule set's document; each hand its bonuses

Rule sets are data (RULESETS.md): a game is played by the rules it was started with, even when
the house rule set it came from is edited or deleted later. So every game stores the whole
rule-set document as JSON text; the games stored before this had only a preset's key
(``balmoral`` or ``classic``), and get that preset's document. A round's bonuses (a perfect
cut, going out blind) are stored with each player's hand, as the keys of the bonuses earned;
the rounds stored before have none.

Then every game's summary is worked out from the facts, as ``flask games rebuild`` does (the
summaries made by 5e1c7a9d3b20 are filled here: the app's rebuild reads these new columns).

Revision ID: a4d2e6f8b013
Revises: 3c9d0e4f2a61
Create Date: 2026-11-30 20:00:00

"""
import logging

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

revision = 'a4d2e6f8b013'
down_revision = '3c9d0e4f2a61'
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rules_document', sa.Text(), server_default='', nullable=False))
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bonuses', sa.String(length=400), server_default='', nullable=False))
    # Each preset's document as the app writes it for a new game (the same text, so stored and
    # new games share one entry of the cache of read documents). A game with a key that names
    # no preset keeps '' and cannot be worked out, as it could not before.
    from scorekeeper.rules import PRESETS, document_text

    game = sa.table('game', sa.column('rules', sa.String()), sa.column('rules_document', sa.Text()))
    filled = 0
    for key, rules in PRESETS.items():
        result = op.get_bind().execute(
            game.update().where(game.c.rules == key).values(rules_document=document_text(rules)))
        filled += result.rowcount or 0
    log.info("The rules of %d games stored with them", filled)
    from scorekeeper.store.rebuild import rebuild

    session = Session(bind=op.get_bind())
    changed = rebuild(session, ratings=False)  # the ratings' table comes later (9f4b2e6c1d83)
    session.flush()
    log.info("Summaries worked out again: %d filled or corrected", len(changed))


def downgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_column('bonuses')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('rules_document')
