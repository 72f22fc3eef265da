"""The shipped Gunslinger's two guns among allies in the fight kernel (edition 1): rounds per gun, Return Fire, focus.

Two guns and no melee weapon (``[Submachine Gun, Pistol]``) beside a partner, against three gunmen the AI plays: the
slinger's own decision is the lone one's (each gun's rounds counted and reloaded, G-31; the first loaded gun in normal
range fires back, RX-31; its unarmed strike its first option, RX-24) with its partner's square in mind (its fists
flank, POS-1; a shot never does), and among several enemies it focuses fire (``focus``). The enemies' Intercept weighs
the better of its two guns at any distance, loaded or not, and its fists within natural reach (``_worth_intercepting``,
``kernel_lower._guard_problem``); their withdrawal weighs each of its three ways (``incoming``,
``WithdrawTables.way_ft``). Set: ``ai-two-guns-beside-a-partner-against-three-gunmen.yaml`` (its own ruleset turns
Aim off so the Submachine Gun runs dry within the fight; under plain edition 1 the slinger Aims first). The Covering
Fire talent among allies stays named (``kernel_covering_lower.covering_problem``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from ashfall.ai import TacticalPolicy
from ashfall.ai.choice import Choice
from ashfall.engine import Engine
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import ENCOUNTERS, OWN, Rewired, played_alike, seeds, setup_of, wrong_kernel_diverges
from tests.kernel.test_kernel_ai import checked_decisions
from tests.kernel.test_kernel_ai_two_guns import _CheckedAttacks

SET = ENCOUNTERS / "ai-two-guns-beside-a-partner-against-three-gunmen.yaml"
SLINGER = "kernel-ai-two-gun-slinger"


def _counts(setup: FightSetup, n: int) -> Counter[str]:
    """The slinger's shots per gun, reloads, Return Fire per gun, targets; the gunmen's Intercepts; any Dodge."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        targets: set[str] = set()
        spent = 0
        for e in reference_fight(setup, seed).log:
            kind = getattr(e, "type", "")
            if kind == "attack-rolled" and e.actor == SLINGER:
                found[f"{'return fire' if e.label == 'Return Fire' else 'shot'} {e.weapon or 'unarmed'}"] += 1
                targets.add(e.target)
            elif kind == "actions-spent" and "reload" in e.label.lower():
                found[f"reload {'slinger' if e.actor == SLINGER else 'gunman'}"] += 1
            elif kind == "actions-spent" and "dodge" in e.label.lower():
                found["dodge"] += 1
            elif kind == "reaction-spent" and "ntercept" in e.label:
                found["intercepts"] += 1
            elif kind == "resource-used" and e.actor == SLINGER and e.resource == "ammo:submachine-gun" and e.delta < 0:
                spent -= e.delta
        found["fights with several targets"] += len(targets) > 1
        found["fights the submachine gun runs dry"] += spent >= 30
    return found


@pytest.mark.rule("G-31", "RX-29", "RX-30", "RX-31", "RX-24", "E-20", "RX-26", "E-19", "POS-1")
@pytest.mark.parametrize(("edition", "n"), [(OWN, 100), ("ashfall-1", 30)], ids=["without-aim", "edition-1"])
def test_kernel_ai_two_guns_beside_a_partner__plays_every_step_of_the_reference_fight(edition: str, n: int) -> None:
    kernel = played_alike(setup_of(SET, edition), n)
    lo = kernel.lowered
    i = lo.ids.index(SLINGER)
    r = lo.ai.ranged
    assert r.ammo[i, :2].tolist() == [30, 12] and r.fire_slot[i].tolist() == [0, 1]  # a magazine each (G-31, RX-31)
    assert lo.ai.withdraw.config[i, 0] == 1.0  # played with allies: its withdrawal is weighed (DOD-1)
    assert lo.ai.withdraw.way_melee[i, :3].tolist() == [1, 0, 0]  # the gunmen weigh its fists and both guns
    gunman = lo.ids.index("kernel-ai-plated-gunman-1")
    assert lo.guard_shot[i, gunman].max() > 0.0  # the gunmen's Intercept weighs its guns (RX-26)


@pytest.mark.rule("G-31", "RX-29", "RX-31", "RX-26", "E-19")
def test_reference_logs__the_slinger_shoots_reloads_fires_back_and_picks_among_three_beside_its_partner() -> None:
    """What the set exercises, and that nobody withdraws or idles (the Dodge the kernel does not play)."""
    found = _counts(setup_of(SET, OWN), 20)
    assert found["shot submachine-gun"] >= 300 and found["return fire submachine-gun"] >= 80, found
    assert found["reload slinger"] >= 4 and found["fights the submachine gun runs dry"] >= 5, found
    assert found["fights with several targets"] >= 18, found
    assert found["dodge"] == 0, found


def _one_magazine(lo: Lowered) -> Lowered:
    """Wrong: the submachine gun's rounds counted as the pistol's (one magazine of twelve for both, G-31)."""
    i = lo.ids.index(SLINGER)
    r = lo.ai.ranged
    ammo, capacity = r.ammo.copy(), r.capacity.copy()
    ammo[i, 0], capacity[i, 0] = ammo[i, 1], capacity[i, 1]
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, ranged=dataclasses.replace(
        r, ammo=ammo, capacity=capacity)))


def _pistol_fires_back(lo: Lowered) -> Lowered:
    """Wrong: Return Fire never with the submachine gun, only the pistol (RX-31: the first loaded one in range)."""
    i = lo.ids.index(SLINGER)
    r = lo.ai.ranged
    fire_back = r.fire_back.copy()
    fire_back[i, 0] = -1
    return dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, ranged=dataclasses.replace(r, fire_back=fire_back)))


@pytest.mark.rule("G-31", "RX-31")
@pytest.mark.parametrize("wrong", [_one_magazine, _pistol_fires_back], ids=["one-magazine", "pistol-fires-back"])
def test_compare_engines__a_kernel_with_the_guns_mixed_up_among_allies_diverges(wrong: object) -> None:
    setup = setup_of(SET, OWN)
    wrong_kernel_diverges(setup, Rewired(setup, wrong), 12, 3)  # type: ignore[arg-type]


class _SlingerOnly(_CheckedAttacks):
    """The slinger's choices only (the gunmen's decisions are held by the fights played step for step)."""

    __slots__ = ()

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        return super().choose(engine, actor) if actor == SLINGER else TacticalPolicy.choose(self, engine, actor)


@pytest.mark.rule("G-31", "RX-24", "ATK-2")
def test_kernel_ai_decide__equals_tactical_policy_choose_for_two_guns_beside_a_partner() -> None:
    """Every choice of the slinger in the reference fights (shots with each gun at each gunman, reloads, Steps), the
    compiled ``decide`` on the same state makes the same."""
    assert check(setup_of(SET, OWN)) is None
    seen = checked_decisions(setup_of(SET, OWN), seeds(4, sweep=43), _SlingerOnly)
    assert len(seen) > 60
    assert any(s[0] == "reload" for s in seen if isinstance(s, tuple))
