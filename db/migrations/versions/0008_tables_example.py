"""Result tables as data (a method's `tables()`), and the example a run was started from.

Revision ID: 0008_tables_example
Revises: 0007_verdict_fields
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_tables_example"
down_revision = "0007_verdict_fields"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("tables", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("example", sa.String(200), nullable=True))
        batch.create_index("ix_jobs_method_example", ["method", "example"])


def downgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.drop_index("ix_jobs_method_example")
        batch.drop_column("example")
        batch.drop_column("tables")
