"""the club's ratings, stored per scope, game and player

Each finished, kept game moves its players' ratings (openskill's Plackett-Luce); the
ratings before and after every game are stored beside the summaries they are worked out from
(see scorekeeper/store/figures/rating_summaries.py). This makes the table; the ratings of the games already
stored are filled by the upgrade's next step, ``flask games rebuild --if-stale``.

Revision ID: 9f4b2e6c1d83
Revises: b5e3f7a9c124
Create Date: 2026-11-30 20:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '9f4b2e6c1d83'
down_revision = 'b5e3f7a9c124'
branch_labels = None
depends_on = None


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


def downgrade():
    with op.batch_alter_table('rating_summary', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_summary_game_id')
        batch_op.drop_index('ix_rating_summary_scope_player_id_games')
        batch_op.drop_index('ix_rating_summary_scope_finished_at_game_id')
    op.drop_table('rating_summary')
