"""Shared fights for the kernel's tests: the hand-written encounters of its first slice, under both editions.

An encounter that declares house rules of its own (the melee among cover: cover against melee attacks too) is
also played under them (``OWN``).
"""

import dataclasses
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from hypothesis import event

from ashfall.ai import ai_controller
from ashfall.content.schema import WeaponKind
from ashfall.kernel import ai as kai
from ashfall.ruleset import preset
from ashfall.sim.fight import trial_seed
from ashfall.sim.kernel_ai_lower import AiTables
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import BAILED_STEP, KernelSetup
from ashfall.sim.policy import Policy
from ashfall.sim.setups import EncounterSetup, Fight, FightSetup, InlineCombatant, InlineSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_fight, reference_signature

HERE = Path(__file__).resolve().parent
ENCOUNTERS = HERE / "encounters"
STOPPED = HERE / "stopped"
"""Sets where the kernel stops at the AI's Dodge in a few fights (``stops_at_the_dodge``); kernel_diff skips them."""
DUEL = ENCOUNTERS / "scripted-duel.yaml"
REACH_DUEL = ENCOUNTERS / "scripted-reach-duel.yaml"
TWO_ON_ONE = ENCOUNTERS / "scripted-two-on-one-on-a-map.yaml"
TWO_ON_TWO = ENCOUNTERS / "scripted-two-on-two.yaml"
HEROES_FALL = ENCOUNTERS / "scripted-heroes-fall.yaml"
WALK_UP = ENCOUNTERS / "scripted-walk-up-duel.yaml"
BRAWL = ENCOUNTERS / "scripted-brawl-on-a-grid.yaml"
AMONG_COVER = ENCOUNTERS / "scripted-melee-among-cover.yaml"
GANG_BREAKS = ENCOUNTERS / "scripted-gang-breaks.yaml"
CORNERED = ENCOUNTERS / "scripted-cornered-on-a-walled-map.yaml"
GATE = ENCOUNTERS / "scripted-flight-at-the-gate.yaml"
AI_DUEL = ENCOUNTERS / "ai-duel-in-the-open.yaml"
AI_FREE_FOR_ALL = ENCOUNTERS / "ai-free-for-all.yaml"
AI_GANG = ENCOUNTERS / "ai-brute-against-a-gang.yaml"
AI_AMONG_COVER = ENCOUNTERS / "ai-duel-among-cover.yaml"
AI_SECOND_WIND = ENCOUNTERS / "ai-pc-catches-its-breath.yaml"
AI_FILES = (AI_DUEL, AI_FREE_FOR_ALL, AI_GANG, AI_AMONG_COVER, AI_SECOND_WIND)
"""The tactical AI's encounters: on the kernel under edition 1; under edition 2 the duels too, with the AI's Trip
(E-37, ``test_kernel_trip``), the rest named."""
EDITIONS = ("ashfall-1", "ashfall-2")
OWN = "own"
"""Stands for the encounter file's own ruleset in a set (``setup_of``)."""
FILES = (DUEL, TWO_ON_TWO, REACH_DUEL, TWO_ON_ONE, HEROES_FALL, WALK_UP, BRAWL, AMONG_COVER, GANG_BREAKS, CORNERED,
         GATE)
SETS = [(path, edition) for path in FILES for edition in EDITIONS] + [(AMONG_COVER, OWN), (GANG_BREAKS, OWN)]
SET_IDS = [f"{path.stem}-{edition}" for path, edition in SETS]


def setup_of(path: Path, edition: str) -> EncounterSetup:
    """An encounter file under an edition (``OWN``: under the file's own ruleset)."""
    return EncounterSetup(path, None if edition == OWN else edition)


def seeds(n: int, sweep: int = 1) -> list[int]:
    """The fight seeds of trials 0 .. n-1 of the sweep with seed ``sweep``."""
    return [trial_seed(sweep, i) for i in range(n)]


def played_alike(setup: FightSetup, n: int) -> KernelSetup:
    """The kernel of a set it plays (checked), which plays its first ``n`` fights step for step as the reference."""
    assert check(setup) is None
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(n), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first
    return kernel


class Rewired:
    """A kernel whose lowered tables a test breaks on purpose (``change``): a runner for ``compare_engines``."""

    def __init__(self, setup: FightSetup, change: Callable[[Lowered], Lowered]) -> None:
        self.kernel = KernelSetup(setup)
        self.kernel.lowered = change(self.kernel.lowered)

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


def knife_first(ai: AiTables) -> AiTables:
    """The AI's tables broken on purpose: the lead column cleared, so a gun listed before the melee weapon loses a
    tie with it at one square (ATK-2: the AI keeps the first of equals)."""
    config = ai.config.copy()
    config[:, kai.CFG_LEAD] = 0.0
    return dataclasses.replace(ai, config=config)


