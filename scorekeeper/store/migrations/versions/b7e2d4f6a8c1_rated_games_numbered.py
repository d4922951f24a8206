"""each rated game numbered in its scope's order, so that a leaderboard reads how many games it rates

The leaderboard counted the distinct games among all its scope's rows, which took longer the more
games a club had played. Each row now carries its game's number in the scope's order, and the last
one is the count. The column is filled by the upgrade's next step, ``flask games rebuild
--if-stale`` (the summaries' logic moved on with it).

Revision ID: b7e2d4f6a8c1
Revises: a6f3c1e8d274
Create Date: 2026-12-06 13:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'b7e2d4f6a8c1'
down_revision = 'a6f3c1e8d274'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('rating_summary') as batch:
        batch.add_column(sa.Column('number', sa.Integer(), server_default='0', nullable=False))


def downgrade():
    with op.batch_alter_table('rating_summary') as batch:
        batch.drop_column('number')
