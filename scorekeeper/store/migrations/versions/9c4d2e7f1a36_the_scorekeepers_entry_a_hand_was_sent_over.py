"""the scorekeeper's entry that a player sent their own hand over

A player who sends their hand after the scorekeeper entered a different one in their row
replaces the entry their phones see, while the scorekeeper's round screen keeps (and saves) its
own. The row keeps the scorekeeper's entry beside the player's, so that the player's phone can say
which of the two will be saved.

Revision ID: 9c4d2e7f1a36
Revises: 7b3e9f1a2c58
Create Date: 2026-12-06 04:20:00

"""
import sqlalchemy as sa
from alembic import op

revision = '9c4d2e7f1a36'
down_revision = '7b3e9f1a2c58'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('sent_hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('keeper_entry', sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table('sent_hand', schema=None) as batch_op:
        batch_op.drop_column('keeper_entry')
