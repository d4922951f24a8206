"""no club version: nothing reads it (pages are worked out when asked, not kept under it)

Revision ID: e2b9c4d7a1f3
Revises: 87c0015d42b7
Create Date: 2026-12-03 18:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = 'e2b9c4d7a1f3'
down_revision = '87c0015d42b7'
branch_labels = None
depends_on = None


def upgrade():
    op.drop_table('club_version')


def downgrade():
    table = op.create_table(
        'club_version',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_club_version')),
    )
    op.bulk_insert(table, [{'id': 1, 'version': 0}])
