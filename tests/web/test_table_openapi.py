"""The table's API against its own OpenAPI document: no generated request gets a 5xx (Schemathesis).

Requests carry the GM token of a real table and, half the time, the ids of its real fight, so generated
bodies reach the handlers rather than stopping at 403/404. Examples are bounded to keep the run short.

Every API operation is a test function of its own (``…_server_error__get_api_tables``), made from the schema
narrowed to that operation: ``schema.parametrize()`` on one function makes an item per operation, but under pytest
9.2 those items share the function's node ID (built from the function name and explicit parameters only), and
pytest-xdist, which keys results by node ID, then reports one result for all of them.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
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


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def _no_generated_request_is_a_server_error(case: Case) -> None:
    params = case.path_parameters or {}
    if "fight_id" in params and len(str(case.body)) % 2 == 0:
        params["fight_id"] = _FIGHT
    if "table_id" in params and len(str(case.body)) % 2 == 0:
        params["table_id"] = _TABLE.table_id
    if case.path.endswith("/stream"):
        case.query = {**(case.query or {}), "max_events": 1}
    response = case.call(headers=bearer(_TABLE.gm))
    assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text[:300])


def _test_name(method: str, path: str) -> str:
    """``GET /api/tables/{table_id}`` -> ``test_openapi__no_generated_request_is_a_server_error__get_api_tables_…``."""
    slug = re.sub(r"\W+", "_", f"{method} {path}".lower()).strip("_")
    return f"test_openapi__no_generated_request_is_a_server_error__{slug}"


# `.ok()` raises on an operation Schemathesis cannot read, so such an operation fails the module loudly instead of
# going untested.
_OPERATIONS = [(result.ok().method.upper(), result.ok().path) for result in schema.get_all_operations()]
_TESTS: dict[str, Callable[..., None]] = {
    _test_name(method, path): schema.include(method=method, path=path).parametrize()(
        _no_generated_request_is_a_server_error
    )
    for method, path in _OPERATIONS
}
globals().update(_TESTS)  # pytest collects the module's attributes named test_*


def test_openapi__every_operation_has_a_test_of_its_own() -> None:
    assert len(_TESTS) == len(_OPERATIONS) >= 18, "two operations map to one test name"
    assert all(len(list(schema.include(method=m, path=p).get_all_operations())) == 1 for m, p in _OPERATIONS)