@dataclass(frozen=True, slots=True)
class InlineWithPolicies:
    """An inline fight whose creatures are played by the policies a test gives them (:meth:`policy`).

    As in an encounter file's fight, the tactical AI answers the creatures' decisions (reactions) unless
    :meth:`answers` says otherwise (then each decision takes its first option).
    """

    inline: InlineSetup

    @property
    def name(self) -> str:
        return self.inline.name

    @property
    def ruleset_name(self) -> str:
        return self.inline.ruleset_name

    def policy(self, index: int, combatant: InlineCombatant) -> Policy:
        """The policy of the ``index``-th combatant."""
        raise NotImplementedError

    def answers(self) -> bool:
        """Whether the tactical AI answers decisions."""
        return True

    def build_fight(self, seed: int) -> Fight:
        fight = self.inline.build_fight(seed)
        fight.policies = {c.id: self.policy(i, c) for i, c in enumerate(self.inline.combatants)}
        if self.answers():
            fight.engine.controllers = {cid: ai_controller(c) for cid, c in fight.engine.state.combatants.items()}
        return fight

    def portable(self) -> FightSetup | None:
        return self


def plays_like_the_reference_or_is_named(setup: FightSetup, count: int, shown: object) -> None:
    """A random fight (a hypothesis example): the kernel names what it lacks, or plays it as the reference does.

    A seed where the kernel stops at a choice outside its slice (the AI would Dodge, boxed in) must have played
    every step before it the same; every other seed of the first ``count`` must match step for step. ``shown``
    goes into the failure message (the example's stat blocks, who the AI plays).
    """
    problem = check(setup)
    event(f"not on the kernel: {problem.split(' (')[0]}" if problem else "played on both engines")
    if problem is not None:
        assert problem.strip()
        return
    kernel = KernelSetup(setup)
    played = []
    for seed in seeds(count):
        ours = kernel.signature(seed)
        if ours.steps and ours.steps[-1].action == BAILED_STEP:
            event("the kernel stopped at a Dodge")
            theirs = reference_signature(setup, seed)
            assert ours.steps[:-1] == theirs.steps[:len(ours.steps) - 1], (shown, seed)
        else:
            played.append(seed)
    report = compare_engines(setup, played, reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, (shown, report.first)


def plays_like_the_reference(setup: FightSetup, count: int) -> None:
    """A set on the kernel plays each of the first ``count`` fights step for step as the reference does."""
    assert check(setup) is None
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(count), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first


W = TypeVar("W", bound=InlineWithPolicies)


def under_edition_2(setup: W) -> W:
    """The same inline fight (a hypothesis example) under ``ashfall-2``."""
    return dataclasses.replace(setup, inline=dataclasses.replace(setup.inline, ruleset=preset("ashfall-2")))


def wrong_kernel_diverges(setup: FightSetup, wrong: Callable[[FightSetup, int], FightSignature], count: int,
                          least: int) -> None:
    """A kernel broken on purpose: the harness finds at least ``least`` explained divergences in ``count`` seeds."""
    report = compare_engines(setup, seeds(count), reference_signature, wrong)
    assert len(report.divergences) >= least
    assert report.divergences[0].explanation


def log_counts(setup: FightSetup, n: int) -> Counter[str]:
    """What happened in the reference logs of ``n`` fights, to show that a set's features happen.

    Attacks are Return Fire, shots (a ranged weapon's attack: the Submachine Gun's too), throws (another weapon's
    attack with a ranged attack's modifiers, ATK-2) or melee (``flanked`` counts those whose roll mentions
    flanking); also reloads, Aims and Intercepts.
    """
    found: Counter[str] = Counter()
    guns = {w.id for c in setup.build_fight(0).engine.state.combatants.values() for w in c.weapons
            if w.kind is WeaponKind.RANGED}
    for seed in seeds(n):
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "attack-rolled":
                if "Return Fire" in e.label:
                    found["return fire"] += 1
                elif e.weapon in guns:
                    found["shots"] += 1
                elif any(p.rule == "ATK-2" for p in e.roll.modifiers):
                    found["throws"] += 1
                else:
                    found["melee"] += 1
                    found["flanked"] += "flank" in repr(e.roll).lower()
            elif kind == "actions-spent" and "reload" in e.label.lower():
                found["reloads"] += 1
            elif kind == "actions-spent" and e.label.lower() == "aim":
                found["aims"] += 1
            elif kind == "reaction-spent" and "ntercept" in e.label:
                found["intercepts"] += 1
    return found


def variant(tmp_path: Path, base: Path, old: str, new: str, edition: str | None = None) -> EncounterSetup:
    """``base`` with every ``old`` replaced by ``new`` (which must occur), written under ``tmp_path``."""
    text = base.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "variant.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return EncounterSetup(path, edition)


def stops_at_the_dodge(setup: FightSetup, count: int) -> int:
    """How many of the first ``count`` fights the kernel stops where the AI withdraws (DOD-1), checked.

    Each stopped fight played every step before the stop as the reference did, whose next step is the Dodge the
    withdrawal starts with; every other fight matches step for step.
    """
    kernel = KernelSetup(setup)
    stopped, played = 0, []
    for seed in seeds(count):
        ours = kernel.signature(seed)
        if ours.steps and ours.steps[-1].action == BAILED_STEP:
            stopped += 1
            theirs = reference_signature(setup, seed)
            before = len(ours.steps) - 1
            assert ours.steps[:before] == theirs.steps[:before], seed
            assert theirs.steps[before].action == "actions-spent:dodge", seed  # it withdraws: Dodge first (DOD-1)
        else:
            played.append(seed)
    report = compare_engines(setup, played, reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first
    return stopped
