"""How far a creature threatens (NAT-6, POS-1, RX-21) and how far one attack reaches at all (ATK-1, ATK-2)."""

from __future__ import annotations

import pytest

from ashfall.content.loader import default_library
from ashfall.rules.reach import attack_limit_ft, threat_reach
from ashfall.ruleset import preset

LIB = default_library()


@pytest.mark.rule("NAT-6", "POS-1", "RX-21")
@pytest.mark.parametrize(("weapons", "reach"), [
    ((), 5), (("spear",), 5), (("halberd",), 10), (("pistol",), 5), (("pistol", "halberd", "spear"), 10)])
def test_rx_21__a_creature_threatens_as_far_as_its_longest_melee_weapon(weapons: tuple[str, ...], reach: int) -> None:
    assert threat_reach(tuple(LIB.weapon(w) for w in weapons), preset()) == reach


@pytest.mark.rule("ATK-1", "ATK-2")
@pytest.mark.parametrize(("weapon", "ranged", "limit"), [
    (None, False, 5), ("halberd", False, 10), ("spear", False, 5), ("spear", True, 60), ("pistol", True, 150),
    (None, True, 0)])
def test_atk_2__an_attack_reaches_its_reach_or_a_ranged_attack_its_long_range(weapon: str | None, ranged: bool,
                                                                            limit: int) -> None:
    assert attack_limit_ft(LIB.weapon(weapon) if weapon else None, ranged, preset().attack.natural_reach) == limit
