"""Persistence: SQLAlchemy 2 engine/session, ORM tables, the jobs repository and migrations."""
