"""The verdict as structured data: kind, headline counts, seeds, who beats the method and on which metric.

Revision ID: 0007_verdict_fields
Revises: 0006_submissions
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_verdict_fields"
down_revision = "0006_submissions"
branch_labels = None
depends_on = None

_INTEGERS = ("verdict_held", "verdict_tested", "verdict_headline", "verdict_seeds")


def upgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("verdict_kind", sa.String(16), nullable=True))
        for name in _INTEGERS:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=True))
        batch.add_column(sa.Column("verdict_beaten_by", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("verdict_metric", sa.String(200), nullable=True))
        batch.create_index("ix_jobs_verdict_kind", ["verdict_kind"])
    # runs stored before this revision answered with a label only: they read as answers
    op.execute("UPDATE jobs SET verdict_kind = 'answer' WHERE verdict IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.drop_index("ix_jobs_verdict_kind")
        for name in ("verdict_metric", "verdict_beaten_by", *reversed(_INTEGERS), "verdict_kind"):
            batch.drop_column(name)
