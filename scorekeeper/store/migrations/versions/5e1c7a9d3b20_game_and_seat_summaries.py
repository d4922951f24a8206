"""game and seat summaries: the tables of what the engine works out of each game

Each game's summary (who won, each seat's total, place, times out, stage and ladder climbs,
the next round and its dealer) is worked out by the rules engine from the game's rounds and
stored beside them (see scorekeeper/store/figures/summaries.py). This makes the tables; the summaries of
the games already stored are filled by the upgrade's next step, ``flask games rebuild --if-stale``
(a revision changes the schema and the facts, never what is worked out from them).

Revision ID: 5e1c7a9d3b20
Revises: b7e41c2d9a10
Create Date: 2026-11-30 16:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '5e1c7a9d3b20'
down_revision = 'b7e41c2d9a10'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'game_summary',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('worked_out', sa.Boolean(), nullable=False),
        sa.Column('problem', sa.String(length=400), nullable=True),
        sa.Column('finished', sa.Boolean(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('next_round', sa.Integer(), nullable=True),
        sa.Column('next_dealer', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_game_summary_game_id_game'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', name=op.f('pk_game_summary')),
    )
    op.create_table(
        'seat_summary',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('total', sa.Integer(), nullable=False),
        sa.Column('place', sa.Integer(), nullable=False),
        sa.Column('won', sa.Boolean(), nullable=False),
        sa.Column('times_out', sa.Integer(), nullable=False),
        sa.Column('stage', sa.Integer(), nullable=False),
        sa.Column('climbs', sa.String(length=200), nullable=False),
        sa.Column('stuck_level', sa.Integer(), nullable=True),
        sa.Column('stuck_rounds', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_seat_summary_game_id_game'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_seat_summary_player_id_player')),
        sa.PrimaryKeyConstraint('game_id', 'position', name=op.f('pk_seat_summary')),
    )
    with op.batch_alter_table('seat_summary', schema=None) as batch_op:
        batch_op.create_index('ix_seat_summary_player_id_game_id', ['player_id', 'game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('seat_summary', schema=None) as batch_op:
        batch_op.drop_index('ix_seat_summary_player_id_game_id')
    op.drop_table('seat_summary')
    op.drop_table('game_summary')
