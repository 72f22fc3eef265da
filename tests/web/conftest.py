"""Fixtures of the table's API tests: a real app over a real SQLite file in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.table_client import Table, make_client


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


@pytest.fixture
def table(client: TestClient) -> Table:
    return Table.open(client)
