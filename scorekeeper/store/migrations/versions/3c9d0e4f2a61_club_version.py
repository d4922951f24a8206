"""the club's version: one number that every committed change moves on

Pages that show many games are kept rendered in each app process under this number (see
scorekeeper/web/kept.py), so that every app server in front of one database agrees on when a kept
page is out of date.

Revision ID: 3c9d0e4f2a61
Revises: 5e1c7a9d3b20
Create Date: 2026-11-30 19:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = '3c9d0e4f2a61'
down_revision = '5e1c7a9d3b20'
branch_labels = None
depends_on = None


def upgrade():
    table = op.create_table(
        'club_version',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_club_version')),
    )
    op.bulk_insert(table, [{'id': 1, 'version': 0}])


def downgrade():
    op.drop_table('club_version')
