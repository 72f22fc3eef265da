"""Per-fight signatures and the differential harness that compares two fight runners seed by seed.

A :class:`FightSignature` is what two engines must agree on for the same fight: the winner, the rounds, each
combatant's final HP, conditions and morale, and the sequence of :class:`Step` (actor, action, target, dice
faces) with its sha256 digest. :func:`reference_signature` reads it off the reference engine (the event log and
the final state); a fight kernel produces the same record from its own run.

:func:`compare_engines` plays the same seeds through two runners and reports, per diverging seed, the first
diverging step (or outcome field), explained by the reference engine's own rows (:mod:`ashfall.explain`) of
that fight: the fast answer is always checked against, and explained by, the reference.

Steps are taken from the log generically: every event that declares an action (``actions-spent``, ``moved``)
or carries dice (a d20 record, damage parts, a tie-break draw) is a step, named by its type tag and label.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ashfall.engine import Engine, Event
from ashfall.explain import event_row, names_of
from ashfall.sim.fight import FightResult, run_fight
from ashfall.sim.setups import FightSetup, as_setup

_ACTION_TAGS = frozenset({"actions-spent", "moved"})


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a fight: who did what to whom, with which dice faces.

    Attributes:
        actor: The acting (or rolling) combatant, or None (the environment).
        action: The event's type tag, with its label or mode when it has one (``attack-rolled:Power Strike``).
        target: The combatant acted on, or None.
        faces: Every die face the step shows, in the order the log records them.
    """

    actor: str | None
    action: str
    target: str | None
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CombatantEnd:
    """One combatant at the end of a fight, as the signature compares it.

    Attributes:
        id: Combatant id.
        hp: HP left.
        temp_hp: Temporary HP left.
        conditions: Its conditions, sorted by name (health-implied ones included).
        morale: How morale took it out of the fight, or None.
    """

    id: str
    hp: int
    temp_hp: int
    conditions: tuple[str, ...]
    morale: str | None


@dataclass(frozen=True, slots=True)
class FightSignature:
    """What two engines must agree on for one fight.

    Attributes:
        seed: The fight's seed.
        winner: The winning side, or None.
        rounds: The round the fight ended in.
        combatants: Each combatant's end, in roster order.
        steps: The fight's steps, in order.
        digest: sha256 (hex) of the steps.
        event_index: For each step, the index of the reference log's event it came from (empty for other engines).
    """

    seed: int
    winner: str | None
    rounds: int
    combatants: tuple[CombatantEnd, ...]
    steps: tuple[Step, ...]
    digest: str
    event_index: tuple[int, ...] = ()

    def outcome(self) -> tuple[object, ...]:
        """Everything but the steps: winner, rounds and the combatants' ends."""
        return (self.winner, self.rounds, self.combatants)


FightRunner = Callable[[FightSetup, int], FightSignature]
"""Plays the fight of a setup with a seed and returns its signature."""


