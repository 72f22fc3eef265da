"""The GM's table over HTTP: a FastAPI app on :class:`~ashfall.web.service.TableService`.

Every endpoint checks its caller's token (``Authorization: Bearer …``, or ``?token=`` where a browser
cannot set headers, e.g. ``EventSource``): a table's GM token reaches every fight of that table; a player
token reaches one fight's player view and acts only for its creatures. No token is 401, a token for the
wrong role or fight is 403, and nothing changes. Writes carry the fight version the caller saw (a
``version`` field or an ``X-Fight-Version`` header): a stale one is 409. Requests are validated by
pydantic (422), bodies are limited to :data:`MAX_BODY` bytes (413). Live updates are Server-Sent Events
per fight; a player's stream carries only the player projection. The OpenAPI document is at
``/openapi.json`` (and ``/docs``).
"""


import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from enum import StrEnum
from pathlib import Path as FsPath
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Path, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ashfall.web.pages import install_pages
from ashfall.web.service import Assembled, NotImplementedYet, Principal, Settings, TableError, TableService
from ashfall.web.store import Conflict, Store

MAX_BODY = 1 << 20
"""The largest request body accepted (an encounter file fits many times over)."""

MAX_ID = 1 << 62
_Id = Annotated[int, Path(ge=1, le=MAX_ID)]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: refuse a request body over ``limit`` bytes with 413, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, counting its body."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await JSONResponse({"detail": "request body too large"}, 413)(scope, receive, send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await JSONResponse({"detail": "request body too large"}, 413)(scope, receive, send)


class _TooLarge(Exception):
    pass


# ----- request models -----

class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Versioned(_Body):
    """A write: the fight version the caller saw (or send it as the ``X-Fight-Version`` header)."""

    version: int | None = Field(default=None, ge=0, le=MAX_ID)


class NewTable(_Body):
    """A new table (campaign)."""

    name: str = Field(min_length=1, max_length=200)


class NewFight(_Body):
    """A new fight: from a shipped encounter, an uploaded file, or assembled at the table.

    ``encounter``: a shipped encounter's name; ``yaml``: an encounter file's text; ``assemble``: sides, library
    creatures with counts and initiative groups, quick-added PCs, an optional map (without one, theater of mind).
    """

    encounter: str | None = Field(default=None, min_length=1, max_length=200)
    yaml: str | None = Field(default=None, min_length=1, max_length=MAX_BODY)
    assemble: Assembled | None = None
    seed: int | None = Field(default=None, ge=0, le=MAX_ID)
    settings: Settings | None = None


class SubmitIntent(Versioned):
    """An intent as JSON (``command_to_json``'s form: its ``type`` tag, ``actor`` and fields)."""

    intent: dict[str, Any]


class AnswerDecision(Versioned):
    """The answer to the pending decision: an option key, or null to decline."""

    answer: str | None = Field(max_length=200)


class Steps(Versioned):
    """How many steps to undo or redo."""

    steps: int = Field(default=1, ge=1, le=10_000)


class NewSettings(Versioned):
    """The fight's GM settings, replaced whole."""

    settings: Settings


class Archive(Versioned):
    """Archive (true) or restore (false) a fight."""

    archived: bool = True


class NewPlayer(_Body):
    """A player link for some creatures of the fight."""

    creatures: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(min_length=1, max_length=50)


class OverrideKind(StrEnum):
    """The GM overrides, each an event with the GM's reason and rule tag GM."""

    HP = "hp"
    DAMAGE = "damage"
    CONDITION = "condition"
    MOVE = "move"
    INITIATIVE = "initiative"
    SKIP_TURN = "skip-turn"
    COMBATANT = "combatant"
    MORALE = "morale"


class Override(Versioned):
    """A GM override: its targets, the change and the GM's reason.

    ``combatant``: add one creature with ``change.add`` = ``{"creature": <library id>, "side": …}`` or
    ``{"pc": {"name", "hp", "dv", "attack_bonus", "damage", "initiative_bonus"}, "side": …}``, optionally ``id``,
    ``name``, ``position`` ``[x, y]`` (a free, passable square; default: the free square nearest its side),
    ``initiative`` (a total; default: rolled) and ``dice`` (``entered``: its dice, initiative first, are asked for);
    or remove the ``targets`` with ``change.remove: true``.
    """

    targets: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=50)
    change: dict[str, Any] = Field(default_factory=dict)
    reason: str = Field(default="", max_length=2000)


