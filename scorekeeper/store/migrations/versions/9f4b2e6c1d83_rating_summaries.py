"""the club's ratings, stored per scope, game and player, filled from every rated game

Each finished, kept game moves its players' ratings (openskill's Plackett-Luce, issue 15); the
ratings before and after every game are stored beside the summaries they are worked out from
(see scorekeeper/store/rating_summaries.py). This makes the table and fills it for every game already
stored, with the same rebuild that ``flask games rebuild`` runs.

Revision ID: 9f4b2e6c1d83
Revises: b5e3f7a9c124
Create Date: 2026-11-30 20:00:00

"""
import logging

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

revision = '9f4b2e6c1d83'
down_revision = 'b5e3f7a9c124'
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade():
    op.create_table(
        'rating_summary',
        sa.Column('scope', sa.String(length=40), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('rank', sa.Integer(), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.Column('won', sa.Boolean(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('mu_before', sa.Float(), nullable=False),
        sa.Column('sigma_before', sa.Float(), nullable=False),
        sa.Column('mu_after', sa.Float(), nullable=False),
        sa.Column('sigma_after', sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_rating_summary_game_id_game'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_rating_summary_player_id_player')),
        sa.PrimaryKeyConstraint('scope', 'game_id', 'player_id', name=op.f('pk_rating_summary')),
    )
    with op.batch_alter_table('rating_summary', schema=None) as batch_op:
        batch_op.create_index('ix_rating_summary_scope_finished_at_game_id', ['scope', 'finished_at', 'game_id'],
                              unique=False)
        batch_op.create_index('ix_rating_summary_scope_player_id_games', ['scope', 'player_id', 'games'],
                              unique=False)
        batch_op.create_index('ix_rating_summary_game_id', ['game_id'], unique=False)
    # Every rated game's ratings, from the stored summaries, in this migration's transaction.
    from scorekeeper.store.rating_summaries import rebuild

    session = Session(bind=op.get_bind())
    filled = rebuild(session)
    session.flush()
    log.info("Ratings worked out for %d scopes", len(filled))


def downgrade():
    with op.batch_alter_table('rating_summary', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_summary_game_id')
        batch_op.drop_index('ix_rating_summary_scope_player_id_games')
        batch_op.drop_index('ix_rating_summary_scope_finished_at_game_id')
    op.drop_table('rating_summary')
