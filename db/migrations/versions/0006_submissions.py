"""The submissions ledger (issue 45, N3): one row per accepted submission, never deleted with its job,
so deleting finished runs cannot give the hourly quota back.

Revision ID: 0006_submissions
Revises: 0005_sweeps
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_submissions"
down_revision = "0005_sweeps"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_submissions_owner_created", "submissions", ["owner", "created_at"])
    op.create_index("ix_submissions_created_at", "submissions", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_submissions_created_at", table_name="submissions")
    op.drop_index("ix_submissions_owner_created", table_name="submissions")
    op.drop_table("submissions")
