"""The Covering Fire talent's reaction in the fight kernel (SUP-11; ``kernel_covering_lower``, ``kernel.covering``).

The set: a gunner with the talent and a submachine gun, played by the tactical AI, against a scripted brute that
walks up through mud, under both editions. Each attack the brute declares that the gunner can see and shoot with a
round loaded costs the gunner its reaction and a round and pins the brute until the start of the gunner's next turn:
disadvantage on its attacks (``suppressed``: the attack tables' pinned rows, asked of ``resolve_attack`` with the
effect's roll sources in place, prone attackers under edition 2's Trip included). Under edition 2 a shot beside the
brute provokes its Attack of Opportunity (E-18), itself pinned at once, and the gunner's next choices that turn weigh
the pinned brute's attacks at disadvantage (``base_for`` reads ``suppressed``). Every step equals the reference's, the
decisions equal ``TacticalPolicy.choose``, the feature happens, and kernels without the disadvantage, without the
reaction diverge; what is not played is named. A second set puts a brawler beside the brute (edition 1): one reaction a
round, so only the first attacker after the gunner's turn began is pinned, and the brutes Intercept its shots (E-19).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ashfall.kernel import covering as kcov
from ashfall.sim import kernel_covering_lower as lower
from ashfall.sim.kernel_lower import TABLE_ACTIVITIES, Lowered, check
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import (
    ENCOUNTERS,
    Rewired,
    plays_like_the_reference,
    seeds,
    setup_of,
    variant,
    wrong_kernel_diverges,
)
from tests.kernel.test_kernel_ai import checked_decisions

COVERING = ENCOUNTERS / "ai-covering-gunner-against-a-brute-in-the-mud.yaml"
TWO_BRUTES = ENCOUNTERS / "ai-covering-gunner-against-two-brutes-in-the-mud.yaml"


def _happened(setup: FightSetup, n: int) -> Counter[str]:
    """Covering Fire in ``n`` reference fights: reactions taken, pinned attacks, free shots, and fights with each."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        seen: set[str] = set()
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "reaction-spent" and e.label == "Covering Fire":
                seen.add("reactions")
                found["reactions"] += 1
            elif kind == "attack-rolled" and e.label == "Covering Fire":
                seen.add("free shots")
                found["free shots"] += 1
            elif kind == "attack-rolled" and "suppressed by Covering Fire" in repr(e.roll):
                seen.add("pinned attacks")
                found["pinned attacks"] += 1
                found["pinned Attacks of Opportunity"] += "pportunity" in e.label
        for what in seen:
            found[f"fights with {what}"] += 1
    return found


@pytest.mark.rule("SUP-11", "RX-21", "ACT-3", "G-31", "E-18", "E-37", "TRP-3")
@pytest.mark.parametrize("edition", ["ashfall-1", "ashfall-2"])
def test_covering_gunner__plays_every_step_as_the_reference(edition: str) -> None:
    plays_like_the_reference(setup_of(COVERING, edition), 100)


@pytest.mark.rule("SUP-11", "AE-2", "E-19", "RX-26")
def test_covering_gunner_against_two_brutes__plays_every_step_as_the_reference() -> None:
    plays_like_the_reference(setup_of(TWO_BRUTES, "ashfall-1"), 60)


@pytest.mark.rule("SUP-11", "AE-2", "E-19")
def test_covering_gunner_against_two_brutes__pins_the_first_attacker_of_a_round_only() -> None:
    """Pinned and unpinned attacks by both brutes (one reaction a round), and Intercepts of the gunner's shots."""
    setup = setup_of(TWO_BRUTES, "ashfall-1")
    found: Counter[str] = Counter()
    for seed in seeds(20):
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "attack-rolled" and e.weapon == "sledgehammer":
                found[f"{e.actor} {'pinned' if 'suppressed by Covering Fire' in repr(e.roll) else 'plain'}"] += 1
            elif kind == "reaction-spent":
                found[e.label] += 1
    for brute in ("kernel-ai-covered-brute", "kernel-ai-covered-brawler"):
        assert found[f"{brute} pinned"] >= 50 and found[f"{brute} plain"] >= 50
    assert found["Covering Fire"] >= 100 and found["Intercept"] >= 10


@pytest.mark.rule("SUP-11")
def test_covering_gunner__pins_the_brute_in_every_fight() -> None:
    """The reference fights do what the set is for: reactions and pinned attacks in every fight; under edition 2 the
    brute's Attacks of Opportunity on shots beside it pinned too."""
    for edition in ("ashfall-1", "ashfall-2"):
        found = _happened(setup_of(COVERING, edition), 20)
        assert found["fights with reactions"] == 20 and found["fights with pinned attacks"] == 20
        assert found["reactions"] >= 100 and found["pinned attacks"] >= 200
    assert found["pinned Attacks of Opportunity"] >= 10


