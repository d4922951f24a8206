"""seat links, hands sent from the players' phones, and "that's not my hand" flags

A seat keeps the hash of its key (a player's own link); a sent hand waits for the round to be
saved; a flag marks a saved round a player says is wrong for them. None of them is a fact the
scores are worked out from.

Revision ID: 6d2f8a1c9e47
Revises: e2b9c4d7a1f3
Create Date: 2026-12-10 20:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '6d2f8a1c9e47'
down_revision = 'e2b9c4d7a1f3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('key_hash', sa.String(length=64), nullable=True))
    op.create_table(
        'sent_hand',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('went_out', sa.Boolean(), nullable=False),
        sa.Column('cards', sa.String(length=400), nullable=True),
        sa.Column('points', sa.Integer(), nullable=True),
        sa.Column('achieved', sa.Boolean(), nullable=False),
        sa.Column('bonuses', sa.String(length=400), server_default='', nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_sent_hand_game_id_game'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_sent_hand')),
        sa.UniqueConstraint('game_id', 'number', 'position', name='uq_sent_hand_game_number_position'),
    )
    op.create_table(
        'round_flag',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('flagged_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_round_flag_game_id_game'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_round_flag')),
        sa.UniqueConstraint('game_id', 'number', 'position', name='uq_round_flag_game_number_position'),
    )


def downgrade():
    op.drop_table('round_flag')
    op.drop_table('sent_hand')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('key_hash')
