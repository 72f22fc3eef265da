"""What a simulation runs: a :class:`FightSetup` builds a fresh fight (engine, policies, ambush, limit) per seed.

:class:`EncounterSetup` plays an encounter file (optionally under another ruleset, for ``compare``);
it pickles as its path, so worker processes load the file themselves. :class:`SpecSetup` wraps an
encounter already in memory. :class:`InlineSetup` builds a fight from stat blocks in code (tests,
benchmarks). Tactics become policies with :func:`policy_for`: a plan gives :class:`ScriptedTactics`,
``ai`` gives :func:`default_policy`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ashfall.ai import ai_controller, target_choice
from ashfall.ai import default_policy as ai_default_policy
from ashfall.content.loader import default_library
from ashfall.content.schema import Creature
from ashfall.encounters import ControllerFactory, EncounterSpec, Tactics, build, load_encounter
from ashfall.encounters.schema import ControllerKind
from ashfall.engine import Engine, new_engine, new_state
from ashfall.engine.setup import combatant_of
from ashfall.families.attacks.rules_activities import Activity
from ashfall.grid.board import Board, Square
from ashfall.ruleset import Ruleset, load_ruleset, preset
from ashfall.sim.policy import Policy, ScriptedTactics


def default_policy() -> Policy:
    """The policy for ``tactics: ai``: the tactical AI's default."""
    made: Policy = ai_default_policy()
    return made


def simulation_controllers() -> dict[ControllerKind | str, ControllerFactory]:
    """Who answers decisions (reactions …) in a simulation: the AI for every side, people included."""
    return {kind: ai_controller for kind in ControllerKind}


def policy_for(tactics: Tactics | Sequence[Activity | str] | None) -> Policy:
    """The policy that plays a combatant's tactics (an empty plan or None: the AI).

    An encounter's plan fixes what the creature does; whom it attacks is its ``target`` rule, else the AI's
    choice (:func:`ashfall.ai.target_choice`). A bare list of activities (code, benchmarks) attacks the nearest.
    """
    if not isinstance(tactics, Tactics):
        plan = tuple(tactics or ())
        return ScriptedTactics(plan) if plan else default_policy()
    if tactics.is_ai:
        return default_policy()
    chooser = None if tactics.target is not None else target_choice
    return ScriptedTactics(tactics.plan, target=tactics.target, chooser=chooser)


@dataclass(slots=True)
class Fight:
    """A fresh fight, ready to start.

    Attributes:
        engine: The un-started engine.
        policies: The policy of every combatant, by id.
        ambushers: The ambushing side (SUR-1), or None.
        round_limit: Stop undecided after this round, or None for the simulator's default.
    """

    engine: Engine
    policies: Mapping[str, Policy]
    ambushers: str | None = None
    round_limit: int | None = None


class FightSetup(Protocol):
    """Anything that can build the same fight again for any seed."""

    @property
    def name(self) -> str:
        """A display name."""
        ...

    @property
    def ruleset_name(self) -> str:
        """The ruleset the fight is played under."""
        ...

    def build_fight(self, seed: int) -> Fight:
        """A fresh fight whose dice come from ``seed``."""
        ...

    def portable(self) -> FightSetup | None:
        """A version that pickles cheaply for worker processes, or None when there is none."""
        ...


def _policies(tactics: Mapping[str, Tactics]) -> dict[str, Policy]:
    return {cid: policy_for(t) for cid, t in tactics.items()}


@dataclass(slots=True)
class SpecSetup:
    """An encounter already loaded (it cannot be sent to worker processes unless it came from a file)."""

    spec: EncounterSpec
    ruleset_override: str | None = None

    @property
    def name(self) -> str:
        """The encounter's name."""
        return self.spec.name

    @property
    def ruleset_name(self) -> str:
        """The ruleset's name."""
        return self.spec.ruleset.name

    def build_fight(self, seed: int) -> Fight:
        """Build the engine with the encounter's builder; tactics become policies."""
        engine, info = build(self.spec, seed, simulation_controllers())
        return Fight(engine, _policies(info.tactics), info.ambushers, info.round_limit)

    def portable(self) -> FightSetup | None:
        """The file it was loaded from, when it still exists."""
        path = Path(self.spec.file)
        return EncounterSetup(str(path), self.ruleset_override) if path.is_file() else None


