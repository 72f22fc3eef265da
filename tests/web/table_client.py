"""A small driver of the table's HTTP API for the tests: a GM client that plays fights by the API alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from ashfall.web.app import create_app


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """One table on a real app over a real SQLite file: its GM token and helpers that call the API."""

    def __init__(self, client: TestClient | httpx.Client, gm_token: str, table_id: int) -> None:
        self.client = client
        self.gm = gm_token
        self.table_id = table_id
        self.last: dict[str, Any] = {}
        """The answer to the last write :meth:`step` made (acknowledged: the store committed it)."""

    @classmethod
    def open(cls, client: TestClient | httpx.Client, name: str = "test table") -> Table:
        made = client.post("/api/tables", json={"name": name})
        assert made.status_code == 201, made.text
        return cls(client, made.json()["gm_token"], made.json()["table_id"])

    def new_fight(self, encounter: str = "duel", seed: int = 1, **settings: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"encounter": encounter, "seed": seed}
        if settings:
            body["settings"] = settings
        made = self.client.post(f"/api/tables/{self.table_id}/fights", json=body, headers=bearer(self.gm))
        assert made.status_code == 201, made.text
        return dict(made.json())

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        return self.client.get(path, headers=bearer(token or self.gm))

    def post(self, path: str, body: dict[str, Any], token: str | None = None) -> httpx.Response:
        return self.client.post(path, json=body, headers=bearer(token or self.gm))

    def view(self, fight: int) -> dict[str, Any]:
        got = self.get(f"/api/fights/{fight}")
        assert got.status_code == 200, got.text
        return dict(got.json())

    def act(self, fight: int, intent: dict[str, Any], token: str | None = None) -> httpx.Response:
        return self.post(f"/api/fights/{fight}/intents", {"intent": intent, "version": self.view(fight)["version"]},
                         token)

    def step(self, fight: int) -> str:
        """One GM move: answer a pending decision (or let the engine roll a pending dice request), else the best
        strike, else a stride, else end the turn."""
        view = self.view(fight)
        version = view["version"]
        if view["ended"]:
            return "ended"
        if view["pending"] is not None and "dice" in view["pending"]:
            got = self.post(f"/api/fights/{fight}/dice", {"roll_for_me": True, "version": version})
            assert got.status_code == 200, got.text
            self.last = got.json()
            return "rolled"
        if view["pending"] is not None:
            decision = view["pending"]["decision"]
            answer = None if decision["optional"] else decision["options"][0]["key"]
            got = self.post(f"/api/fights/{fight}/decision", {"answer": answer, "version": version})
            assert got.status_code == 200, got.text
            self.last = got.json()
            return "answered"
        intents = self.get(f"/api/fights/{fight}/intents").json()["intents"]
        strikes = [i for i in intents if i["odds"] is not None]
        moves = [i for i in intents if i["type"] == "stride"]
        for choice in sorted(strikes, key=lambda i: -i["odds"]["expected_damage"]["value"])[:1] or moves[:1]:
            got = self.post(f"/api/fights/{fight}/intents", {"intent": choice["intent"], "version": version})
            if got.status_code == 200:
                self.last = got.json()
                return str(choice["type"])
            assert got.status_code == 409 and "rule" in got.json(), got.text
        got = self.post(f"/api/fights/{fight}/end-turn", {"version": version})
        assert got.status_code == 200, got.text
        self.last = got.json()
        return "end-turn"


def make_client(db: Path) -> TestClient:
    """A test client on a new app over the database file ``db``."""
    return TestClient(create_app(db))


