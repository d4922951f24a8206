"""club nights: a night, the players checked in at it, and the games played at it

A game belongs to one night at most (``night_game``'s key is the game's id); nothing in the
game's own tables changes.

Revision ID: 5a7c9e1b3d20
Revises: 9c4d2e7f1a36
Create Date: 2026-12-06 08:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '5a7c9e1b3d20'
down_revision = '9c4d2e7f1a36'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'night',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('rules', sa.String(length=20), nullable=False),
        sa.Column('held_on', sa.Date(), nullable=False),
        sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('key_hash', sa.String(length=64), nullable=True),
        sa.Column('drawn', sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_night')),
    )
    op.create_index('ix_night_held_on', 'night', ['held_on'])
    op.create_table(
        'night_player',
        sa.Column('night_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('arrived_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('left_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['night_id'], ['night.id'], name=op.f('fk_night_player_night_id_night'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_night_player_player_id_player')),
        sa.PrimaryKeyConstraint('night_id', 'player_id', name=op.f('pk_night_player')),
    )
    op.create_table(
        'night_game',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('night_id', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('table', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_night_game_game_id_game'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['night_id'], ['night.id'], name=op.f('fk_night_game_night_id_night'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', name=op.f('pk_night_game')),
    )
    op.create_index('ix_night_game_night_id', 'night_game', ['night_id'])


def downgrade():
    op.drop_index('ix_night_game_night_id', table_name='night_game')
    op.drop_table('night_game')
    op.drop_table('night_player')
    op.drop_index('ix_night_held_on', table_name='night')
    op.drop_table('night')
