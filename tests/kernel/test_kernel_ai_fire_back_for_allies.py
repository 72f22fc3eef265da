"""Return Fire among allies in the fight kernel (edition 2: RX-29..31, G-56, E-20; ``kernel_fire_back_lower``).

The set: three AI gunners with a Pistol each (and a sword) within a few squares of one another against a plated AI
bandit who shoots them with a Pistol it is not trained with (so it never fires back itself, RX-31). Under edition 2 a
hit on one gunner sets off the Return Fire of every gunner within 30 ft of it (measured from the responder, G-56),
itself included, asked in initiative order, each at -2 with no MAP (RX-30) and a round spent, one reaction a round; a
later responder fires even at a bandit an earlier one dropped. Every step equals the reference's, Return Fire for an
ally happens often with several responders to one hit, and kernels without the -2, with responders answering only for
themselves, or with the wrong distance, diverge; what is not played is named.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ashfall.engine import events as ev
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import (
    ENCOUNTERS,
    OWN,
    Rewired,
    plays_like_the_reference,
    seeds,
    setup_of,
    variant,
    wrong_kernel_diverges,
)

ALLIES = ENCOUNTERS / "ai-gunners-fire-back-for-each-other.yaml"
RULESET = "attack: {sweeping_available: false}"


def _happened(setup: FightSetup, n: int) -> Counter[str]:
    """Return Fire in ``n`` reference fights: for the creature hit, for an ally, several answers to one hit, at a
    fallen shooter, and the fights with each."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        last_hit: dict[str, tuple[str, int]] = {}  # a shooter's last hit: (target, its index in the log)
        answers: Counter[int] = Counter()
        fallen: set[str] = set()
        seen: set[str] = set()
        for at, e in enumerate(reference_fight(setup, seed).log):
            if isinstance(e, ev.DamageTaken) and e.health.is_down:
                fallen.add(e.target)
            if not isinstance(e, ev.AttackRolled):
                continue
            if e.label == "Return Fire":
                hit, when = last_hit[e.target]
                answers[when] += 1
                what = "for itself" if hit == e.actor else "for an ally"
                found[what] += 1
                seen.add(what)
                if e.target in fallen:
                    found["at a fallen shooter"] += 1
                    seen.add("at a fallen shooter")
            if e.outcome in ("hit", "crit"):
                last_hit[e.actor] = (e.target, at)
        several = sum(1 for count in answers.values() if count > 1)
        found["hits answered several times"] += several
        if several:
            seen.add("several answers to one hit")
        for what in seen:
            found[f"fights {what}"] += 1
    return found


@pytest.mark.rule("RX-29", "RX-30", "RX-31", "G-56", "E-20", "E-18", "RX-21", "G-31", "AE-2")
def test_gunners_fire_back_for_each_other__plays_every_step_of_the_reference_fight() -> None:
    plays_like_the_reference(setup_of(ALLIES, OWN), 150)


@pytest.mark.rule("RX-29", "G-56", "E-20")
def test_gunners_fire_back_for_each_other__return_fire_for_an_ally_happens_often() -> None:
    found = _happened(setup_of(ALLIES, OWN), 30)
    assert found["fights for an ally"] >= 15 and found["for an ally"] > found["for itself"]
    assert found["fights several answers to one hit"] >= 5


def _no_penalty(tmp_path: Path) -> Rewired:
    """The kernel with Return Fire's attack tables of a ruleset without its -2 (RX-30)."""
    setup = setup_of(ALLIES, OWN)
    plain = variant(tmp_path, ALLIES, RULESET, "attack: {sweeping_available: false, return_fire_attack: 0}")
    ranged = KernelSetup(plain).lowered.ai.ranged

    def change(lo: Lowered) -> Lowered:
        mine = dataclasses.replace(lo.ai.ranged, outcome=ranged.outcome, draws=ranged.draws)
        return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, ranged=mine))

    return Rewired(setup, change)


def _ally_ft(ft: int) -> Rewired:
    """The kernel with responders set off by hits on allies within ``ft`` feet (-1: only the creature hit)."""

    def change(lo: Lowered) -> Lowered:
        mine = dataclasses.replace(lo.ai.ranged, fire_ints=np.array([ft], np.int64))
        return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, ranged=mine))

    return Rewired(setup_of(ALLIES, OWN), change)


@pytest.mark.rule("RX-30", "E-20", "G-56")
@pytest.mark.parametrize("wrong", ["no-penalty", "only-for-itself", "within-5-ft"])
def test_compare_engines__a_kernel_wrong_about_return_fire_among_allies_diverges(wrong: str, tmp_path: Path) -> None:
    kernel = {"no-penalty": lambda: _no_penalty(tmp_path), "only-for-itself": lambda: _ally_ft(-1),
              "within-5-ft": lambda: _ally_ft(5)}[wrong]()
    wrong_kernel_diverges(setup_of(ALLIES, OWN), kernel, 20, 3)


@pytest.mark.rule("RX-29", "RX-31", "E-20", "E-18", "E-37")
def test_gunners_fire_back_for_each_other__what_is_not_played_is_named(tmp_path: Path) -> None:
    # under plain edition 2 the AI's Trip on a creature with allies (E-37) is named first
    assert "Trip on a creature with allies" in (check(setup_of(ALLIES, "ashfall-2")) or "")
    # a bandit trained with its pistol fires back too, and with three enemies its answer could be made in reach
    trained = variant(tmp_path, ALLIES, "weapon_proficiencies: [martial]", "weapon_proficiencies: [simple, martial]")
    assert (check(trained) or "").startswith("Return Fire from within a shooter's reach (E-18")
