"""The differential harness: the reference engine against itself (no divergence) and against perturbed runners.

A perturbed runner must be caught at the step where its dice first differ, and the divergence must come
explained by the reference engine's own rows.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ashfall.core.rng import SeededRng
from ashfall.sim.fight import run_fight, trial_seed
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import (
    FightSignature,
    Step,
    compare_engines,
    reference_fight,
    reference_signature,
    signature_of,
    steps_digest,
)

ROOT = Path(__file__).resolve().parents[2]
DUEL = EncounterSetup(ROOT / "encounters" / "duel.yaml")
SKIRMISH = EncounterSetup(ROOT / "encounters" / "skirmish.yaml")
SEEDS = [trial_seed(1, i) for i in range(4)]


class FlippingRng(SeededRng):
    """The engine's RNG with its ``flip_at``-th draw turned to the next face: a deliberately wrong engine."""

    __slots__ = ("_draws", "flip_at")

    def __init__(self, seed: int, flip_at: int) -> None:
        super().__init__(seed)
        self._draws, self.flip_at = 0, flip_at

    def roll(self, sides: int) -> int:
        face = super().roll(sides)
        self._draws += 1
        return face % sides + 1 if self._draws == self.flip_at and sides > 1 else face

    def getstate(self) -> object:
        return super().getstate(), self._draws

    def setstate(self, state: object) -> None:
        inner, self._draws = state  # type: ignore[misc]
        super().setstate(inner)


def flipping_runner(flip_at: int) -> object:
    def run(setup: FightSetup, seed: int) -> FightSignature:
        fight = setup.build_fight(seed)
        fight.engine.rng = FlippingRng(seed, flip_at)
        result = run_fight(lambda _: fight.engine, seed, fight.policies, record_log=True,
                           ambushers=fight.ambushers, max_rounds=fight.round_limit)
        return signature_of(result, fight.engine, result.log or ())
    return run


def first_attack_flipped(setup: FightSetup, seed: int) -> FightSignature:
    """The reference fight with the natural d20 of its first attack roll turned to the next face."""
    sig = reference_signature(setup, seed)
    k = next(i for i, s in enumerate(sig.steps) if s.action.startswith("attack-rolled"))
    faces = (sig.steps[k].faces[0] % 20 + 1, *sig.steps[k].faces[1:])
    steps = (*sig.steps[:k], dataclasses.replace(sig.steps[k], faces=faces), *sig.steps[k + 1:])
    return dataclasses.replace(sig, steps=steps, digest=steps_digest(steps))


def test_signature__records_outcome_and_every_die_of_the_fight() -> None:
    ref = reference_fight(SKIRMISH, SEEDS[0])
    sig = ref.signature
    assert sig.winner in ("party", "raiders") or sig.winner is None
    assert [c.id for c in sig.combatants] == list(ref.log[0].roster)  # type: ignore[attr-defined]
    assert len(sig.digest) == 64 and sig.digest == steps_digest(sig.steps)
    attacks = [s for s in sig.steps if s.action.startswith("attack-rolled")]
    rolled = [e for e in ref.log if type(e).__name__ == "AttackRolled"]
    assert len(attacks) == len(rolled) > 0
    assert [s.faces for s in attacks] == [e.roll.faces for e in rolled]  # type: ignore[attr-defined]
    assert all(ref.log[i] is not None for i in sig.event_index) and len(sig.event_index) == len(sig.steps)


def test_signature__same_seed_same_signature_other_seed_other_digest() -> None:
    a, b = reference_signature(DUEL, SEEDS[0]), reference_signature(DUEL, SEEDS[0])
    assert a == b
    assert reference_signature(DUEL, SEEDS[1]).digest != a.digest


@pytest.mark.parametrize("setup", [DUEL, SKIRMISH], ids=["duel", "skirmish"])
def test_compare_engines__reference_against_itself_has_no_divergence(setup: FightSetup) -> None:
    report = compare_engines(setup, SEEDS, reference_signature, reference_signature)
    assert report.identical and report.seeds == tuple(SEEDS) and report.first is None


def test_compare_engines__a_flipped_attack_die_is_caught_at_that_attack_and_explained() -> None:
    report = compare_engines(DUEL, SEEDS[:2], reference_signature, first_attack_flipped)
    assert len(report.divergences) == 2
    for d in report.divergences:
        ref = reference_signature(DUEL, d.seed)
        k = next(i for i, s in enumerate(ref.steps) if s.action.startswith("attack-rolled"))
        assert (d.step, d.field) == (k, "step")
        assert isinstance(d.a, Step) and isinstance(d.b, Step)
        assert d.a == ref.steps[k] and d.b.faces[0] == d.a.faces[0] % 20 + 1
        assert d.explanation and any("DV" in line for line in d.explanation)  # the reference's attack row


def test_compare_engines__an_engine_drawing_one_wrong_die_is_caught_at_that_roll() -> None:
    # Initiative is rolled first, a d20 and a tie-break draw per combatant in roster order: the 3rd draw is the
    # second combatant's d20, so its initiative step (index 1) is where the runs first differ.
    report = compare_engines(DUEL, SEEDS[:2], reference_signature, flipping_runner(3))  # type: ignore[arg-type]
    assert len(report.divergences) == 2
    for d in report.divergences:
        assert (d.step, d.field) == (1, "step")
        assert isinstance(d.a, Step) and isinstance(d.b, Step)
        assert d.a.action == d.b.action == "initiative-rolled" and d.a.faces[0] != d.b.faces[0]
        assert d.explanation and any("initiative" in line.lower() for line in d.explanation)


def test_compare_engines__a_different_outcome_with_equal_steps_is_reported_by_field() -> None:
    def other_winner(setup: FightSetup, seed: int) -> FightSignature:
        return dataclasses.replace(reference_signature(setup, seed), winner="nobody")
    report = compare_engines(DUEL, SEEDS[:1], reference_signature, other_winner)
    assert report.first is not None
    assert (report.first.step, report.first.field, report.first.b) == (None, "winner", "nobody")
