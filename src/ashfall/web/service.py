"""The GM's table as service functions: fights built, played, undone and resumed over the event store.

:class:`TableService` is what the HTTP app (and the coming pages) call; it holds no HTTP. Every fight is
an encounter text, a seed and the engine's records in the :class:`~ashfall.web.store.Store`; the service
keeps a live :class:`~ashfall.engine.Engine` per fight in memory and rebuilds it by
:func:`~ashfall.engine.replay` whenever the store's version differs from the one it holds (a restart,
another process). Writes on one fight are serialised by a lock and checked against the version the
request saw (optimistic concurrency): a mismatch is a :class:`~ashfall.web.store.Conflict`, never a lost
update. A write is acknowledged (the function returns) only after the store committed it.

Only ``ashfall.engine``'s public names, :mod:`ashfall.explain`, :mod:`ashfall.encounters` and
:mod:`ashfall.content` are used here; the odds of an attack intent come from :mod:`ashfall.web.odds`.

Dice entered by people: a creature whose dice setting is ``entered`` is in the engine's ``entered`` set; when
one of its dice is needed the engine raises ``NeedDice`` before anything changes, and the fight stores a pending
**dice request** (:func:`dice_request_json`) that :meth:`TableService.enter_dice` answers with faces in range or
"roll it for me". Entered faces are stored in the record (``faces``), so resume, undo and redo replay them.
GM overrides (:meth:`TableService.override`) are the ``gm`` family's intents, stored like any record; adding a
combatant mid-fight carries its whole stat block (from the library, or a quick-added PC) in the intent, so a replay
needs no library.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ashfall.content.library import UnknownIdError
from ashfall.content.loader import default_library
from ashfall.encounters import build, encounter_from_text, encounters_root, shipped_encounters
from ashfall.encounters.building import BuildInfo
from ashfall.engine import (
    Answer,
    Combatant,
    Decision,
    DiceRequest,
    Engine,
    Event,
    FaceOutOfRange,
    FightLog,
    FirstOption,
    IntentFormatError,
    IntentRecord,
    NeedDecision,
    NeedDice,
    Refused,
    ReplayDivergence,
    StartCombat,
    command_from_json,
    command_tag,
    command_to_json,
    dumps,
    dumps_log,
    legal_intents,
    loads,
    loads_log,
    replay,
)
from ashfall.engine.record import faces_from_json
from ashfall.explain import log_rows, names_of
from ashfall.families.gm.moves import OVERRIDES, ended_conditions
from ashfall.families.gm.rules_roster import QuickPcError, quick_pc
from ashfall.files.yaml_marks import InputError
from ashfall.rules.defense import defense_value, hull
from ashfall.ruleset import preset
from ashfall.web import views
from ashfall.web.odds import intent_odds
from ashfall.web.scene import scene
from ashfall.web.store import Conflict, FightRow, Store, TokenRow

Role = Literal["gm", "player"]


class NotImplementedYet(Exception):
    """A table feature whose engine support has not landed yet (entered dice, GM overrides)."""


class TableError(Exception):
    """A request the table cannot carry out, with the HTTP status that says why."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


class RefusedIntent(TableError):
    """The engine refused an intent: its rule and reason; nothing was stored."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(409, f"{rule}: {reason}", rule=rule, reason=reason)


class Settings(BaseModel):
    """A fight's GM settings.

    Attributes:
        npc_hp: How the player view shows NPC hit points: health bands or nothing.
        players_act: Players may submit intents and end turns for their own creatures.
        npc_decisions: NPC decisions (reactions …) are asked of the GM (``ask``) or take the first option.
        hidden: Creatures the GM hides from the player view, whatever their conditions.
        notes: GM-only notes.
        dice: Who rolls each creature's dice: ``engine`` (the default: the fight's seeded RNG) or ``entered`` (a
            person enters the faces when the fight asks with a dice request).
    """

    model_config = ConfigDict(extra="forbid")

    npc_hp: Literal["bands", "hidden"] = "bands"
    players_act: bool = False
    npc_decisions: Literal["ask", "auto"] = "ask"
    hidden: list[str] = Field(default_factory=list, max_length=200)
    notes: str = Field(default="", max_length=20_000)
    dice: dict[str, Literal["engine", "entered"]] = Field(default_factory=dict)


class QuickPc(BaseModel):
    """A PC quick-added by its table numbers (see :func:`ashfall.families.gm.rules_roster.quick_pc`)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    hp: int = Field(ge=1, le=10_000)
    dv: int = Field(ge=0, le=40)
    attack_bonus: int = Field(ge=-8, le=22)
    damage: str = Field(min_length=3, max_length=20, description="Dice plus a flat part, e.g. 1d8+3.")
    initiative_bonus: int = Field(default=0, ge=-50, le=50)


