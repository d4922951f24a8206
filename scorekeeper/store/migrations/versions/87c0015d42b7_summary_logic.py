"""the logic the stored summaries were worked out by: one row, none known yet

Summaries are worked out from the facts by the app's logic, which changes between versions; a
revision changes the schema and the facts, never what is worked out from them. This one row
says which logic worked out the summaries stored (0: none known, so every summary stored is
out of date); the upgrade's next step, ``flask games rebuild --if-stale``, works them all out
again when it is not the app's, and writes the app's there.

Revision ID: 87c0015d42b7
Revises: c8a1f0d2e4b7
Create Date: 2026-12-03 18:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = '87c0015d42b7'
down_revision = 'c8a1f0d2e4b7'
branch_labels = None
depends_on = None


def upgrade():
    table = op.create_table(
        'summary_logic',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_summary_logic')),
    )
    op.bulk_insert(table, [{'id': 1, 'version': 0}])


def downgrade():
    op.drop_table('summary_logic')
