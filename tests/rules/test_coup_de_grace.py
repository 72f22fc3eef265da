"""Coup de Grace as pure rules: eligibility, the automatic crit's damage parts, and what the blow leaves (CDG)."""

from __future__ import annotations

import pytest

from ashfall.content.loader import default_library
from ashfall.core.types import Condition
from ashfall.families.attacks.rules_activities import AttackMode
from ashfall.families.attacks.rules_coup_de_grace import aftermath, coup_de_grace, ineligible
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import preset

LIB = default_library()


@pytest.mark.rule("CDG-1", "CDG-5", "C-HLP")
@pytest.mark.parametrize(("conditions", "immune", "expected"), [
    ({Condition.UNCONSCIOUS}, False, None),
    ({Condition.PARALYZED}, False, None),
    ({Condition.RESTRAINED, Condition.INCAPACITATED}, False, None),
    ({Condition.RESTRAINED}, False, "CDG-1"),
    ({Condition.STUNNED}, False, "CDG-1"),
    ({Condition.PRONE}, False, "CDG-1"),
    (set(), False, "CDG-1"),
    ({Condition.UNCONSCIOUS}, True, "CDG-5"),
], ids=["unconscious", "paralyzed", "helpless", "restrained", "stunned", "prone", "nothing", "immune"])
def test_cdg_1__who_can_be_executed(conditions, immune, expected):
    assert ineligible(conditions, immune=immune) == expected


@pytest.mark.rule("CDG-2", "CDG-7", "G-41")
def test_cdg_7__combat_knife_blow_is_1d6_plus_mig_rolled_as_a_crit_and_counts_for_map():
    operative = LIB.creature("operative")
    blow = coup_de_grace(operative, LIB.weapon("combat-knife"), AttackMode.MELEE, preset())
    assert [(p.label, str(p.dice) if p.dice else p.flat) for p in blow.damage_parts] == [
        ("Combat Knife", "1d6"), ("MIG", 3)]
    assert "CDG-2" in blow.reasons and blow.counts_for_map


@pytest.mark.rule("CDG-2")
def test_cdg_2__a_ranged_weapon_cannot_deliver_it():
    with pytest.raises(RuleViolation):
        coup_de_grace(LIB.creature("operative"), LIB.weapon("pistol"), AttackMode.RANGED, preset())


@pytest.mark.rule("CDG-3", "CDG-4")
@pytest.mark.parametrize(("health", "dies", "wakes", "rule_id"), [
    (Health(0, 9, vitality=Vitality.DYING), True, False, "CDG-3"),
    (Health(0, 9, vitality=Vitality.DEAD), False, False, "CDG-3"),
    (Health(4, 9), False, True, "CDG-4"),
], ids=["left-at-0-hp", "already-dead", "hp-left"])
def test_cdg_3__dies_at_0_hp_otherwise_wakes(health, dies, wakes, rule_id):
    result = aftermath(health)
    assert (result.dies, result.wakes, result.rule) == (dies, wakes, rule_id)
