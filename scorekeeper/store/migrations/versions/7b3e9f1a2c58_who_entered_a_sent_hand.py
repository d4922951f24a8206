"""who entered a hand waiting for the round to be saved: its player, or the scorekeeper

The scorekeeper's entry for a row of a table that plays with seat links is kept where the
player's own sent hand is (the last one entered wins), so that the player's phone can show it
before the round is saved, and say who entered it.

Revision ID: 7b3e9f1a2c58
Revises: 4e8c2a7b9d15
Create Date: 2026-12-12 10:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '7b3e9f1a2c58'
down_revision = '4e8c2a7b9d15'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('sent_hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('by_keeper', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    with op.batch_alter_table('sent_hand', schema=None) as batch_op:
        batch_op.drop_column('by_keeper')
