"""The GM's table in the browser: the fights list, the GM screen and the player screen, plus two read-only helpers.

The pages are server-rendered Jinja2 templates with a little plain JavaScript (``web/static``, no build
step, no third-party front-end code). The scripts call only the HTTP API of :mod:`ashfall.web.app`; a page
itself carries no fight data, so it holds no rules and cannot leak what its caller may not see. A page is
reached with its token in the link (``?token=``): the script keeps it in ``sessionStorage`` and sends it
as a bearer token. A player's link on a GM page is 403, before anything is rendered.

Read-only endpoints the pages need and the API lacked are added here, each answered by the engine, the
rules' own functions (:mod:`ashfall.web.scene`) or the catalog, never by rule logic of this module:

* ``GET /api/fights/{id}/move?actor=&x=&y=``: the cheapest path to a square, its cost in feet as the engine
  prices it (or the engine's refusal with rule and reason) and the enemies whose reach it leaves (RX-21),
  so the GM sees the Attacks of Opportunity before moving;
* ``GET /api/fights/{id}/tactics?target=&attacker=&weapon=`` (GM): flanking and cover against a target, from each
  creature hostile to it (:func:`~ashfall.web.scene.tactics`);
* ``GET /api/fights/{id}/morale`` (GM): each NPC group's morale, the checks due and forecast with their DC
  parts (:func:`~ashfall.web.scene.morale_panel`);
* ``GET /api/fights/{id}/rail`` (GM): Delay and Ready for the initiative rail (:func:`~ashfall.web.scene.rail_marks`);
* ``GET /api/rules/{rule_id}``: a rule's catalog text, as ``ashfall rule`` prints it.

The three GM readers take the service's live fight under its lock (``TableService.reading``), the way its own
readers do, so they see one consistent state.

"""

from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel, ConfigDict, Field

from ashfall.core.rule_ids import catalog, describe
from ashfall.core.types import Condition, DamageType, Save
from ashfall.families.morale.rules import Status
from ashfall.web.scene import morale_panel, rail_marks, tactics
from ashfall.web.service import Principal, TableError, TableService

HERE = Path(__file__).parent
TEMPLATES = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]))
MAX_ID = 1 << 62


def rule_entry(rule_id: str) -> dict[str, Any] | None:
    """A rule's catalog entry (its text, source lines and status), or None for an unknown ID."""
    key = rule_id.strip().upper()
    entry = catalog().get(key)
    if entry is None:
        return None
    return {"id": key, "text": describe(key), "lines": entry.get("lines", ""), "status": entry.get("status", "")}


class CheckIntent(BaseModel):
    """An intent to check without acting (``command_to_json``'s form)."""

    model_config = ConfigDict(extra="forbid")

    intent: dict[str, Any]
    version: int | None = Field(default=None, ge=0, le=MAX_ID)
    """Ignored (a check changes nothing); accepted so a page may send what it sends with every intent."""


def _who(service: TableService, token: str | None) -> Principal:
    who = service.principal(token)
    if who is None:
        raise TableError(401, "this page needs the link with its token")
    return who


