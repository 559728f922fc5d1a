"""schemathesis against the OpenAPI schema, in both access modes: no 500s, and every answer (status
code, content type, body) agrees with the schema."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from db.identities import IdentityRepository
from db.session import make_engine, make_session_factory
from tests.conftest import make_settings, served

CHECKS = "not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance"


def _schemathesis(url: str, report: Path, *headers: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "schemathesis.cli", "run", f"{url}/openapi.json", "--checks", CHECKS,
               "--max-examples", "10", "--seed", "7", "--max-time", "45", "--request-timeout", "20",
               "--report", "junit", "--report-junit-path", str(report)]
    for header in headers:
        command += ["--header", header]
    return subprocess.run(command, capture_output=True, text=True, timeout=400)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["open", "shared"])
def test_the_api_answers_as_its_schema_says(tmp_path: Path, mode: str) -> None:
    settings = make_settings(tmp_path, access_mode=mode, rate_limit_per_minute=1_000_000,
                             sessions_per_hour=100_000, quota_jobs_per_hour=1_000_000, max_queued_jobs=1_000_000)
    with served(settings) as url:
        headers: list[str] = []
        if mode == "shared":
            engine = make_engine(settings.resolved_database_url)
            with make_session_factory(engine).begin() as session:
                _identity, token = IdentityRepository(session).create("fuzzer", "user")
            engine.dispose()
            headers.append(f"Authorization: Bearer {token}")
        run = _schemathesis(url, tmp_path / "junit.xml", *headers)
    assert run.returncode == 0, run.stdout[-6000:]