class FileSetup:
    """What the setups that pickle as an encounter file share: they load it once, then answer from it.

    A subclass sets ``path``, ``ruleset`` and ``allow_dirs`` and says how it gets its :attr:`loaded` setup (the
    file as it is, or a variant of it); the name, the ruleset and the fights are the loaded setup's.
    """

    path: str
    ruleset: str | None
    allow_dirs: tuple[str, ...]

    @property
    def loaded(self) -> SpecSetup:
        """The loaded encounter, made once."""
        raise NotImplementedError

    def load_spec(self) -> EncounterSpec:
        """The file, checked, under :attr:`ruleset` when one is given instead of the file's."""
        spec = load_encounter(self.path, self.allow_dirs)
        return spec if self.ruleset is None else dataclasses.replace(spec, ruleset=load_ruleset(self.ruleset))

    @property
    def name(self) -> str:
        """The encounter's name."""
        return self.loaded.name

    @property
    def ruleset_name(self) -> str:
        """The ruleset's name."""
        return self.loaded.ruleset_name

    def build_fight(self, seed: int) -> Fight:
        """Build a fresh fight."""
        return self.loaded.build_fight(seed)

    def portable(self) -> FightSetup | None:
        """Itself: it pickles as its file (and whatever else makes it)."""
        return self


class EncounterSetup(FileSetup):
    """An encounter file, optionally under another ruleset (a preset name or a house-rule file).

    Args:
        path: The encounter file.
        ruleset: Play it under this ruleset instead of the file's.
        allow_dirs: Folders besides the file's own that the files it names may be read from (``--allow-dir``).
    """

    def __init__(self, path: str | Path, ruleset: str | None = None, allow_dirs: Sequence[str | Path] = ()) -> None:
        self.path = str(path)
        self.ruleset = ruleset
        self.allow_dirs = tuple(str(d) for d in allow_dirs)
        self._setup: SpecSetup | None = None

    def __getstate__(self) -> tuple[str, str | None, tuple[str, ...]]:
        return (self.path, self.ruleset, self.allow_dirs)

    def __setstate__(self, state: tuple[str, str | None, tuple[str, ...]]) -> None:
        self.path, self.ruleset, self.allow_dirs = state
        self._setup = None

    def __repr__(self) -> str:
        return f"EncounterSetup({self.path!r}, ruleset={self.ruleset!r})"

    @property
    def loaded(self) -> SpecSetup:
        """The loaded encounter (loaded once)."""
        if self._setup is None:
            self._setup = SpecSetup(self.load_spec(), self.ruleset)
        return self._setup


@dataclass(frozen=True, slots=True)
class InlineCombatant:
    """One creature of an :class:`InlineSetup`."""

    id: str
    side: str
    creature: Creature
    position: Square | None = None
    plan: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class InlineSetup:
    """A fight described in code: stat blocks (weapons from the library), sides, squares and plans."""

    title: str
    combatants: tuple[InlineCombatant, ...]
    ruleset: Ruleset = field(default_factory=preset)
    board: Board | None = None
    round_limit: int | None = None

    @property
    def name(self) -> str:
        """The fight's title."""
        return self.title

    @property
    def ruleset_name(self) -> str:
        """The ruleset's name."""
        return self.ruleset.name

    def build_fight(self, seed: int) -> Fight:
        """Build the engine directly from the stat blocks."""
        library = default_library()
        made = [combatant_of(library, c.creature, c.id, c.side, c.position, ruleset=self.ruleset)
                for c in self.combatants]
        engine = new_engine(new_state(made, self.ruleset, self.board), seed)
        policies = {c.id: policy_for(c.plan) for c in self.combatants}
        return Fight(engine, policies, None, self.round_limit)

    def portable(self) -> FightSetup | None:
        """Itself (stat blocks, boards and rulesets pickle)."""
        return self


def as_setup(source: FightSetup | EncounterSpec | str | Path, ruleset: str | None = None) -> FightSetup:
    """A setup from an encounter file path, a loaded encounter or a setup."""
    if isinstance(source, str | Path):
        return EncounterSetup(source, ruleset)
    if isinstance(source, EncounterSpec):
        spec = source if ruleset is None else dataclasses.replace(source, ruleset=load_ruleset(ruleset))
        return SpecSetup(spec, ruleset)
    if ruleset is not None:
        raise ValueError("a ruleset override needs an encounter file or a loaded encounter")
    return source


__all__ = ["EncounterSetup", "Fight", "FightSetup", "InlineCombatant", "InlineSetup", "SpecSetup", "as_setup",
           "default_policy", "policy_for"]
