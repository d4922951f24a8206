"""each player's figures added up over their kept games, for their page

A player's page read every one of their games' summaries; it now reads their sums over their
finished games, one row a rule set (player_summary), a ladder level (player_level) and an
opponent (player_pair), moved by each change to a finished game in its transaction, and adds
their unfinished games as they stand (found along ix_game_unfinished) (see scorekeeper/store/figures/player_summaries.py), with the
games they count (counted_game). This makes the tables; they are filled by the upgrade's next
step, ``flask games rebuild --if-stale``.

Revision ID: a6f3c1e8d274
Revises: 5a7c9e1b3d20
Create Date: 2026-12-06 08:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'a6f3c1e8d274'
down_revision = '5a7c9e1b3d20'
branch_labels = None
depends_on = None


def upgrade():
    op.create_index('ix_game_unfinished', 'game', ['id'], unique=False,
                    sqlite_where=sa.text('finished_at IS NULL'), postgresql_where=sa.text('finished_at IS NULL'))
    op.create_table(
        'counted_game',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_counted_game_game_id_game'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', name=op.f('pk_counted_game')),
    )
    op.create_table(
        'player_summary',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('rules', sa.String(length=20), nullable=False),
        sa.Column('played', sa.Integer(), nullable=False),
        sa.Column('finished', sa.Integer(), nullable=False),
        sa.Column('won', sa.Integer(), nullable=False),
        sa.Column('shared', sa.Integer(), nullable=False),
        sa.Column('finals_total', sa.Integer(), nullable=False),
        sa.Column('best_final', sa.Integer(), nullable=True),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('penalty', sa.Integer(), nullable=False),
        sa.Column('went_out', sa.Integer(), nullable=False),
        sa.Column('first_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('newest_id', sa.Integer(), nullable=False),
        sa.Column('climbs', sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_player_summary_player_id_player')),
        sa.PrimaryKeyConstraint('player_id', 'rules', name=op.f('pk_player_summary')),
    )
    op.create_table(
        'player_level',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('rules', sa.String(length=20), nullable=False),
        sa.Column('level', sa.Integer(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_player_level_player_id_player')),
        sa.PrimaryKeyConstraint('player_id', 'rules', 'level', name=op.f('pk_player_level')),
    )
    op.create_table(
        'player_pair',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('other_id', sa.Integer(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_player_pair_player_id_player')),
        sa.ForeignKeyConstraint(['other_id'], ['player.id'], name=op.f('fk_player_pair_other_id_player')),
        sa.PrimaryKeyConstraint('player_id', 'other_id', name=op.f('pk_player_pair')),
    )


def downgrade():
    op.drop_index('ix_game_unfinished', table_name='game',
                  sqlite_where=sa.text('finished_at IS NULL'), postgresql_where=sa.text('finished_at IS NULL'))
    op.drop_table('player_pair')
    op.drop_table('player_level')
    op.drop_table('player_summary')
    op.drop_table('counted_game')
