"""each rated game numbered in its scope's order, and each player's best and lowest game so far

The leaderboard counted the distinct games among all its scope's rows, and a player's page read
every one of their rows for their best and lowest rating: both took longer the more games had
been played. Each row now carries its game's number in the scope's order (the last one is the
count) and which of the player's games so far left their rating highest and lowest (their last
row says it for all). The columns are filled by the upgrade's next step, ``flask games rebuild
--if-stale`` (the summaries' logic moved on with them).

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
        batch.add_column(sa.Column('best_at', sa.Integer(), server_default='0', nullable=False))
        batch.add_column(sa.Column('lowest_at', sa.Integer(), server_default='0', nullable=False))


def downgrade():
    with op.batch_alter_table('rating_summary') as batch:
        batch.drop_column('lowest_at')
        batch.drop_column('best_at')
        batch.drop_column('number')
