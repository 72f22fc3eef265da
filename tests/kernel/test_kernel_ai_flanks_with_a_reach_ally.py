"""Flanking with a reach weapon among allies in the fight kernel (POS-1, G-37, ATK-1).

An ally flanks a target when it threatens it (``flanking_ally``: within its threat reach, 10 ft for a halberd) and the
line between its centre and the attacker's crosses opposite sides or corners of the target's space (``flanks``); the
attacker may stand anywhere (a halberd's swing from 10 ft). The kernel read only allies beside the target as flankers
(``flank_geo`` held the eight squares around it), so a creature with a reach weapon and allies was named; the lowered
geometry now holds every square within the fight's longest threat reach of the target
(``kernel_lower._flank_geometry``), read by the fight's situation, the AI's plans and the fire a square invites
alike. Held here: in the set a swordsman's attack is flanked by the halberdier 10 ft away and the halberdier's swing
from 10 ft by the swordsman, the kernel plays it step for step, and a kernel reading only allies beside the target as
flankers diverges.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest

import tests.kernel.kit as kit
from ashfall.grid.geometry import flanks
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import reference_fight

FLANKS = kit.ENCOUNTERS / "ai-halberdier-flanks-beside-a-partner.yaml"


@pytest.mark.rule("POS-1", "G-37", "ATK-1", "E-37", "SWP-3")
def test_kernel_ai__flanks_with_a_reach_ally_like_the_reference() -> None:
    """Under edition 1 (CI's share of the 1,000 seeds); under edition 2 Sweeping Strike among the two is named."""
    kit.plays_like_the_reference(kit.setup_of(FLANKS, "ashfall-1"), 100)
    assert check(kit.setup_of(FLANKS, "ashfall-2")) == (
        "the tactical AI's Sweeping Strike among several enemies (SWP-3, E-37, combatant "
        "kernel-ai-flanking-halberdier)")


def flank_counts(setup: FightSetup, n: int) -> Counter[str]:
    """Flanked melee attacks in ``n`` reference fights by how far the attacker and its flanking ally stand.

    ``"attacker 5 ft, ally 10 ft"``: a flanked attack whose only flanking allies stand 10 ft from the target (what
    the kernel read as no flanking before); ``"attacker 10 ft, ally 5 ft"``: a halberd's flanked swing from 10 ft.
    """
    found: Counter[str] = Counter()
    for seed in kit.seeds(n):
        state = setup.build_fight(seed).engine.state
        pos = {k: c.position for k, c in state.combatants.items()}
        side = {k: c.side for k, c in state.combatants.items()}
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "moved":
                pos[e.actor] = e.to
            elif kind == "attack-rolled" and "flank" in repr(e.roll).lower():
                a, t = pos[e.actor], pos[e.target]
                assert a is not None and t is not None
                helpers = [p for k, p in pos.items() if k != e.actor and side[k] == side[e.actor] and p is not None
                           and flanks((a,), (p,), (t,))]
                ally = min((max(abs(p[0] - t[0]), abs(p[1] - t[1])) for p in helpers), default=0) * 5
                found[f"attacker {max(abs(a[0] - t[0]), abs(a[1] - t[1])) * 5} ft, ally {ally} ft"] += 1
    return found


@pytest.mark.rule("POS-1", "G-37", "ATK-1")
def test_reference_logs__attacks_are_flanked_from_10_ft() -> None:
    """In 40 reference fights attacks are flanked by the halberdier 10 ft from the target, and its swings from 10 ft
    by the swordsman beside it (35 and 29; 144 flanked with both beside the target)."""
    found = flank_counts(kit.setup_of(FLANKS, "ashfall-1"), 40)
    assert found["attacker 5 ft, ally 10 ft"] >= 20 and found["attacker 10 ft, ally 5 ft"] >= 20, found


def _flankers_beside_only(lo: Lowered) -> Lowered:
    """Only allies beside the target flank (wrong: a halberd threatens, so flanks, from 10 ft, POS-1)."""
    geo = lo.flank_geo.copy()
    r = (geo.shape[2] - 1) // 2
    assert r == 2
    geo[:, :, [0, -1], :, :, :] = 0
    geo[:, :, :, [0, -1], :, :] = 0
    return dataclasses.replace(lo, flank_geo=geo)


@pytest.mark.rule("POS-1", "G-37")
def test_compare_engines__a_kernel_reading_only_allies_beside_the_target_as_flankers_diverges() -> None:
    setup = kit.setup_of(FLANKS, "ashfall-1")
    assert KernelSetup(setup).lowered.flank_geo.shape[2:4] == (5, 5)
    kit.wrong_kernel_diverges(setup, kit.Rewired(setup, _flankers_beside_only), 20, 3)


@pytest.mark.rule("POS-1", "ATK-1")
def test_kernel_ai__a_halberdier_beside_a_scripted_ally_plays_like_the_reference(tmp_path: Path) -> None:
    """The halberdier against two raiders with one raider (a scripted axe) moved to its side: a reach weapon among
    allies, named before, now played step for step."""
    setup = kit.variant(tmp_path, kit.ENCOUNTERS / "ai-halberdier-against-two-slow-raiders.yaml",
                        "  - side: raiders\n    zone: A\n    tactics: [strike, strike]",
                        "  - side: halberd\n    zone: A\n    tactics: [strike]", "ashfall-1")
    kit.plays_like_the_reference(setup, 20)
