"""Jobs remember an input summary and the method's verdict (the history table's columns).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("summary", sa.String(200), nullable=False, server_default=""))
        batch.add_column(sa.Column("verdict", sa.String(64), nullable=True))
        batch.add_column(sa.Column("verdict_tone", sa.String(16), nullable=True))
        batch.add_column(sa.Column("verdict_detail", sa.Text(), nullable=True))
        batch.create_index("ix_jobs_verdict", ["verdict"])


def downgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.drop_index("ix_jobs_verdict")
        batch.drop_column("verdict_detail")
        batch.drop_column("verdict_tone")
        batch.drop_column("verdict")
        batch.drop_column("summary")
