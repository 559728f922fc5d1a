"""`python -m backend.cli tokens create NAME [--admin] | list | revoke NAME`: registered users' tokens."""

from __future__ import annotations

import argparse
import sys

from backend.settings import get_settings
from db.identities import IdentityRepository
from db.session import make_engine, make_session_factory, upgrade_to_head

__all__ = ["add_token_commands", "run_token_command"]


def add_token_commands(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    tokens = commands.add_parser("tokens", help="create, list and revoke the tokens of registered users")
    actions = tokens.add_subparsers(dest="action", required=True, parser_class=type(tokens))
    create = actions.add_parser("create", help="create a token (printed once, alone on the last line)")
    create.add_argument("name")
    create.add_argument("--admin", action="store_true", help="may see and cancel every job; not rate limited")
    actions.add_parser("list", help="registered users: name, admin, created, revoked")
    revoke = actions.add_parser("revoke", help="revoke every token of NAME, cancel its jobs, revoke its share links")
    revoke.add_argument("name")


def run_token_command(args: argparse.Namespace) -> int:
    name = str(getattr(args, "name", ""))
    if args.action != "list" and (len(name) > 64 or not name.strip() or not name.isprintable()):
        print("error: NAME must be 1 to 64 printable characters", file=sys.stderr)
        return 2
    url = get_settings().resolved_database_url
    upgrade_to_head(url)
    engine = make_engine(url)
    try:
        with make_session_factory(engine).begin() as session:
            repo = IdentityRepository(session)
            if args.action == "create":
                _identity, token = repo.create(name, "user", admin=args.admin)
                print(f"created {'admin ' if args.admin else ''}token for {name!r}; it is shown only once:")
                print(token)
            elif args.action == "list":
                for user in repo.users():
                    state = f"revoked {user.revoked_at:%Y-%m-%d %H:%M}" if user.revoked_at else "active"
                    print(f"{user.name}\t{'admin' if user.admin else 'user'}\t{user.created_at:%Y-%m-%d %H:%M}\t{state}")
            else:
                revoked = repo.revoke(name)
                if not revoked:
                    print(f"error: no active token named {name!r}", file=sys.stderr)
                    return 2
                print(f"revoked {revoked} token(s) of {name!r}: their jobs are cancelled and their share links "
                      "revoked (servers forget cached tokens within 5 s)")
    finally:
        engine.dispose()
    return 0
