"""The table's API against its own OpenAPI document: no generated request gets a 5xx (Schemathesis).

Requests carry the GM token of a real table and, half the time, the ids of its real fight, so generated
bodies reach the handlers rather than stopping at 403/404. Examples are bounded to keep the run short.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import Case

from ashfall.web.app import create_app
from tests.web.table_client import Table, bearer, make_client

_DB = Path(tempfile.mkdtemp(prefix="ashfall-openapi-")) / "tables.db"
APP = create_app(_DB)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)

with make_client(_DB) as _client:
    _TABLE = Table.open(_client)
    _FIGHT = _TABLE.new_fight("duel", seed=1)["id"]


def test_openapi__document_lists_every_endpoint() -> None:
    with make_client(_DB) as client:
        doc = client.get("/openapi.json").json()
    assert len(doc["paths"]) >= 18 and doc["info"]["title"] == "Ashfall GM's table"


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_openapi__no_generated_request_is_a_server_error(case: Case) -> None:
    params = case.path_parameters or {}
    if "fight_id" in params and len(str(case.body)) % 2 == 0:
        params["fight_id"] = _FIGHT
    if "table_id" in params and len(str(case.body)) % 2 == 0:
        params["table_id"] = _TABLE.table_id
    if case.path.endswith("/stream"):
        case.query = {**(case.query or {}), "max_events": 1}
    response = case.call(headers=bearer(_TABLE.gm))
    assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text[:300])
