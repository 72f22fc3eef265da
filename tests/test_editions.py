"""The two editions side by side: the same situation under ashfall-1 and ashfall-2 gives different results.

One test per difference, each naming its E-nn; the last test checks that at least five of them differ.
"""

from __future__ import annotations

import pytest

from ashfall.content.loader import default_library
from ashfall.core.modifiers import Advantage, resolve_advantage
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import DamageType
from ashfall.families.attacks.rules import AttackContext, attack_modifiers
from ashfall.families.attacks.rules_activities import AttackMode
from ashfall.families.attacks.rules_map import map_modifier
from ashfall.families.dying.rules import stabilize_with_medicine
from ashfall.families.dying.rules_healing import second_wind
from ashfall.families.dying.rules_recovery import Recovery
from ashfall.rules.damage import apply_damage
from ashfall.rules.damage_defenses import Defenses
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset, preset

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
LIB = default_library()


def _map_of_third_attack(rs: Ruleset) -> int:
    """The third attack of a turn made as the second attack of the second Strike action (Extra Attack)."""
    mod = map_modifier(2, rs, strike_actions_before=1)
    return mod.value if mod else 0


def _second_wind_healing(rs: Ruleset) -> tuple[int, int]:
    health = Health(10, 40)
    faces = [6, 6] if rs.healing.second_wind_dice == "2d10" else [6]
    with ScriptedRng(faces) as rng:
        result = second_wind(health, Recovery.fresh(5), 2, rng, rs)
    return result.health.hp - health.hp, result.health.temp_hp


def _medicine_stabilises(rs: Ruleset) -> bool:
    dying = Health(0, 20, vitality=Vitality.DYING)
    try:
        with ScriptedRng([15]) as rng:
            result = stabilize_with_medicine(dying, LIB.creature("soldier"), rng, rs)
        return result.health.vitality is Vitality.STABILIZED
    except RuleViolation:
        return False


def _ranged_in_melee(rs: Ruleset) -> Advantage:
    shooter = LIB.creature("soldier")
    rifle = LIB.weapon("hunting-rifle")
    _, sources = attack_modifiers(shooter, rifle, AttackMode.RANGED, rs, AttackContext(hostile_within_5ft=True))
    return resolve_advantage(sources)


def _dr_grit_and_care(rs: Ruleset) -> int:
    from ashfall.content.schema import DrEntry

    creature = LIB.creature("soldier").model_copy(update={"dr": (
        DrEntry(amount=2, source="grit"), DrEntry(amount=2, source="preventive-care"))})
    result = apply_damage(Health.full(30), {DamageType.SLASHING: 10}, Defenses.of_creature(creature), rs)
    return result.total_to_hp


DIFFERENCES = {
    "E-01": _map_of_third_attack,
    "E-30": _second_wind_healing,
    "E-31": _medicine_stabilises,
    "E-25": _ranged_in_melee,
    "E-27": _dr_grit_and_care,
}


@pytest.mark.rule("E-01", "MAP-1")
def test_e_01__extra_attacks_share_a_map_step_in_edition_1() -> None:
    assert (_map_of_third_attack(ED1), _map_of_third_attack(ED2)) == (-3, -6)


@pytest.mark.rule("E-30", "HEAL-5")
def test_e_30__second_wind_2d10_plus_level_and_temp_hp_vs_1d10_plus_end() -> None:
    assert _second_wind_healing(ED2) == (6 + 6 + 5, 5)
    assert _second_wind_healing(ED1) == (6 + 2, 0)


@pytest.mark.rule("E-31", "DEATH-17")
def test_e_31__only_edition_1_stabilises_with_a_medicine_check() -> None:
    assert (_medicine_stabilises(ED1), _medicine_stabilises(ED2)) == (True, False)


@pytest.mark.rule("E-25", "AMOD-7")
def test_e_25__ranged_attack_in_melee_has_disadvantage_only_in_edition_2() -> None:
    assert (_ranged_in_melee(ED1), _ranged_in_melee(ED2)) == (Advantage.NORMAL, Advantage.DISADVANTAGE)


@pytest.mark.rule("E-27", "DR-4")
def test_e_27__dr_from_different_sources_stacks_only_in_edition_2() -> None:
    assert _dr_grit_and_care(ED2) == 10 - 4
    assert _dr_grit_and_care(ED1) == 10  # edition 1: only armor grants DR, so neither applies


def test_editions__at_least_five_differences_change_results() -> None:
    differing = [e for e, probe in DIFFERENCES.items() if probe(ED1) != probe(ED2)]
    assert len(differing) >= 5, differing
