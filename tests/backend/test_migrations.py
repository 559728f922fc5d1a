"""The Alembic migration builds exactly the schema of the ORM tables."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, inspect

import db.jobs  # noqa: F401 - registers the submissions ledger (issue 45) with Base.metadata
from db.session import make_engine, upgrade_to_head
from db.tables import Base


def test_upgrade_empty_database_to_head_matches_orm(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    upgrade_to_head(url)
    migrated = inspect(create_engine(url))
    tables = {table.name for table in Base.metadata.sorted_tables}  # the ORM's, and db.jobs' submissions ledger
    assert {"jobs", "artifacts", "identities", "share_links", "submissions"} <= tables
    assert set(migrated.get_table_names()) == tables | {"alembic_version"}
    for table in Base.metadata.sorted_tables:
        columns = {c["name"]: c for c in migrated.get_columns(table.name)}
        assert set(columns) == {c.name for c in table.columns}, table.name
        for column in table.columns:
            assert columns[column.name]["nullable"] == column.nullable, (table.name, column.name)
        migrated_indexes = {i["name"] for i in migrated.get_indexes(table.name)}
        assert {i.name for i in table.indexes} <= migrated_indexes
    foreign = migrated.get_foreign_keys("artifacts")
    assert foreign[0]["referred_table"] == "jobs" and foreign[0]["options"].get("ondelete") == "CASCADE"


def test_sqlite_connections_use_wal_and_foreign_keys(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