class EnteredFaces(Versioned):
    """Faces for the pending dice request, or ``roll_for_me``."""

    faces: list[Annotated[int, Field(ge=1, le=1000)]] = Field(default_factory=list, max_length=100)
    roll_for_me: bool = False


# ----- the app -----

def create_app(db: FsPath | str) -> FastAPI:
    """The table app over the database at ``db`` (created with its folders, migrated)."""
    service = TableService(Store(db))
    app = FastAPI(title="Ashfall GM's table", version="1",
                  description="Persistent, undoable fights over HTTP, with a player view that hides what "
                              "players must not see. Authenticate with `Authorization: Bearer <token>`.")
    app.state.service = service
    app.add_middleware(BodyLimit)

    @app.exception_handler(TableError)
    async def _table_error(request: Request, err: TableError) -> JSONResponse:
        return JSONResponse({"detail": err.message, **err.extra}, err.status)

    @app.exception_handler(Conflict)
    async def _conflict(request: Request, err: Conflict) -> JSONResponse:
        return JSONResponse({"detail": str(err), "version": err.actual}, 409)

    @app.exception_handler(NotImplementedYet)
    async def _not_yet(request: Request, err: NotImplementedYet) -> JSONResponse:
        return JSONResponse({"detail": str(err)}, 501)

    @app.exception_handler(UnicodeError)
    async def _unicode(request: Request, err: UnicodeError) -> JSONResponse:
        return JSONResponse({"detail": "text must be valid Unicode (no lone surrogates)"}, 422)

    # The access checks are async on purpose: each is one quick read of this thread's own SQLite connection (WAL:
    # never waiting for a writer), and a sync dependency would cost a trip through the thread pool, which under
    # load waits for the GIL behind the busy request threads.
    async def caller(request: Request, authorization: Annotated[str | None, Header()] = None,
               token: Annotated[str | None, Query(max_length=200)] = None) -> Principal:
        raw = token
        if authorization and authorization.lower().startswith("bearer "):
            raw = authorization[7:].strip()
        who = service.principal(raw)
        if who is None:
            raise TableError(401, "a valid token is needed")
        return who

    Caller = Annotated[Principal, Depends(caller)]

    async def gm_of_fight(fight_id: _Id, who: Caller) -> Principal:
        if who.role != "gm" or not service.may_read(who, fight_id, gm_only=True):
            raise TableError(403, "this needs the GM's token of this fight's table")
        return who

    async def member_of_fight(fight_id: _Id, who: Caller) -> Principal:
        if not service.may_read(who, fight_id, gm_only=False):
            raise TableError(403, "this token is not for this fight")
        return who

    GM = Annotated[Principal, Depends(gm_of_fight)]
    Member = Annotated[Principal, Depends(member_of_fight)]

    def expected(body: Versioned, header: str | None) -> int:
        if body.version is not None:
            return body.version
        if header is not None and header.isdigit() and len(header) < 19:
            return int(header)
        raise TableError(428, "send the fight version you saw (field 'version' or header X-Fight-Version)")

    VersionHeader = Annotated[str | None, Header(alias="X-Fight-Version")]

    @app.get("/api/encounters", tags=["fights"])
    def encounters() -> dict[str, list[str]]:
        """The shipped encounters a fight can be created from (public: they ship with the program)."""
        return {"encounters": service.shipped()}

    @app.post("/api/tables", status_code=201, tags=["tables"])
    def new_table(body: NewTable) -> dict[str, Any]:
        """Open a new table; the answer holds its GM token, shown once (a new table grants nothing else)."""
        table_id, token = service.create_table(body.name)
        return {"table_id": table_id, "gm_token": token}

    async def gm_of_table(table_id: Annotated[int, Path(ge=1, le=MAX_ID)], who: Caller) -> Principal:
        if who.role != "gm" or who.table_id != table_id:
            raise TableError(403, "this needs the table's GM token")
        return who

    TableGM = Annotated[Principal, Depends(gm_of_table)]

    @app.get("/api/library/creatures", tags=["fights"])
    def library_creatures(who: Caller) -> dict[str, Any]:
        """The library's creatures for a picker (id, name, level, HP, DV, kind, size, weapons): any valid token.

        Nothing in it is secret (the stat blocks ship with the program), but the table answers only its users.
        """
        return {"creatures": service.library_creatures()}

    @app.get("/api/tables/{table_id}/fights", tags=["tables"])
    def list_fights(table_id: Annotated[int, Path(ge=1, le=MAX_ID)], who: TableGM,
                    archived: bool = False) -> dict[str, Any]:
        """The table's fights (archived ones too with ``archived=true``)."""
        return {"fights": service.fights(table_id, archived)}

    @app.post("/api/tables/{table_id}/fights", status_code=201, tags=["tables"])
    def new_fight(table_id: Annotated[int, Path(ge=1, le=MAX_ID)], body: NewFight, who: TableGM) -> dict[str, Any]:
        """Create and start a fight from a shipped encounter, an uploaded file or an assembled fight.

        422 lists every problem (file, field path, line). An assembled fight's creatures come from
        ``GET /api/library/creatures`` or are quick-added PCs (name, HP, DV, attack bonus, damage, initiative
        bonus); entries with the same ``group`` share one initiative die.
        """
        fight_id = service.create_fight(table_id, encounter=body.encounter, yaml=body.yaml, seed=body.seed,
                                        settings=body.settings, assemble=body.assemble)
        return service.gm_view(fight_id)

    @app.get("/api/fights/{fight_id}", tags=["fights"])
    def gm_view(fight_id: _Id, who: GM) -> dict[str, Any]:
        """The GM's full view of the fight."""
        return service.gm_view(fight_id)

    @app.get("/api/fights/{fight_id}/view", tags=["fights"])
    def player_view(fight_id: _Id, who: Member) -> dict[str, Any]:
        """The players' projection: no NPC HP numbers, no hidden creatures, no GM notes."""
        return service.player_view(fight_id)

    @app.get("/api/fights/{fight_id}/intents", tags=["acting"])
    def intents(fight_id: _Id, who: Member,
                actor: Annotated[str | None, Query(max_length=200)] = None) -> dict[str, Any]:
        """Legal intents of a creature (default: the active one) with cost and exact odds per target."""
        if who.role != "gm":
            wanted = actor or service.player_view(fight_id)["active"]
            if wanted not in who.creatures:
                raise TableError(403, "a player sees the intents of their own creatures only")
        return service.legal(fight_id, actor)

    @app.post("/api/fights/{fight_id}/intents", tags=["acting"])
    def submit(fight_id: _Id, body: SubmitIntent, who: Member, x_version: VersionHeader = None) -> dict[str, Any]:
        """Submit an intent: events and explanation rows, or a pending decision; refused: 409 with its rule."""
        return service.submit(fight_id, expected(body, x_version), body.intent, who)

    @app.post("/api/fights/{fight_id}/end-turn", tags=["acting"])
    def end_turn(fight_id: _Id, body: Versioned, who: Member, x_version: VersionHeader = None) -> dict[str, Any]:
        """End the active creature's turn."""
        return service.end_turn(fight_id, expected(body, x_version), who)

    @app.post("/api/fights/{fight_id}/decision", tags=["acting"])
    def decide(fight_id: _Id, body: AnswerDecision, who: Member, x_version: VersionHeader = None) -> dict[str, Any]:
        """Answer the pending decision (GM, or the player whose creature is asked)."""
        return service.answer(fight_id, expected(body, x_version), body.answer, who)

    @app.post("/api/fights/{fight_id}/dice", tags=["acting"])
    def dice(fight_id: _Id, body: EnteredFaces, who: Member, x_version: VersionHeader = None) -> dict[str, Any]:
        """Answer the pending dice request: ``faces`` in range (422 otherwise) or ``roll_for_me``.

        The GM answers any request; a player only their own creatures'.
        """
        return service.enter_dice(fight_id, expected(body, x_version), body.model_dump(), who)

    @app.post("/api/fights/{fight_id}/undo", tags=["history"])
    def undo(fight_id: _Id, body: Steps, who: GM, x_version: VersionHeader = None) -> dict[str, Any]:
        """Undo any number of steps, dice included (kept as a branch redo can play)."""
        return service.undo(fight_id, expected(body, x_version), body.steps)

    @app.post("/api/fights/{fight_id}/redo", tags=["history"])
    def redo(fight_id: _Id, body: Steps, who: GM, x_version: VersionHeader = None) -> dict[str, Any]:
        """Redo undone steps: the same dice and answers, so the same events."""
        return service.redo(fight_id, expected(body, x_version), body.steps)

    @app.get("/api/fights/{fight_id}/log", tags=["history"])
    def log(fight_id: _Id, who: GM, branches: bool = False) -> dict[str, Any]:
        """Every record with its explanation rows (dropped redo branches too with ``branches=true``)."""
        return service.log(fight_id, branches)

    @app.get("/api/fights/{fight_id}/export", tags=["history"])
    def export(fight_id: _Id, who: GM) -> dict[str, Any]:
        """The encounter text and the fight log (canonical JSON lines)."""
        return service.export(fight_id)

    @app.post("/api/fights/{fight_id}/archive", tags=["fights"])
    def archive(fight_id: _Id, body: Archive, who: GM, x_version: VersionHeader = None) -> dict[str, Any]:
        """Archive or restore a fight."""
        return service.archive(fight_id, expected(body, x_version), body.archived)

    @app.put("/api/fights/{fight_id}/settings", tags=["fights"])
    def settings(fight_id: _Id, body: NewSettings, who: GM, x_version: VersionHeader = None) -> dict[str, Any]:
        """Replace the GM settings (NPC HP bands or hidden, hidden creatures, players act, dice, notes)."""
        return service.update_settings(fight_id, expected(body, x_version), body.settings)

    @app.post("/api/fights/{fight_id}/players", status_code=201, tags=["access"])
    def new_player(fight_id: _Id, body: NewPlayer, who: GM) -> dict[str, Any]:
        """A player token for some creatures (shown once; stored hashed)."""
        token_id, token = service.add_player(fight_id, body.creatures)
        return {"token_id": token_id, "token": token, "creatures": body.creatures}

    @app.get("/api/fights/{fight_id}/players", tags=["access"])
    def players(fight_id: _Id, who: GM) -> dict[str, Any]:
        """The fight's player tokens (ids, creatures, revoked; never the tokens)."""
        return {"players": service.tokens(fight_id)}

    @app.delete("/api/tables/{table_id}/tokens/{token_id}", tags=["access"])
    def revoke(table_id: Annotated[int, Path(ge=1, le=MAX_ID)], token_id: _Id, who: TableGM) -> dict[str, Any]:
        """Revoke one of the table's tokens."""
        service.revoke(table_id, token_id)
        return {"revoked": token_id}

    @app.post("/api/fights/{fight_id}/overrides/{kind}", tags=["overrides"])
    def override(fight_id: _Id, kind: OverrideKind, body: Override, who: GM,
                 x_version: VersionHeader = None) -> dict[str, Any]:
        """A GM override as an event with the GM's reason and rule GM; refused: 409 with its rule and reason.

        Kinds: ``hp``, ``damage``, ``condition``, ``move``, ``initiative``, ``skip-turn``, ``morale``, and
        ``combatant`` (add a creature from the library or a quick-added PC mid-fight, or remove creatures: a removed
        active creature's turn passes to the next in the order).
        """
        return service.override(fight_id, expected(body, x_version), kind.value, body.model_dump())

    @app.get("/api/fights/{fight_id}/stream", tags=["fights"], response_class=StreamingResponse)
    async def stream(fight_id: _Id, who: Member,
                     max_events: Annotated[int | None, Query(ge=1, le=100_000)] = None) -> StreamingResponse:
        """Server-Sent Events: the caller's view each time the fight changes (a player: the projection only).

        The token is checked again while the stream is open: once it is revoked, the stream sends a ``revoked``
        event and ends.
        """
        gm = who.role == "gm"

        def view() -> dict[str, Any]:
            return service.gm_view(fight_id) if gm else service.player_view(fight_id)

        await run_in_threadpool(service.fight_row, fight_id)

        async def events() -> AsyncIterator[str]:
            sent, seen = 0, -1
            while max_events is None or sent < max_events:
                if not await run_in_threadpool(service.still_valid, who):
                    yield "event: revoked\ndata: {}\n\n"
                    return
                version = await run_in_threadpool(service.version, fight_id)
                if version != seen:
                    data = await run_in_threadpool(view)
                    seen = data["version"]
                    sent += 1
                    yield f"event: {'gm' if gm else 'player'}\nid: {seen}\ndata: {json.dumps(data)}\n\n"
                else:
                    await asyncio.sleep(0.1)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    install_pages(app, service)
    return app


__all__ = ["MAX_BODY", "BodyLimit", "create_app"]
