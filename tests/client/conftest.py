"""Real model servers (uvicorn on a free port, embedded executor) for the client, sweep and reproduce tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import make_settings, served

METHODS = "tests.toy_method,tests.client.sweep_method"


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(make_settings(tmp_path_factory.mktemp("open"), extra_methods=METHODS)) as url:
        yield url


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = make_settings(tmp_path_factory.mktemp("shared"), extra_methods=METHODS, access_mode="shared",
                             quota_concurrent_jobs=2, quota_jobs_per_hour=8)
    with served(settings) as url:
        yield url