class AddCombatant(BaseModel):
    """A creature to add mid-fight: a library creature (``creature``) or a quick-added PC (``pc``), on a side.

    ``position`` must be a free, passable square on a map (default: the free square nearest its side); ``initiative``
    is the total the GM gives (default: rolled, INIT-1: by the engine, or asked as a dice request when ``dice`` is
    ``entered``).
    """

    model_config = ConfigDict(extra="forbid")

    creature: str | None = Field(default=None, min_length=1, max_length=100)
    pc: QuickPc | None = None
    side: str = Field(min_length=1, max_length=60)
    id: str | None = Field(default=None, min_length=1, max_length=60, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    name: str | None = Field(default=None, min_length=1, max_length=60)
    position: tuple[Annotated[int, Field(ge=0, le=1000)], Annotated[int, Field(ge=0, le=1000)]] | None = None
    initiative: int | None = Field(default=None, ge=-100, le=200)
    dice: Literal["engine", "entered"] | None = None


class CombatantChange(BaseModel):
    """The ``change`` of a combatant override: ``add`` one creature, or ``remove`` the targets."""

    model_config = ConfigDict(extra="forbid")

    add: AddCombatant | None = None
    remove: bool = False


class AssembledSide(BaseModel):
    """A side of an assembled fight. ``controller`` defaults to ``human`` for a side with a quick-added PC."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    controller: Literal["ai", "human"] | None = None
    morale: bool = True


class AssembledEntry(BaseModel):
    """Creatures of an assembled fight: ``count`` of a library creature, or one quick-added PC, on a side.

    ``group`` names an initiative group: its members share one initiative die (see docs/table.md). On a map,
    ``position`` (one creature) or ``positions`` (one per creature) place them.
    """

    model_config = ConfigDict(extra="forbid")

    creature: str | None = Field(default=None, min_length=1, max_length=100)
    pc: QuickPc | None = None
    side: str = Field(min_length=1, max_length=60)
    count: int = Field(default=1, ge=1, le=20)
    id: str | None = Field(default=None, min_length=1, max_length=60, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    name: str | None = Field(default=None, min_length=1, max_length=60)
    group: str | None = Field(default=None, min_length=1, max_length=60)
    position: tuple[Annotated[int, Field(ge=0, le=200)], Annotated[int, Field(ge=0, le=200)]] | None = None
    positions: list[tuple[Annotated[int, Field(ge=0, le=200)], Annotated[int, Field(ge=0, le=200)]]] | None = Field(
        default=None, max_length=20)


class AssembledMap(BaseModel):
    """A map for an assembled fight: its rows as in an encounter file (``#`` wall, ``.`` floor …)."""

    model_config = ConfigDict(extra="forbid")

    rows: str = Field(min_length=1, max_length=20_000)


class Assembled(BaseModel):
    """A fight put together at the table from the library and quick-added PCs; no map: theater of mind."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="Assembled fight", min_length=1, max_length=200)
    ruleset: Literal["ashfall-1", "ashfall-2"] = "ashfall-2"
    sides: list[AssembledSide] = Field(min_length=2, max_length=8)
    combatants: list[AssembledEntry] = Field(min_length=1, max_length=50)
    map: AssembledMap | None = None


PC_BLOCK = "pc-"
"""The prefix of a quick-added PC's stat block id (``pc-vex``): its combatant id is the name's (``vex``)."""


def assembled_encounter(fight: Assembled) -> str:
    """The encounter file (YAML text) of an assembled fight: stored, exported and replayed like an uploaded one.

    Quick-added PCs become inline stat blocks (:func:`~ashfall.families.gm.rules_roster.quick_pc`); the entries
    keep the request's order, so a problem's ``combatants[i]`` path names the request's entry.

    Raises:
        TableError: 422 for an entry with both or neither of ``creature`` and ``pc``, a ``count`` with a PC, or
            numbers a quick-added PC cannot have.
    """
    import yaml

    ruleset = preset(fight.ruleset)
    human = {e.side for e in fight.combatants if e.pc is not None}
    blocks: set[str] = set()
    entries: list[dict[str, Any]] = []
    for i, e in enumerate(fight.combatants):
        if (e.pc is None) == (e.creature is None):
            raise TableError(422, f"assemble.combatants[{i}]: give either creature (a library id) or pc")
        entry: dict[str, Any] = {"side": e.side}
        if e.pc is not None:
            if e.count != 1:
                raise TableError(422, f"assemble.combatants[{i}].count: a quick-added PC is one creature")
            pc = e.pc
            slug = _slug(e.id or pc.name) or "pc"
            block_id = _free_id(f"{PC_BLOCK}{slug}", blocks)  # its own stat block, never a library id
            blocks.add(block_id)
            try:
                block = quick_pc(block_id, pc.name, hp=pc.hp, dv=pc.dv, attack_bonus=pc.attack_bonus,
                                 damage=pc.damage, initiative_bonus=pc.initiative_bonus, ruleset=ruleset)
            except QuickPcError as err:
                raise TableError(422, f"assemble.combatants[{i}].pc.{err}") from None
            entry["creature"] = block.model_dump(mode="json", exclude_defaults=True)
            entry["id"] = e.id or slug
        else:
            entry["creature"] = e.creature
            if e.count != 1:
                entry["count"] = e.count
        for key in ("id", "name"):
            if getattr(e, key) is not None and key not in entry:
                entry[key] = getattr(e, key)
        if e.position is not None:
            entry["position"] = list(e.position)
        if e.positions is not None:
            entry["positions"] = [list(sq) for sq in e.positions]
        if e.group is not None:
            entry["initiative_group"] = e.group
        entries.append(entry)
    doc: dict[str, Any] = {
        "name": fight.name, "ruleset": fight.ruleset,
        "sides": [{"name": s.name, "controller": s.controller or ("human" if s.name in human else "ai"),
                   "morale": s.morale} for s in fight.sides],
        "combatants": entries}
    if fight.map is not None:
        doc["map"] = {"rows": fight.map.rows}
    return "# assembled at the table\n" + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


class DiceSource(Protocol):
    """Who rolls a creature's dice. ``engine``: the fight's seeded RNG; ``entered``: a person."""

    @property
    def kind(self) -> str:
        """``engine`` or ``entered``."""
        ...

    def ready(self) -> None:
        """Raise :class:`NotImplementedYet` when this source cannot roll."""
        ...


@dataclass(frozen=True, slots=True)
class EngineDice:
    """The engine's seeded RNG rolls (recorded by the seed, so replay rolls them again)."""

    kind: str = "engine"

    def ready(self) -> None:
        """The engine's dice are always ready."""


@dataclass(frozen=True, slots=True)
class EnteredDice:
    """Dice entered by a person: a dice request per roll, faces in range, stored with the record.

    The engine asks with ``NeedDice`` (rolled back like ``NeedDecision``); the faces are recorded in the IntentRecord.
    """

    kind: str = "entered"

    def ready(self) -> None:
        """Entered dice are always ready: the fight waits for the faces."""


def dice_source(settings: Settings, creature: str) -> DiceSource:
    """The dice source of one creature under the fight's settings."""
    return EnteredDice() if settings.dice.get(creature) == "entered" else EngineDice()


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: a GM token of a table, or a player token of one fight and its creatures."""

    token_id: int
    role: Role
    table_id: int
    fight_id: int | None
    creatures: tuple[str, ...]


def hash_token(token: str) -> str:
    """The stored form of a token (tokens themselves are never stored)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh random token."""
    return secrets.token_urlsafe(32)


@dataclass
class Live:
    """A fight in memory: its engine at the store's version, and what the engine does not hold."""

    row: FightRow
    engine: Engine
    info: BuildInfo
    version: int
    settings: Settings
    pending: dict[str, Any] | None
    legal: dict[tuple[int, str], dict[str, Any]] | None = None
    """The last legal-intents answer by (version, actor): pages ask again for the same state."""


def _record_json(record: IntentRecord) -> dict[str, Any]:
    data: dict[str, Any] = {"intent": command_to_json(record.intent), "answers": list(record.answers)}
    if record.faces:
        data["faces"] = [[index, face] for index, face in record.faces]
    return data


def dice_request_json(request: DiceRequest, names: dict[str, str]) -> dict[str, Any]:
    """A dice request as data, with the words a table shows ("Vex's attack roll against Raider 2: 1d20")."""
    roll = request.roll
    owner = names.get(roll.owner or "", roll.owner or "the GM")
    target = names.get(roll.target or "", roll.target) if roll.target else None
    dice = f"{request.count}d{request.sides}"
    if roll.kind == "attack":
        what = f"{owner}'s attack roll" + (f" against {target}" if target else "")
    elif roll.kind == "damage":
        what = f"damage of {owner}'s {roll.source or 'attack'}" + (f" against {target}" if target else "")
    elif roll.kind == "save":
        what = f"{owner}'s {roll.source + ' ' if roll.source else ''}save"
    elif roll.kind == "morale":
        what = f"morale check of {owner}'s group{f' ({roll.source})' if roll.source else ''}"
    else:
        what = f"{owner}'s {roll.kind}{f' ({roll.source})' if roll.source else ''}"
    if request.nth > 1:
        what += f", die {request.nth}"
    return {"owner": roll.owner, "kind": roll.kind, "rule": roll.rule, "target": roll.target, "source": roll.source,
            "index": request.index, "sides": request.sides, "count": request.count, "nth": request.nth,
            "dice": dice, "text": f"{what}: {dice}"}


def _faces(pairs: Sequence[Sequence[int | None]]) -> dict[int, int | None]:
    return {int(index): face for index, face in ((p[0], p[1]) for p in pairs) if index is not None}


def decision_json(decision: Decision) -> dict[str, Any]:
    """A decision as data for a prompt."""
    return {
        "actor": decision.actor, "kind": decision.kind, "prompt": decision.prompt, "text": decision.describe(),
        "options": [{"key": o.key, "label": o.label, "rule": str(o.rule)} for o in decision.options],
        "optional": decision.optional, "rule": str(decision.rule), "about": decision.about,
    }


def rows_json(events: Sequence[Event], state_names: dict[str, str]) -> list[dict[str, Any]]:
    """The explanation rows of some events (the same library the CLI prints with), as JSON data."""
    from dataclasses import asdict

    names = names_of(state_names.items())
    return [asdict(r) for r in log_rows(list(events), names)]


class TableService:
    """The GM's table over one store: tables, fights, acting, undo/redo, views and tokens."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._live: dict[int, Live] = {}
        self._guard = threading.Lock()
        self._locks: dict[int, threading.Lock] = {}

    # ----- tokens -----

    def create_table(self, name: str) -> tuple[int, str]:
        """A new table and its GM token (returned once; only its hash is stored)."""
        token = new_token()
        return self.store.create_table(name, hash_token(token)), token

    def principal(self, token: str | None) -> Principal | None:
        """Who a token belongs to; None for no token, an unknown one or a revoked one."""
        if not token:
            return None
        row: TokenRow | None = self.store.token(hash_token(token))
        if row is None or row.revoked:
            return None
        role: Role = "gm" if row.role == "gm" else "player"
        return Principal(row.id, role, row.table_id, row.fight_id, row.creatures)

    def add_player(self, fight_id: int, creatures: Sequence[str]) -> tuple[int, str]:
        """A player token for some of a fight's creatures; returns its id and the token."""
        with self.reading(fight_id) as live:
            table_id = live.row.table_id
            unknown = [c for c in creatures if c not in live.engine.state.combatants]
        if unknown:
            raise TableError(422, f"no combatant {unknown[0]!r} in this fight")
        token = new_token()
        token_id = self.store.add_token(hash_token(token), "player", table_id, fight_id, tuple(creatures))
        return token_id, token

    def revoke(self, table_id: int, token_id: int) -> None:
        """Revoke one of a table's tokens."""
        row = self.store.token_by_id(token_id)
        if row is None or row.table_id != table_id:
            raise TableError(404, "no such token at this table")
        self.store.revoke(token_id)

    def tokens(self, fight_id: int) -> list[dict[str, Any]]:
        """The player tokens of a fight (ids, creatures, revoked; never the tokens)."""
        return [{"id": t.id, "creatures": list(t.creatures), "revoked": t.revoked}
                for t in self.store.fight_tokens(fight_id)]

    # ----- fights -----

    @staticmethod
    def shipped() -> list[str]:
        """The names of the shipped encounters."""
        return [p.stem for p in shipped_encounters()]

    def create_fight(self, table_id: int, *, encounter: str | None = None, yaml: str | None = None,
                     seed: int | None = None, settings: Settings | None = None,
                     assemble: Assembled | None = None) -> int:
        """Create a fight from a shipped encounter's name, uploaded YAML text or an assembled fight, and start it.

        An assembled fight is stored as the encounter file it makes (:func:`assembled_encounter`). When the settings
        have some creatures' dice ``entered``, their initiative is a dice request: the fight is stored with the
        start pending (round 0, nobody's turn) until the faces are entered.

        Raises:
            TableError: 422 with every problem (file, field path, line) when the encounter does not load.
        """
        if sum(x is not None for x in (encounter, yaml, assemble)) != 1:
            raise TableError(422, "give exactly one of 'encounter' (a shipped name), 'yaml' (the file's text) and "
                                  "'assemble' (sides and creatures)")
        if assemble is not None:
            text, source = assembled_encounter(assemble), "assembled"
        elif encounter is not None:
            path = next((p for p in shipped_encounters() if p.stem == encounter), None)
            if path is None:
                raise TableError(404, f"no shipped encounter {encounter!r}", known=self.shipped())
            text, source = path.read_text(encoding="utf-8"), f"shipped:{encounter}"
        else:
            text, source = str(yaml), "upload"
        engine, info = self._build(text, source, seed)
        chosen = settings or Settings()
        self._check_settings(engine, chosen)
        engine.entered = frozenset(c for c, how in chosen.dice.items() if how == "entered")
        start = StartCombat(info.ambushers)
        try:
            events = engine.start(ambushers=info.ambushers)
        except NeedDice as asked:  # an entered creature's initiative (or ambush Stealth): the start waits for it
            names = {c.id: c.name for c in engine.state.combatants.values()}
            pending = {"command": command_to_json(start), "answers": [], "faces": [],
                       "dice": dice_request_json(asked.request, names)}
            return self.store.create_fight(table_id, info.name, source, text, engine.state.ruleset.name, info.seed,
                                           chosen.model_dump(), None, "", pending)
        first = engine.records[0]
        return self.store.create_fight(table_id, info.name, source, text, engine.state.ruleset.name, info.seed,
                                       chosen.model_dump(), _record_json(first), dumps(events))

    @staticmethod
    def _build(text: str, source: str, seed: int | None) -> tuple[Engine, BuildInfo]:
        file = source.split(":", 1)[1] + ".yaml" if source.startswith("shipped:") else f"{source}.yaml"
        try:
            # relative paths an encounter names resolve inside the shipped encounters' folder only
            spec = encounter_from_text(text, file, encounters_root(), allow_dirs=())
        except InputError as err:
            problems = [{"file": p.file, "path": p.path, "line": p.line, "message": p.message} for p in err.problems]
            raise TableError(422, "the encounter does not load", problems=problems) from err
        return build(spec, seed)

    @staticmethod
    def _check_settings(engine: Engine, settings: Settings, before: Settings | None = None) -> None:
        # ids the settings named already stay acceptable: a creature the GM removed (or an add undone) may be back
        known = {*before.hidden, *before.dice} if before is not None else set()
        unknown = [c for c in (*settings.hidden, *settings.dice) if c not in engine.state.combatants and c not in known]
        if unknown:
            raise TableError(422, f"settings name no combatant {unknown[0]!r}")
        for creature in settings.dice:
            dice_source(settings, creature).ready()

    def fights(self, table_id: int, archived: bool = False) -> list[dict[str, Any]]:
        """A table's fights (archived ones only when asked)."""
        return [{"id": f.id, "name": f.name, "source": f.source, "ruleset": f.ruleset, "seed": f.seed,
                 "version": f.version, "archived": f.archived}
                for f in self.store.fights(table_id) if archived or not f.archived]

    def fight_row(self, fight_id: int) -> FightRow:
        """A fight's stored row.

        Raises:
            TableError: 404, no such fight.
        """
        row = self.store.fight(fight_id)
        if row is None:
            raise TableError(404, "no such fight")
        return row

    def _lock(self, fight_id: int) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(fight_id, threading.Lock())

    @contextmanager
    def reading(self, fight_id: int) -> Iterator[Live]:
        """The live fight at the store's version (rebuilt by replay when the store moved on), under its lock.

        Read only: for views of the state (the pages' GM readers); every change goes through the service's own
        methods, which record it.
        """
        with self._lock(fight_id):
            yield self._current(fight_id)

    def _current(self, fight_id: int) -> Live:
        version = self.store.version(fight_id)
        live = self._live.get(fight_id)
        if live is not None and live.version == version:
            return live
        live = self._resume(self.fight_row(fight_id))
        self._live[fight_id] = live
        return live

    def _resume(self, row: FightRow) -> Live:
        """Rebuild a fight from its stored records by replay (undone records replayed, then undone again)."""
        engine, info = self._build(row.encounter, row.source, row.seed)
        initial = engine.initial_state
        stored = self.store.records(row.id)
        records: list[IntentRecord] = []
        events: list[Event] = []
        for r in stored:
            got = loads(r.events) if r.events else []
            records.append(IntentRecord(r.seq, command_from_json(r.record["intent"]), tuple(r.record["answers"]),
                                        len(events), len(got), faces_from_json(r.record.get("faces"))))
            events.extend(got)
        log = FightLog(row.seed, row.ruleset, tuple(records), tuple(events), {})
        engine = replay(log, initial)
        live_count = sum(1 for r in stored if not r.undone)
        if live_count < len(stored):
            engine.undo(live_count)
        settings = Settings.model_validate(row.settings)
        live = Live(row, engine, info, row.version, settings, row.pending)
        self._controllers(live)
        return live

    @staticmethod
    def _controllers(live: Live) -> None:
        """Nobody answers for people: PCs' decisions (and NPCs' unless set to ``auto``) become prompts.

        The creatures whose dice are ``entered`` are the engine's ``entered`` set (their dice become requests).
        """
        live.engine.entered = frozenset(c for c, source in live.settings.dice.items() if source == "entered")
        auto = live.settings.npc_decisions == "auto"
        live.engine.controllers = {c.id: FirstOption() for c in live.engine.state.combatants.values()
                                   if auto and c.controller != "human"}

    # ----- reading -----

    def gm_view(self, fight_id: int) -> dict[str, Any]:
        """The whole fight for the GM."""
        with self.reading(fight_id) as live:
            out = views.gm_view(live.engine.state, self._meta(live), live.settings.model_dump(), live.pending)
            out["scene"] = scene(live.engine.state)
            return out

    def player_view(self, fight_id: int) -> dict[str, Any]:
        """The players' projection of the fight."""
        with self.reading(fight_id) as live:
            out = views.player_view(live.engine.state, self._meta(live), live.settings.model_dump(), live.pending)
            out["scene"] = scene(live.engine.state)
            return out

    def version(self, fight_id: int) -> int:
        """A fight's version as stored."""
        return self.store.version(fight_id)

    def still_valid(self, by: Principal) -> bool:
        """Whether a caller's token still holds (not revoked since the caller was let in): open streams ask."""
        row = self.store.token_by_id(by.token_id)
        return row is not None and not row.revoked

    @staticmethod
    def _meta(live: Live) -> dict[str, Any]:
        engine = live.engine
        last = engine.records[-1] if engine.records else None
        ended = ended_conditions(engine.log[last.first_event:last.end_event]) if last else ()
        return {"id": live.row.id, "name": live.row.name, "version": live.version, "ruleset": live.row.ruleset,
                "archived": live.row.archived, "undo_available": max(0, engine.intents_done - 1),
                "redo_available": engine.redo_available,
                "reminders": [{"target": r.target, "condition": r.condition, "rule": r.rule,
                               "text": f"{engine.state.get(r.target).name} is no longer {r.condition}"}
                              for r in ended]}

    def log(self, fight_id: int, branches: bool = False) -> dict[str, Any]:
        """The live line's records with their events' explanation rows (and dropped branches when asked)."""
        with self.reading(fight_id) as live:
            names = {c.id: c.name for c in live.engine.state.combatants.values()}
            version = live.version
        out = [{"seq": r.seq, "branch": r.branch, "undone": r.undone, **r.record,
                "rows": rows_json(loads(r.events) if r.events else [], names)}
               for r in self.store.records(fight_id, None if branches else 0)]
        return {"version": version, "records": out}

    def legal(self, fight_id: int, actor: str | None = None) -> dict[str, Any]:
        """The legal intents of a creature (default: the active one), each with its cost and exact odds."""
        with self.reading(fight_id) as live:
            engine = live.engine
            who = actor or engine.state.active_id
            if who is None or who not in engine.state.combatants:
                raise TableError(404, "no such creature (or no active creature)")
            known = (live.legal or {}).get((live.version, who))
            if known is not None:
                return known
            out: list[dict[str, Any]] = []
            actions = engine.rulebook.actions
            for intent in legal_intents(engine, who):  # each checked by legal_intents already: not again
                tag = command_tag(intent)
                definition = actions[type(intent)]
                out.append({"intent": command_to_json(intent), "type": tag, "rule": str(definition.rule),
                            "cost": definition.cost(engine.state, intent), "bonus_action": definition.bonus,
                            "free": definition.free, "odds": intent_odds(engine.state, intent, tag)})
            answer = {"actor": who, "version": live.version, "intents": out}
            live.legal = {(live.version, who): answer}
            return answer

    # ----- writing -----

    def _write(self, fight_id: int, expected: int, act: Callable[[Live], dict[str, Any]]) -> dict[str, Any]:
        """Run ``act(live)`` on the fight under its lock at version ``expected``; drop the cache on failure."""
        with self._lock(fight_id):
            live = self._current(fight_id)
            if live.version != expected:
                raise Conflict(expected, live.version)
            if live.row.archived:
                raise TableError(409, "the fight is archived")
            try:
                result = act(live)
            except (TableError, NotImplementedYet, FaceOutOfRange):  # raised before anything changed
                raise
            except BaseException:
                self._live.pop(fight_id, None)  # the engine may be ahead of the store: rebuild it next time
                raise
            result["version"] = live.version
            return result

    def _store_new(self, live: Live, before: int, expected: int, pending: dict[str, Any] | None) -> None:
        engine = live.engine
        try:
            with self.store.write(live.row.id, expected) as w:
                for record in engine.records[before:]:
                    w.append(record.step, _record_json(record), dumps(engine.log[record.first_event:record.end_event]))
                w.set_pending(pending)
        except BaseException:
            self._live.pop(live.row.id, None)
            raise
        live.version = expected + 1
        live.pending = pending

    def _perform(self, live: Live, expected: int, command: dict[str, Any], answers: list[Answer],
                 faces: dict[int, int | None] | None = None) -> dict[str, Any]:
        engine = live.engine
        try:
            intent = command_from_json(command)
        except IntentFormatError as err:
            raise TableError(422, str(err)) from err
        if live.pending is not None and command != live.pending["command"]:
            what = "a decision" if "decision" in live.pending else "a dice request"
            raise TableError(409, f"{what} is pending: answer it first", pending=live.pending)
        actor = getattr(intent, "actor", None)
        if isinstance(actor, str) and actor in engine.state.combatants:
            dice_source(live.settings, actor).ready()
        before = len(engine.records)
        given = dict(faces or {})
        try:
            events = engine.perform(intent, answers, given)
        except Refused as no:
            raise RefusedIntent(str(no.rule), no.reason) from no
        except FaceOutOfRange as bad:
            raise TableError(422, str(bad)) from bad
        except NeedDecision as asked:
            pending = {"command": command, "answers": list(answers), "faces": [[i, f] for i, f in given.items()],
                       "decision": decision_json(asked.decision)}
            self._store_new(live, before, expected, pending)
            return {"status": "decision", "pending": pending, "events": [], "rows": []}
        except NeedDice as asked:
            names = {c.id: c.name for c in engine.state.combatants.values()}
            pending = {"command": command, "answers": list(answers), "faces": [[i, f] for i, f in given.items()],
                       "dice": dice_request_json(asked.request, names)}
            self._store_new(live, before, expected, pending)
            return {"status": "dice", "pending": pending, "events": [], "rows": []}
        self._store_new(live, before, expected, None)
        names = {c.id: c.name for c in engine.state.combatants.values()}
        return {"status": "done", "seq": engine.records[-1].step, "record": _record_json(engine.records[-1]),
                "events": [command_to_json_event(e) for e in events],
                "rows": rows_json(events, names), "ended": engine.state.ended, "winner": engine.state.winner}

    def submit(self, fight_id: int, expected: int, intent: dict[str, Any], by: Principal) -> dict[str, Any]:
        """Submit an intent: its events and explanation rows, a pending decision, or a refusal (nothing stored)."""
        def act(live: Live) -> dict[str, Any]:
            if str(intent.get("type", "")).startswith("gm-") and by.role != "gm":
                raise TableError(403, "GM overrides are the GM's")
            self._may_act(live, by, intent.get("actor"))
            return self._perform(live, expected, intent, [])
        return self._write(fight_id, expected, act)

    def end_turn(self, fight_id: int, expected: int, by: Principal) -> dict[str, Any]:
        """End the active creature's turn."""
        def act(live: Live) -> dict[str, Any]:
            actor = live.engine.state.active_id
            if actor is None:
                raise RefusedIntent("AE-1", "no creature is taking a turn")
            self._may_act(live, by, actor)
            return self._perform(live, expected, {"type": "end-turn", "actor": actor}, [])
        return self._write(fight_id, expected, act)

    def answer(self, fight_id: int, expected: int, choice: str | None, by: Principal) -> dict[str, Any]:
        """Answer the pending decision (the GM, or the player controlling the creature asked)."""
        def act(live: Live) -> dict[str, Any]:
            pending = live.pending
            if pending is None or "decision" not in pending:
                raise TableError(409, "no decision is pending", pending=pending)
            decision = pending["decision"]
            if by.role != "gm" and decision["actor"] not in by.creatures:
                raise TableError(403, "this decision belongs to another creature's controller")
            keys = [o["key"] for o in decision["options"]]
            if choice is None and not decision["optional"]:
                raise RefusedIntent(decision["rule"], "this decision cannot be declined")
            if choice is not None and choice not in keys:
                raise RefusedIntent(decision["rule"], f"{choice!r} is not one of the options {keys}")
            return self._perform(live, expected, pending["command"], [*pending["answers"], choice],
                                 _faces(pending.get("faces", [])))
        return self._write(fight_id, expected, act)

    def undo(self, fight_id: int, expected: int, steps: int) -> dict[str, Any]:
        """Undo ``steps`` records (dice included); the start of the fight stays. A pending decision is dropped."""
        def act(live: Live) -> dict[str, Any]:
            engine = live.engine
            if steps > engine.intents_done - 1:
                raise RefusedIntent("AE-1", f"only {max(0, engine.intents_done - 1)} step(s) can be undone")
            to = engine.intents_done - steps
            engine.undo(to)
            with self.store.write(fight_id, expected) as w:
                w.mark_undone(to, True)
                w.set_pending(None)
            live.version, live.pending = expected + 1, None
            return {"status": "undone", "steps": steps, "redo_available": engine.redo_available}
        return self._write(fight_id, expected, act)

    def redo(self, fight_id: int, expected: int, steps: int) -> dict[str, Any]:
        """Redo ``steps`` undone records: exactly the same dice and answers, so the same events."""
        def act(live: Live) -> dict[str, Any]:
            engine = live.engine
            if live.pending is not None:
                raise TableError(409, "a decision is pending: answer it first", pending=live.pending)
            if steps > engine.redo_available:
                raise RefusedIntent("AE-1", f"only {engine.redo_available} step(s) can be redone")
            events: list[Event] = []
            first = engine.intents_done
            for _ in range(steps):
                events.extend(engine.redo())
            with self.store.write(fight_id, expected) as w:
                for seq in range(first, first + steps):
                    w.mark_undone(seq, False)
            live.version = expected + 1
            names = {c.id: c.name for c in engine.state.combatants.values()}
            return {"status": "redone", "steps": steps, "events": [command_to_json_event(e) for e in events],
                    "rows": rows_json(events, names)}
        return self._write(fight_id, expected, act)

    def update_settings(self, fight_id: int, expected: int, settings: Settings) -> dict[str, Any]:
        """Replace the fight's GM settings."""
        def act(live: Live) -> dict[str, Any]:
            self._check_settings(live.engine, settings, live.settings)
            with self.store.write(fight_id, expected) as w:
                w.set_settings(settings.model_dump())
            live.version, live.settings = expected + 1, settings
            self._controllers(live)
            return {"status": "ok", "settings": settings.model_dump()}
        return self._write(fight_id, expected, act)

    def archive(self, fight_id: int, expected: int, archived: bool) -> dict[str, Any]:
        """Archive (or restore) a fight."""
        with self._lock(fight_id):
            live = self._current(fight_id)
            with self.store.write(fight_id, expected) as w:
                w.set_archived(archived)
            self._live.pop(fight_id, None)
            return {"status": "ok", "archived": archived, "version": expected + 1, "id": live.row.id}

    def override(self, fight_id: int, expected: int, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        """A GM override as an event: HP, damage with saves, conditions, position, initiative, skip, morale, combatants.

        The body's ``targets``, ``reason`` and ``change`` (the override's own fields) become the ``gm`` family's
        intent (``gm-<kind>``); it is resolved and stored like any intent, so undo, redo and resume treat it alike.
        Saves it calls for become dice requests for creatures whose dice are entered.

        Raises:
            TableError: 422 for a malformed change; RefusedIntent (409, rule GM) for an illegal one.
        """
        self.fight_row(fight_id)
        if kind == "combatant":
            return self._combatant(fight_id, expected, body)
        tag = "order" if kind == "initiative" else kind  # the table's word for the engine's gm-order
        if tag not in OVERRIDES:
            raise TableError(404, f"no override {kind!r}")
        change = dict(body.get("change") or {})
        reserved = sorted({"type", "actor", "reason"} & change.keys())
        if reserved:
            raise TableError(422, f"change.{reserved[0]}: set by the override itself")
        command: dict[str, Any] = {"type": f"gm-{tag}", **change, "reason": body.get("reason", "")}
        targets = list(body.get("targets") or [])
        if kind == "move":
            if len(targets) != 1:
                raise TableError(422, "targets: a move names exactly one creature")
            command["target"] = targets[0]
        elif kind == "initiative":
            command.setdefault("order", targets)
        elif kind != "skip-turn":
            command["targets"] = targets

        def act(live: Live) -> dict[str, Any]:
            return self._perform(live, expected, command, [])
        return self._write(fight_id, expected, act)

    def _combatant(self, fight_id: int, expected: int, body: dict[str, Any]) -> dict[str, Any]:
        """Add a creature (from the library, or a quick-added PC) or remove the targets: the gm family's intents."""
        try:
            change = CombatantChange.model_validate(body.get("change") or {})
        except ValidationError as err:
            problems = [{"path": ".".join(map(str, ("change", *e["loc"]))), "message": e["msg"]}
                        for e in err.errors()]
            raise TableError(422, "; ".join(f"{p['path']}: {p['message']}" for p in problems),
                             problems=problems) from None
        targets = list(body.get("targets") or [])
        reason = str(body.get("reason", ""))
        if (change.add is None) == (not change.remove):
            raise TableError(422, "change: give either add (one creature) or remove: true (the targets)")
        if change.remove:
            if not targets:
                raise TableError(422, "targets: name the creatures to remove")
            command: dict[str, Any] = {"type": "gm-remove-combatant", "targets": targets, "reason": reason}

            def remove(live: Live) -> dict[str, Any]:
                return self._perform(live, expected, command, [])
            return self._write(fight_id, expected, remove)
        add = change.add
        assert add is not None
        if targets:
            raise TableError(422, "targets: an added creature is named by add.id, not targets")

        def act(live: Live) -> dict[str, Any]:
            command = self._add_command(live, add, reason)
            entered = add.dice == "entered"
            if entered:  # its dice (initiative first) are entered from now on: the settings say so with the record
                live.engine.entered = live.engine.entered | {command["id"]}
            try:
                result = self._perform(live, expected, command, [])
            finally:
                self._controllers(live)
            if entered:
                settings = live.settings.model_copy(update={"dice": {**live.settings.dice, command["id"]: "entered"}})
                with self.store.write(fight_id, live.version) as w:
                    w.set_settings(settings.model_dump())
                live.version, live.settings = live.version + 1, settings
                self._controllers(live)
            return result
        return self._write(fight_id, expected, act)

    def _add_command(self, live: Live, add: AddCombatant, reason: str) -> dict[str, Any]:
        """The ``gm-add-combatant`` intent as JSON: the whole stat block and gear, an id, a controller, a square."""
        state = live.engine.state
        library = default_library()
        if (add.pc is None) == (add.creature is None):
            raise TableError(422, "change.add: give either creature (a library id) or pc (a quick-added PC)")
        if add.pc is not None:
            pc = add.pc
            base = _slug(add.id or pc.name) or "pc"
            try:
                creature = quick_pc(f"{PC_BLOCK}{base}", pc.name, hp=pc.hp, dv=pc.dv, attack_bonus=pc.attack_bonus,
                                    damage=pc.damage, initiative_bonus=pc.initiative_bonus, ruleset=state.ruleset)
            except QuickPcError as err:
                raise TableError(422, f"change.add.pc.{err}") from None
            weapons, armor, shield, controller = creature.natural_weapons, None, None, "human"
        else:
            try:
                creature = library.creature(str(add.creature))
                weapons = library.weapons_of(creature)
                armor = library.armor(creature.armor) if creature.armor else hull(creature, state.ruleset)
                shield = library.shield(creature.shield) if creature.shield else None
            except UnknownIdError as err:
                raise TableError(422, f"change.add.creature: {err}", suggestions=list(err.suggestions)) from None
            base = creature.id
            side_members = [c for c in state.combatants.values() if c.side == add.side]
            controller = side_members[0].controller if side_members else ("human" if creature.is_pc else "ai")
        cid = add.id or _free_id(base, state.combatants)
        position = add.position
        if state.board is not None and position is None:
            position = _free_square(state, add.side, creature.size.squares)
            if position is None:
                raise TableError(409, "no free square on the map for it", rule="GM")
        command: dict[str, Any] = {
            "type": "gm-add-combatant", "id": cid, "side": add.side, "reason": reason,
            "creature": creature.model_dump(mode="json", exclude_defaults=True),
            "weapons": [w.model_dump(mode="json", exclude_defaults=True) for w in weapons],
            "controller": controller}
        if armor is not None:
            command["armor"] = armor.model_dump(mode="json", exclude_defaults=True)
        if shield is not None:
            command["shield"] = shield.model_dump(mode="json", exclude_defaults=True)
        if add.name is not None:
            command["name"] = add.name
        if position is not None:
            command["position"] = list(position)
        if add.initiative is not None:
            command["initiative"] = add.initiative
        return command

    @staticmethod
    def library_creatures() -> list[dict[str, Any]]:
        """The library's creatures for a picker.

        Each with its id, name, level, HP, DV (no cover, under the default ruleset), size, PC or NPC, weapons' names.
        """
        library = default_library()
        ruleset = preset()
        out = []
        for c in library.creatures():
            armor = library.armor(c.armor) if c.armor else hull(c, ruleset)
            shield = library.shield(c.shield) if c.shield else None
            out.append({"id": c.id, "name": c.name, "level": c.level, "hp": c.hp,
                        "dv": defense_value(c, armor, shield, ruleset).total, "kind": c.kind.value,
                        "size": c.size.value, "weapons": [w.name for w in library.weapons_of(c)]})
        return out

    def enter_dice(self, fight_id: int, expected: int, body: dict[str, Any], by: Principal) -> dict[str, Any]:
        """Answer the pending dice request with entered faces (each in range) or "roll it for me".

        ``faces`` gives the request's dice in order (1 to ``count`` of them; a die left out is asked for again);
        ``roll_for_me`` lets the engine's seeded RNG roll them all.

        Raises:
            TableError: 409 when no dice request is pending, 403 for a player whose creature is not asked,
                422 for a face out of range or too many faces.
        """
        def act(live: Live) -> dict[str, Any]:
            pending = live.pending
            if pending is None or "dice" not in pending:
                raise TableError(409, "no dice request is pending", pending=pending)
            request = pending["dice"]
            if by.role != "gm" and request["owner"] not in by.creatures:
                raise TableError(403, "this dice request belongs to another creature's controller")
            faces: list[int] = list(body.get("faces") or [])
            roll_for_me = bool(body.get("roll_for_me"))
            if roll_for_me == bool(faces):
                raise TableError(422, "give either faces or roll_for_me")
            if len(faces) > request["count"]:
                raise TableError(422, f"faces: at most {request['count']} for {request['text']}")
            bad = [f for f in faces if not 1 <= f <= request["sides"]]
            if bad:
                raise TableError(422, f"faces: {bad[0]} is not on a d{request['sides']} (1..{request['sides']})")
            given = _faces(pending.get("faces", []))
            entered: list[int | None] = [None] * request["count"] if roll_for_me else list(faces)
            for k, face in enumerate(entered):
                given[request["index"] + k] = face
            return self._perform(live, expected, pending["command"], list(pending["answers"]), given)
        return self._write(fight_id, expected, act)

    def export(self, fight_id: int) -> dict[str, Any]:
        """The encounter text and the fight log (canonical JSON lines) of the live line.

        ``ashfall run --replay FILE`` plays it back (:func:`replay_export`); undone steps are not in it.
        """
        with self.reading(fight_id) as live:
            setup = {"encounter": live.row.source, "table-seed": str(live.row.seed)}
            return {"format": EXPORT_FORMAT, "name": live.row.name, "source": live.row.source,
                    "encounter": live.row.encounter, "log": dumps_log(live.engine.fight_log(setup))}

    def check_intent(self, fight_id: int, command: dict[str, Any]) -> dict[str, Any]:
        """Read only: whether the engine would accept an intent now (its rule), or its refusal's rule and reason."""
        try:
            intent = command_from_json(command)
        except IntentFormatError as err:
            raise TableError(422, str(err)) from err
        if isinstance(intent, StartCombat):
            raise TableError(422, "the fight has started already")
        with self.reading(fight_id) as live:
            try:
                definition = live.engine.check(intent)
            except Refused as no:
                return {"legal": False, "rule": str(no.rule), "reason": no.reason}
            return {"legal": True, "rule": str(definition.rule), "reason": None,
                    "cost": definition.cost(live.engine.state, intent)}

    def move_preview(self, fight_id: int, actor: str | None, to: tuple[int, int]) -> dict[str, Any]:
        """Read only: the cheapest path for a creature to a square, as the engine would take it.

        The path is the movement search the AI walks (:func:`ashfall.ai.movement.path_to`); the engine
        checks it as a Stride (its cost in feet, or its refusal with rule and reason), and the enemies whose
        reach it leaves are the Attacks of Opportunity it would provoke (RX-21).
        """
        from ashfall.ai.movement import MoveGraph, path_to, provokers_along, threats
        from ashfall.engine import Stride

        with self.reading(fight_id) as live:
            engine = live.engine
            state = engine.state
            who = actor or state.active_id
            if who is None or who not in state.combatants:
                raise TableError(404, "no such creature (or no active creature)")
            mover = state.combatants[who]
            out: dict[str, Any] = {"actor": who, "to": list(to), "path": [], "feet": None, "legal": False,
                                   "rule": None, "reason": None, "provokes": [], "intent": None}
            if state.board is None or mover.position is None:
                out.update(rule="POS-2", reason="this fight has no map: movement is narrated")
                return out
            graph = MoveGraph.of(state, mover)
            path = path_to(state, mover, lambda sq: sq == to, graph)
            if not path:
                out.update(rule="ACT-2", reason=f"{mover.name} has no path to {to}")
                return out
            intent = Stride(who, tuple(path))
            out["path"] = [list(sq) for sq in path]
            out["intent"] = command_to_json(intent)
            out["provokes"] = list(provokers_along(graph, threats(state, mover), mover.position, path))
            try:
                definition = engine.check(intent)
            except Refused as no:
                out.update(rule=str(no.rule), reason=no.reason)
                return out
            from ashfall.families.movement.moves import path_cost

            out.update(legal=True, rule=str(definition.rule), feet=path_cost(state, mover, path),
                       cost=definition.cost(state, intent))
            return out

    # ----- authorization helpers -----

    def _may_act(self, live: Live, by: Principal, actor: Any) -> None:
        if by.role == "gm":
            return
        if not live.settings.players_act:
            raise TableError(403, "the GM has not let players act")
        if actor not in by.creatures:
            raise TableError(403, "a player acts only for their own creatures")

    def may_read(self, by: Principal, fight_id: int, gm_only: bool) -> bool:
        """Whether a caller may read (or, for GM endpoints, use) a fight."""
        table_id = self.store.fight_table(fight_id)  # asked by every request: the table id alone
        if table_id is None:
            return by.role == "gm"  # a GM learns 404; a player nothing more than 403
        if by.role == "gm":
            return by.table_id == table_id
        return not gm_only and by.fight_id == fight_id

    def names(self, fight_id: int) -> dict[str, Combatant]:
        """A fight's combatants by id."""
        with self.reading(fight_id) as live:
            return dict(live.engine.state.combatants)


EXPORT_FORMAT = "ashfall-table-export/1"
"""The ``format`` of an exported fight (the encounter text and the log)."""


def replay_export(data: Any, file: str = "export.json") -> tuple[Engine, BuildInfo]:
    """Play an exported fight back through the engine: its encounter built again, every record of its log replayed.

    Each replayed event is checked against the logged one (:func:`ashfall.engine.replay`); entered faces and
    answers come from the log, so nobody is asked anything.

    Raises:
        ValueError: The export is malformed (the message names the field), its encounter does not load, or the
            replay diverges from the log.
    """
    if not isinstance(data, dict):
        raise ValueError(f"{file}: an export is a JSON object with 'encounter' and 'log'")
    for key in ("encounter", "log"):
        if not isinstance(data.get(key), str):
            raise ValueError(f"{file}: {key}: missing, or not text")
    log = loads_log(data["log"])
    source = str(data.get("source") or log.setup.get("encounter") or "upload")
    try:
        engine, info = TableService._build(data["encounter"], source, log.seed)
    except TableError as err:
        problems = "; ".join(f"line {p['line']}: {p['path']}: {p['message']}" for p in err.extra.get("problems", []))
        raise ValueError(f"{file}: encounter: {err.message}: {problems}") from None
    try:
        return replay(log, engine.initial_state), info
    except ReplayDivergence as err:
        raise ValueError(f"{file}: log: {err}") from None


def final_state(engine: Engine) -> dict[str, Any]:
    """The end of a fight as data: round, turn, winner, order and each creature's HP, square and conditions."""
    state = engine.state
    return {"round": state.round, "active": state.active_id, "ended": state.ended, "winner": state.winner,
            "order": list(state.order),
            "creatures": [{"id": c.id, "name": c.name, "side": c.side, "hp": c.health.hp, "max_hp": c.health.max_hp,
                           "temp_hp": c.health.temp_hp, "vitality": c.health.vitality.value,
                           "position": list(c.position) if c.position else None, "initiative": c.initiative,
                           "conditions": sorted(a.condition.value for a in c.conditions)}
                          for c in state.combatants.values()]}


def _slug(text: str) -> str:
    """A lower-case id made of the letters and digits of a name (``"Vex the Bold"`` -> ``"vex-the-bold"``)."""
    out, dash = [], False
    for ch in text.lower():
        if ch.isascii() and ch.isalnum():
            out.append(ch)
            dash = False
        elif out and not dash:
            out.append("-")
            dash = True
    return "".join(out).strip("-")[:50]


def _free_id(base: str, taken: Any) -> str:
    """``base`` if free, else ``base-2``, ``base-3`` … (the first not taken)."""
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def _free_square(state: Any, side: str, size: int) -> tuple[int, int] | None:
    """The free, passable square nearest the side's first standing member (else the map's first free square).

    Nearest by grid distance (diagonals count 1), ties by row then column, so the choice is deterministic.
    """
    from ashfall.grid.board import Terrain, footprint

    board = state.board
    anchors = [c.position for c in state.combatants.values() if c.side == side and c.position is not None
               and not c.health.is_dead]
    ax, ay = anchors[0] if anchors else (0, 0)
    taken = {sq for c in state.combatants.values() if not c.health.is_dead for sq in c.space}
    best: tuple[tuple[int, int, int], tuple[int, int]] | None = None
    for y in range(board.height):
        for x in range(board.width):
            squares = footprint((x, y), size)
            if any(not board.in_bounds(sq) or board.terrain_at(sq) is Terrain.IMPASSABLE or sq in taken
                   for sq in squares):
                continue
            key = (max(abs(x - ax), abs(y - ay)), y, x)
            if best is None or key < best[0]:
                best = (key, (x, y))
    return None if best is None else best[1]


def command_to_json_event(event: Event) -> Any:
    """One event as JSON data (the same object the log's line holds)."""
    import json

    return json.loads(dumps([event]))


def default_db() -> Path:
    """Where ``ashfall serve`` keeps its tables unless told otherwise."""
    return Path.home() / ".local" / "share" / "ashfall" / "tables.db"


__all__ = [
    "EXPORT_FORMAT",
    "Assembled",
    "DiceSource",
    "EngineDice",
    "EnteredDice",
    "NotImplementedYet",
    "Principal",
    "RefusedIntent",
    "Settings",
    "TableError",
    "TableService",
    "assembled_encounter",
    "decision_json",
    "default_db",
    "dice_request_json",
    "dice_source",
    "final_state",
    "hash_token",
    "new_token",
    "replay_export",
]