def _page(template: str, **context: Any) -> HTMLResponse:
    return HTMLResponse(TEMPLATES.get_template(template).render(**context),
                        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


def install_pages(app: FastAPI, service: TableService) -> None:
    """Add the pages (``/table/...``), their static files and the two read-only helpers to the table's app."""
    app.mount("/table/static", StaticFiles(directory=HERE / "static"), name="table-static")
    Token = Annotated[str | None, Query(max_length=200)]
    Id = Annotated[int, PathParam(ge=1, le=MAX_ID)]

    def bearer(request: Request, token: str | None) -> str | None:
        header = request.headers.get("authorization", "")
        return header[7:].strip() if header.lower().startswith("bearer ") else token

    @app.get("/table", response_class=HTMLResponse, include_in_schema=False)
    def fights_page(token: Token = None) -> HTMLResponse:
        """The fights list of the GM's table (without a token: open a new table)."""
        if not token:
            return _page("start.html")
        who = _who(service, token)
        if who.role != "gm":
            raise TableError(403, "this page needs the GM's link")
        return _page("fights.html", table_id=who.table_id, encounters=service.shipped())

    @app.get("/table/fights/{fight_id}", response_class=HTMLResponse, include_in_schema=False)
    def gm_page(fight_id: Id, token: Token = None) -> HTMLResponse:
        """The GM screen of a fight."""
        who = _who(service, token)
        if who.role != "gm" or not service.may_read(who, fight_id, gm_only=True):
            raise TableError(403, "this page needs the GM's link of this fight's table")
        row = service.fight_row(fight_id)
        return _page("gm.html", fight_id=fight_id, table_id=who.table_id, name=row.name,
                     conditions=[c.value for c in Condition], damage_types=[d.value for d in DamageType],
                     saves=[s.value for s in Save], morale=[m.value for m in Status])

    @app.get("/table/fights/{fight_id}/player", response_class=HTMLResponse, include_in_schema=False)
    def player_page(fight_id: Id, token: Token = None) -> HTMLResponse:
        """The player screen of a fight (the GM may open it too, to see what players see)."""
        who = _who(service, token)
        if not service.may_read(who, fight_id, gm_only=False):
            raise TableError(403, "this link is not for this fight")
        row = service.fight_row(fight_id)
        return _page("player.html", fight_id=fight_id, name=row.name, creatures=list(who.creatures))

    def member(request: Request, fight_id: Id, token: Token = None) -> Principal:
        """The caller, a member of this fight (checked before the request's own fields: 401/403 come first)."""
        who = _who(service, bearer(request, token))
        if not service.may_read(who, fight_id, gm_only=False):
            raise TableError(403, "this token is not for this fight")
        return who

    Member = Annotated[Principal, Depends(member)]

    @app.get("/api/fights/{fight_id}/move", tags=["acting"])
    def move_preview(who: Member, fight_id: Id, x: Annotated[int, Query(ge=0, le=10_000)],
                     y: Annotated[int, Query(ge=0, le=10_000)],
                     actor: Annotated[str | None, Query(max_length=200)] = None) -> Any:
        """Read only: the path to a square, its cost in feet (or the engine's refusal) and the AoOs it provokes."""
        if who.role != "gm":
            wanted = actor or service.player_view(fight_id)["active"]
            if wanted not in who.creatures:
                raise TableError(403, "a player previews their own creatures' moves only")
        return service.move_preview(fight_id, actor, (x, y))

    def gm_member(who: Member) -> Principal:
        """The caller, the GM of this fight's table."""
        if who.role != "gm":
            raise TableError(403, "this needs the GM's token")
        return who

    GM = Annotated[Principal, Depends(gm_member)]
    CreatureId = Annotated[str, Query(min_length=1, max_length=200)]

    @app.get("/api/fights/{fight_id}/tactics", tags=["table pages"])
    def tactics_view(who: GM, fight_id: Id, target: CreatureId, attacker: CreatureId | None = None,
                     weapon: CreatureId | None = None) -> Any:
        """Read only (GM): flanking and cover against a target, from each creature hostile to it (POS-1, COV).

        The chosen attacker (default: the active creature) comes first; ``weapon`` is the one its attack uses.
        """
        with service.reading(fight_id) as live:
            state = live.engine.state
            for wanted in (target, attacker):
                if wanted is not None and wanted not in state.combatants:
                    raise TableError(404, f"no creature {wanted!r} in this fight")
            return {"version": live.version, **tactics(state, target, attacker, weapon)}

    @app.get("/api/fights/{fight_id}/morale", tags=["table pages"])
    def morale_view(who: GM, fight_id: Id) -> Any:
        """Read only (GM): each NPC group's morale, the check due now and the checks its next events would call."""
        with service.reading(fight_id) as live:
            return {"version": live.version, **morale_panel(live.engine.state, live.engine.log, live.pending)}

    @app.get("/api/fights/{fight_id}/rail", tags=["table pages"])
    def rail_view(who: GM, fight_id: Id) -> Any:
        """Read only (GM): who delayed (DEL-2) and each readied action with its trigger (RDY-2), for the rail."""
        with service.reading(fight_id) as live:
            return {"version": live.version, **rail_marks(live.engine.state, live.engine.log)}

    @app.post("/api/fights/{fight_id}/check", tags=["acting"])
    def check(who: Member, fight_id: Id, body: CheckIntent) -> Any:
        """Read only: would the engine accept this intent now? Its rule, or the refusal's rule and reason."""
        if who.role != "gm" and body.intent.get("actor") not in who.creatures:
            raise TableError(403, "a player checks their own creatures' intents only")
        return service.check_intent(fight_id, body.intent)

    @app.get("/api/rules/{rule_id}", tags=["rules"])
    def rule_text(rule_id: Annotated[str, PathParam(min_length=1, max_length=40)]) -> Any:
        """A rule's catalog text (public: the catalog ships with the program), as ``ashfall rule`` prints it."""
        entry = rule_entry(rule_id)
        if entry is None:
            return JSONResponse({"detail": f"unknown rule ID {rule_id!r}"}, 404)
        return entry


__all__ = ["install_pages", "rule_entry"]