def steps_digest(steps: Iterable[Step]) -> str:
    """sha256 (hex) of a step sequence, one canonical JSON line per step."""
    h = hashlib.sha256()
    for s in steps:
        h.update(json.dumps([s.actor, s.action, s.target, list(s.faces)], separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def _faces(event: Any) -> tuple[int, ...]:
    faces: list[int] = []
    roll = getattr(event, "roll", None)
    if roll is not None:
        faces.extend(roll.faces)
    faces.extend(getattr(event, "faces", ()))
    for part in getattr(event, "parts", ()):
        faces.extend(getattr(part, "faces", ()))
    tiebreak = getattr(event, "tiebreak", None)
    if isinstance(tiebreak, int):
        faces.append(tiebreak)
    return tuple(faces)


def event_step(event: Event) -> Step | None:
    """The step an event records, or None when it is neither an action nor a roll."""
    tag = str(getattr(event, "type", type(event).__name__))
    faces = _faces(event)
    if not faces and tag not in _ACTION_TAGS:
        return None
    label = getattr(event, "label", None) or getattr(event, "mode", None)
    actor = getattr(event, "actor", None) or getattr(event, "source", None)
    target = getattr(event, "target", None)
    return Step(actor if isinstance(actor, str) else None, f"{tag}:{label}" if label else tag,
                target if isinstance(target, str) else None, faces)


def signature_of(result: FightResult, engine: Engine, log: Sequence[Event]) -> FightSignature:
    """The signature of a fight the reference engine played: its result, final state and event log."""
    steps: list[Step] = []
    index: list[int] = []
    for i, event in enumerate(log):
        step = event_step(event)
        if step is not None:
            steps.append(step)
            index.append(i)
    morale = {c.id: c.morale for c in result.combatants}
    ends = tuple(
        CombatantEnd(c.id, c.health.hp, c.health.temp_hp, tuple(sorted(str(x.value) for x in c.condition_set)),
                     morale.get(c.id))
        for c in engine.state.combatants.values()
    )
    return FightSignature(result.seed, result.winner, result.rounds, ends, tuple(steps), steps_digest(steps),
                          tuple(index))


@dataclass(frozen=True, slots=True)
class ReferenceFight:
    """A fight played by the reference engine, kept for explaining it.

    Attributes:
        signature: Its signature.
        log: Its event log.
        names: Display names by combatant id.
    """

    signature: FightSignature
    log: tuple[Event, ...]
    names: dict[str, str]


def reference_fight(setup: FightSetup, seed: int) -> ReferenceFight:
    """Play one fight on the reference engine, as the simulator does (:func:`ashfall.sim.runner.play`)."""
    fight = setup.build_fight(seed)
    result = run_fight(lambda _: fight.engine, seed, fight.policies, record_log=True, ambushers=fight.ambushers,
                       max_rounds=fight.round_limit)
    log = result.log or ()
    names = names_of((c.id, c.name) for c in fight.engine.state.combatants.values())
    return ReferenceFight(signature_of(result, fight.engine, log), log, names)


def reference_signature(setup: FightSetup, seed: int) -> FightSignature:
    """The reference engine's signature of one fight: the :data:`FightRunner` every other engine is held to."""
    return reference_fight(setup, seed).signature


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where two runners first disagree on one seed.

    Attributes:
        seed: The fight's seed.
        step: Index of the first differing step, or None when the steps agree and the outcome differs.
        field: What differs: ``"step"``, ``"steps-length"``, ``"winner"``, ``"rounds"`` or ``"combatants"``.
        a: Runner A's value there.
        b: Runner B's value there.
        explanation: The reference engine's explanation of that step (its row's text and details), or of the
            fight's end for an outcome difference.
    """

    seed: int
    step: int | None
    field: str
    a: object
    b: object
    explanation: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DiffReport:
    """The result of comparing two runners.

    Attributes:
        seeds: The seeds compared, in order.
        divergences: One per diverging seed, in seed order.
    """

    seeds: tuple[int, ...]
    divergences: tuple[Divergence, ...]

    @property
    def identical(self) -> bool:
        """No seed diverged."""
        return not self.divergences

    @property
    def first(self) -> Divergence | None:
        """The first diverging seed's divergence, or None."""
        return self.divergences[0] if self.divergences else None


def _first_difference(a: FightSignature, b: FightSignature) -> tuple[int | None, str, object, object] | None:
    if a.digest != b.digest or a.steps != b.steps:
        for i, (x, y) in enumerate(zip(a.steps, b.steps, strict=False)):
            if x != y:
                return i, "step", x, y
        shorter = min(len(a.steps), len(b.steps))
        return shorter, "steps-length", len(a.steps), len(b.steps)
    for name in ("winner", "rounds", "combatants"):
        x, y = getattr(a, name), getattr(b, name)
        if x != y:
            return None, name, x, y
    return None


def _explain(ref: ReferenceFight, step: int | None) -> tuple[str, ...]:
    sig = ref.signature
    if step is not None and step < len(sig.event_index):
        events: Sequence[Event] = (ref.log[sig.event_index[step]],)
    else:
        events = ref.log[-1:]
    lines: list[str] = []
    for event in events:
        row = event_row(event, ref.names)
        if row is not None:
            lines.append("".join(p.text for p in row.parts))
            lines.extend(row.details)
    return tuple(lines)


def compare_engines(encounter: FightSetup | str | Path, seeds: Iterable[int], run_a: FightRunner,
                    run_b: FightRunner) -> DiffReport:
    """Play the same seeds through two runners and report each seed's first divergence.

    Args:
        encounter: The fight (a setup, or an encounter file).
        seeds: The fight seeds (e.g. :func:`ashfall.sim.fight.trial_seed` of a sweep's trials).
        run_a: One runner (usually :func:`reference_signature`).
        run_b: The other (a kernel).

    Returns:
        The seeds and, per diverging seed, the first diverging step explained by the reference engine.
    """
    setup = as_setup(encounter) if isinstance(encounter, str | Path) else encounter
    done: list[int] = []
    found: list[Divergence] = []
    for seed in seeds:
        done.append(seed)
        diff = _first_difference(run_a(setup, seed), run_b(setup, seed))
        if diff is None:
            continue
        step, field, a, b = diff
        found.append(Divergence(seed, step, field, a, b, _explain(reference_fight(setup, seed), step)))
    return DiffReport(tuple(done), tuple(found))


__all__ = [
    "CombatantEnd",
    "DiffReport",
    "Divergence",
    "FightRunner",
    "FightSignature",
    "ReferenceFight",
    "Step",
    "compare_engines",
    "event_step",
    "reference_fight",
    "reference_signature",
    "signature_of",
    "steps_digest",
]