@pytest.mark.rule("SUP-11", "E-05", "G-31", "E-18")
@pytest.mark.parametrize(("path", "edition"), [(COVERING, "ashfall-1"), (COVERING, "ashfall-2"),
                                               (TWO_BRUTES, "ashfall-1")], ids=["one-1", "one-2", "two-1"])
def test_kernel_ai_decide__equals_tactical_policy_choose_beside_a_pinned_enemy(path: Path, edition: str) -> None:
    seen = checked_decisions(setup_of(path, edition), seeds(8, sweep=31))
    assert any(isinstance(e, tuple) and e[0] == "attack" for e in seen)


def _no_disadvantage(lo: Lowered) -> Lowered:
    acts = len(TABLE_ACTIVITIES)
    outcome, draws = lo.outcome.copy(), lo.draws.copy()
    outcome[:, :, acts:] = outcome[:, :, :acts]
    draws[:, :, acts:] = draws[:, :, :acts]
    return dataclasses.replace(lo, outcome=outcome, draws=draws)


def _no_reaction(lo: Lowered) -> Lowered:
    assert lo.covering is not None
    return dataclasses.replace(lo, covering=dataclasses.replace(lo.covering, ok=lo.covering.ok * 0))


@pytest.mark.rule("SUP-11")
@pytest.mark.parametrize(("path", "change", "edition"), [
    (COVERING, _no_disadvantage, "ashfall-1"), (COVERING, _no_reaction, "ashfall-1"),
    (COVERING, _no_disadvantage, "ashfall-2"), (TWO_BRUTES, _no_disadvantage, "ashfall-1")],
    ids=["no-disadvantage", "no-reaction", "no-disadvantage-edition-2", "two-brutes-no-disadvantage"])
def test_compare_engines__a_kernel_without_covering_fire_diverges(path: Path, change: object, edition: str) -> None:
    setup = setup_of(path, edition)
    wrong_kernel_diverges(setup, Rewired(setup, change), 30, 3)  # type: ignore[arg-type]


@pytest.mark.rule("SUP-11", "C-PRO", "G-21")
def test_covering_tables__the_ai_weighs_a_pinned_enemys_attacks_lower() -> None:
    """The AI's values of the pinned brute's attacks (``base_for`` with the effect in place) are below the plain
    ones wherever those are worth anything: disadvantage; lying prone, the same. (An AI blind to the pin does not
    diverge in 60 fights of the set: alone in the mud the gunner's choices after a pinned Attack of Opportunity do
    not turn on it.)"""
    lo = Rewired(setup_of(COVERING, "ashfall-2"), lambda x: x).kernel.lowered
    assert lo.covering is not None
    plain, pinned = lo.ai.enemy_hit, lo.covering.enemy_hit
    worth = plain > 0
    assert worth.any() and (pinned[worth] < plain[worth]).all()
    # lying prone it attacks at disadvantage already (C-PRO): a second source of it changes nothing (G-21)
    prone, pinned_prone = lo.ai.enemy_hit_prone, lo.covering.enemy_hit_prone
    assert (prone > 0).any() and np.array_equal(pinned_prone, prone)


def test_covering_tables__slots_and_bits_agree_with_the_lowering() -> None:
    assert (kcov.COV_ON, kcov.COV_NEED) == (lower.COV_ON, lower.COV_NEED)
    lo = Rewired(setup_of(COVERING, "ashfall-1"), lambda x: x).kernel.lowered
    assert lo.covering is not None and lo.covering.ints[lower.COV_NEED] == 1  # ``attack.covering_fire_ammo``
    assert lo.outcome.shape[2] == 2 * len(TABLE_ACTIVITIES)


@pytest.mark.rule("SUP-11")
@pytest.mark.parametrize(("change", "edition", "named"), [
    # under edition 1 a pinned creature the AI plays is played (``test_kernel_covering_fire_among_allies``); under
    # edition 2 its openers would need pinned variants
    (("    tactics: [strike, strike]\n", ""), "ashfall-2", "pinning a creature the AI plays or chooses for under"),
])
def test_covering_gunner__what_it_does_not_cover_is_named(tmp_path: Path, change: tuple[str, str],
                                                            edition: str | None, named: str) -> None:
    problem = check(variant(tmp_path, COVERING, *change, edition))
    assert problem is not None and named in problem



@pytest.mark.rule("SUP-11", "G-31")
def test_covering_gunner_with_two_guns__is_played(tmp_path: Path) -> None:
    """Two guns and the fists alone on a side: Covering Fire from the first gun loaded (``covering_weapon``), played
    (``test_kernel_covering_fire_two_guns``)."""
    assert check(variant(tmp_path, COVERING, "weapons: [submachine-gun]", "weapons: [submachine-gun, pistol]",
                         "ashfall-1")) is None
