"""Edition 2's tactical AI with a thrown melee weapon beside a gun in the fight kernel (E-37, E-18, C-PRO).

A creature the AI plays alone on its side may carry a melee weapon that can be thrown beside a gun or crossbow (the
shipped bandits' Combat Knife and Crossbow, the darkness soldier's Hunting Rifle and Combat Knife). Under
``ashfall-2`` both ranged options have their plans against a target up and lying prone beside the AI's Trip (E-37,
C-PRO: the gun's for each number of rounds loaded, the throw's), an enemy's throw beside its gun weighs in the fire a
square invites with that enemy lying prone too (``OptionTables.prone_fire[2]``), and a throw or a shot from within an
enemy's reach provokes its Attack of Opportunity first (E-18, RX-21), weighed and played as for one gun or one throw.
Return Fire's tables hold a reactor or shooter lying prone (C-PRO). The sets happen as described (Trips, throws and
shots at prone targets, Attacks of Opportunity before throws and shots, choices made with the pair's owner prone),
the kernel plays them step for step, its tables are the AI's own, and kernels that read a prone target's throw plans
as one up or let a throw or shot provoke nothing diverge. What is still not played is named: Trip among allies, a
Feint opener, Return Fire from within a shooter's reach.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ashfall.ai import TacticalPolicy
from ashfall.ai.plans import Setting
from ashfall.ai.profile import attack_options
from ashfall.ai.turn import TurnView, hp_left
from ashfall.core.types import Condition
from ashfall.engine import Combatant
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_maneuvers import ALL_STATES, ATTACKER_PRONE, PRONE_UP, with_conditions
from ashfall.sim.kernel_option_slots import kernel_options
from ashfall.sim.kernel_run import KernelSetup, kernel_signature
from ashfall.sim.kernel_weapons_lower import FIRST, MODES, PLAIN, PRONE, _code
from ashfall.sim.setups import EncounterSetup, Fight, FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_fight, reference_signature
from tests.kernel.kit import ENCOUNTERS, seeds, setup_of, wrong_kernel_diverges
from tests.kernel.test_kernel_ai import checked_decisions
from tests.kernel.test_kernel_ai_openers_with_several_ways_to_attack import _CheckedUp

BANDIT = ENCOUNTERS / "ai-knife-and-crossbow-bandit-against-a-tripping-brawler.yaml"
RIFLEMAN = ENCOUNTERS / "ai-rifleman-and-knife-against-a-tripping-brawler.yaml"
DUEL = ENCOUNTERS / "ai-rifleman-and-knife-against-a-knife-and-crossbow-bandit.yaml"
STOREROOM = ENCOUNTERS / "ai-soldier-and-krel-in-a-lit-storeroom.yaml"
SETS = [BANDIT, RIFLEMAN, DUEL, STOREROOM]
GUNS = ("crossbow", "hunting-rifle")
THROWN = ("combat-knife",)
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.rule("E-37", "E-18", "C-PRO", "TRP-1", "TRP-3", "RX-21", "G-31", "ATK-2")
@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_kernel_ai_throw_beside_a_gun_edition_2__plays_every_step_of_the_reference_fight(path: Path) -> None:
    setup = setup_of(path, "ashfall-2")
    assert check(setup) is None
    report = compare_engines(setup, seeds(100), reference_signature, kernel_signature)
    assert report.identical, report.first


def _events(path: Path, n: int) -> Counter[str]:
    """Trips, throws and shots (at prone targets too), the Attacks of Opportunity they provoke, and the choices made
    while an enemy with a throw beside its gun lies prone, in the reference fights of the set's own sweep."""
    setup = EncounterSetup(path, "ashfall-2")
    state = setup.build_fight(0).engine.state
    side = {c.id: c.side for c in state.combatants.values()}
    pair = {c.id for c in state.combatants.values() if {w.id for w in c.weapons} & set(GUNS)
            and {w.id for w in c.weapons} & set(THROWN)}
    found: Counter[str] = Counter()
    for seed in seeds(n, sweep=setup.load_spec().seed or 0):
        log = list(reference_fight(setup, seed).log)
        prone: set[str] = set()
        for k, e in enumerate(log):
            kind = getattr(e, "type", "")
            if kind in ("condition-added", "condition-removed") and e.applied.condition is Condition.PRONE:
                (prone.add if kind == "condition-added" else prone.discard)(e.target)
            elif kind == "actions-spent":
                found[e.label] += e.label == "trip"
                found["chosen with the pair prone"] += any(p in prone and side[p] != side[e.actor] for p in pair)
            elif kind == "attack-rolled":
                what = _ranged(e)
                if "pportunity" in e.label:
                    after = next((f for f in log[k + 1:] if getattr(f, "type", "") == "attack-rolled"), None)
                    if after is not None and after.actor == e.target and _ranged(after):
                        found[f"aoo before a {_ranged(after)}"] += 1
                elif what and e.label != "Return Fire":
                    found[what] += 1
                    found[f"{what} at prone"] += e.target in prone
    return found


def _ranged(e: object) -> str:
    weapon = getattr(e, "weapon", "")
    if weapon in GUNS:
        return "shot"
    roll = getattr(e, "roll", None)
    return "throw" if weapon in THROWN and roll is not None and any(m.rule == "ATK-2" for m in roll.modifiers) else ""


@pytest.mark.rule("E-37", "E-18", "C-PRO", "TRP-1", "RX-21")
def test_edition_2_throw_beside_a_gun_sets__the_features_happen_in_the_reference_fights() -> None:
    bandit, rifleman, duel = _events(BANDIT, 40), _events(RIFLEMAN, 40), _events(DUEL, 40)
    for found in (bandit, rifleman, duel):
        assert all(found[w] >= 3 for w in ("trip", "throw", "shot", "throw at prone", "chosen with the pair prone")), \
            found
        assert found["aoo before a throw"] >= 1, found
    assert rifleman["shot at prone"] >= 3 and rifleman["aoo before a shot"] >= 3, rifleman
    assert duel["aoo before a shot"] >= 1, duel


@pytest.mark.rule("E-37", "E-18", "TRP-1", "C-PRO")
@pytest.mark.parametrize("path", [BANDIT, RIFLEMAN], ids=["bandit", "rifleman"])
def test_kernel_ai_decide__equals_tactical_policy_choose_with_a_throw_beside_a_gun_under_edition_2(path: Path) -> None:
    """Every decision of 8 fights: Trips, shots and swings among them, and the bandit's throws (the rifleman throws
    about once in three fights; an attack with the AI's first option, the rifleman's rifle, is named without its
    weapon)."""
    seen = checked_decisions(setup_of(path, "ashfall-2"), seeds(8, sweep=37), _CheckedUp)
    attacks = [e for e in seen if isinstance(e, tuple) and e[0] == "attack"]
    first_is_gun = path == RIFLEMAN
    assert any(e[3] in GUNS if len(e) == 5 else first_is_gun and e[2] != "trip" for e in attacks)  # it shot
    assert first_is_gun or any(len(e) == 5 and e[3] in THROWN and e[4] for e in attacks)  # the bandit threw
    assert any(e[2] == "trip" for e in attacks)


def _pair_of(setup: FightSetup, who: str) -> tuple[Fight, int, Combatant, int, Combatant]:
    """The built fight, ``who`` and its one enemy (roster indices and combatants)."""
    fight = setup.build_fight(0)
    roster = list(fight.engine.state.combatants.values())
    i, c = next((k, x) for k, x in enumerate(roster) if x.id == who)
    j, t = next((k, x) for k, x in enumerate(roster) if x.side != c.side)
    return fight, i, c, j, t


@pytest.mark.rule("E-37", "C-PRO", "TRP-3")
@pytest.mark.parametrize("prone", [False, True], ids=["target-up", "target-prone"])
def test_kernel_ai_throw_beside_a_gun_tables__hold_the_throws_plans_against_a_target_up_and_prone(prone: bool) -> None:
    """The knife's throw beside the crossbow: the AI's own best plans (``TurnView.best_plan``) from a Step's square,
    the brawler up or lying prone, at ``setting (+ PRONE)``; the throw counts no rounds (it stays in hand)."""
    setup = setup_of(BANDIT, "ashfall-2")
    lo = KernelSetup(setup).lowered
    options, ranged = lo.ai.options, lo.ai.ranged
    fight, i, c, j, t = _pair_of(setup, "kernel-ai-knife-bandit")
    state = fight.engine.state
    policy = fight.policies[c.id]
    assert isinstance(policy, TacticalPolicy)
    slots = kernel_options(c, state)
    xo = next(k for k, o in enumerate(slots[1:]) if o.thrown)
    assert ranged.slots[i, xo] < 0 and options.frac.shape[2] == 2 * MODES * 2  # no rounds; the bolt's two loads
    code = _code(False, False, 0)
    checked = 0
    with with_conditions(t, *((Condition.PRONE,) if prone else ())):
        view = TurnView(fight.engine, c, (t,))
        option = next(o for o in view.options if o.thrown)
        assert option.weapon_id == slots[xo + 1].weapon_id == "combat-knife"
        base = view._base_in(t, option, code, False)
        assert base is not None
        for left in range(1, options.frac.shape[6]):
            for hp in (1, 9, hp_left(t)):
                setting = Setting(option, {t.id: base}, {}, {t.id: hp}, {}, 0, None, view.available(option), {})
                plan = view.best_plan(t.id, setting, left, full=True, openers=True, drop_step=policy.config.drop_step)
                assert plan is not None
                at = (i, xo, PLAIN + (PRONE if prone else 0), j, 0, 0, left, hp)
                assert options.frac[at] == plan.frac
                assert options.drop[at] == plan.p_drop
                assert options.first[at] == FIRST[plan.blocks[0]]
                checked += 1
    assert checked


@pytest.mark.rule("E-37", "C-PRO", "ATK-2")
def test_kernel_ai_fire_of_a_prone_enemy__its_throw_beside_its_gun_is_the_ais_own_value() -> None:
    """``prone_fire[2]``: the rifleman's knife thrown while it lies prone, as the brawler's ``TurnView`` values it
    (``_enemy_value``: disadvantage, C-PRO), and less than the same throw standing."""
    setup = setup_of(RIFLEMAN, "ashfall-2")
    options = KernelSetup(setup).lowered.ai.options
    fight, i, c, j, t = _pair_of(setup, "kernel-ai-brawler")
    assert options.throw2_ft[j] == 60 and options.throw_ft[j] == 600  # the rifle first (its rounds), then the knife
    with with_conditions(t, Condition.PRONE):
        view = TurnView(fight.engine, c, (t,))
        knife = next(o for o in attack_options(t, fight.engine.state) if o.thrown)
        for k in range(4):  # "a hostile within 5 ft", within 5 ft; no cover between
            if k & 2 and not k & 1:
                continue
            expected = view._enemy_value(t, knife, _code(bool(k & 1), bool(k & 2), 0))
            assert options.prone_fire[2, j, i, k] == expected
            # disadvantage, unless "a hostile within 5 ft" of the thrower gives it already (AMOD-7)
            assert expected < options.throw2_hit[j, i, k] if not k & 1 else expected == options.throw2_hit[j, i, k]


class _Wrong:
    """The kernel with one table of the throw beside a gun under edition 2 broken on purpose."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        o = lo.ai.options
        if broken == "prone-target-throws-read-as-up":  # the throw's plans against a prone target (C-PRO)
            frac, drop, first = o.frac.copy(), o.drop.copy(), o.first.copy()
            for i, xo in zip(*np.nonzero(o.ranged), strict=True):
                if lo.ai.ranged.slots[i, xo] < 0:  # the throw: no rounds counted
                    for table in (frac, drop, first):
                        table[i, xo, PRONE:2 * PRONE] = table[i, xo, :PRONE]
            o = dataclasses.replace(o, frac=frac, drop=drop, first=first)
        else:  # "throws-and-shots-provoke-nothing": no Attack of Opportunity in reach, none feared (E-18)
            o = dataclasses.replace(o, shot=np.zeros_like(o.shot))
        self.kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, options=o))

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("E-37", "E-18", "C-PRO")
@pytest.mark.parametrize(("broken", "path", "count", "least"), [("prone-target-throws-read-as-up", DUEL, 100, 2),
                                                             ("throws-and-shots-provoke-nothing", RIFLEMAN, 60, 5),
                                                             ("throws-and-shots-provoke-nothing", DUEL, 60, 3)])
def test_compare_engines__a_kernel_wrong_about_a_throw_beside_a_gun_under_edition_2_diverges(
        broken: str, path: Path, count: int, least: int) -> None:
    """A prone target's throw plans matter where the AI trips and then throws from a Step away (beside it a throw
    has disadvantage either way, AMOD-7); a prone thrower's fire (``prone_fire[2]``) decides no choice in these sets
    (the tripper stands beside it, where it has disadvantage either way, and a loaded gun weighs more): it is held
    by the table test above and the decisions test."""
    setup = setup_of(path, "ashfall-2")
    wrong_kernel_diverges(setup, _Wrong(setup, broken), count, least)


@pytest.mark.rule("E-37", "E-18", "FNT-2", "RX-26", "G-35")
@pytest.mark.parametrize(("path", "named"), [
    (ENCOUNTERS / "ai-knife-and-crossbow-pair-against-a-brute.yaml", "Trip on a creature with allies"),
    (ENCOUNTERS / "ai-rifleman-and-knife-against-a-brute.yaml", "feint beside further ways to attack"),
    (ENCOUNTERS / "ai-knife-and-pistol-warden-intercepts-a-bandits-throws.yaml",
     "Return Fire from within a shooter's reach (E-18"),
    (ENCOUNTERS / "ai-javelin-and-pistol-pair-against-a-knife-and-crossbow-bandit.yaml",
     "Return Fire from within a shooter's reach (E-18"),
    (ROOT / "encounters" / "bandit-band.yaml",
     "Return Fire from within a shooter's reach (E-18, combatant bandit-leader"),
    (ROOT / "encounters" / "darkness.yaml", "light and obscurement on the move"),
], ids=["pair-trips-among-allies", "rifleman-feints", "warden-fires-back-in-reach", "javelins-fire-back-in-reach",
        "shipped-bandit-band", "shipped-darkness"])
def test_kernel_ai_throw_beside_a_gun_edition_2__what_is_not_played_is_named(path: Path, named: str) -> None:
    """The pair itself is played under edition 2 now; each of these is named by what comes next."""
    problem = check(EncounterSetup(path, "ashfall-2"))
    assert problem is not None and named in problem
    assert "beside a thrown weapon and a gun" not in problem and "a throw and a shot" not in problem


@pytest.mark.rule("E-37", "C-PRO", "RX-29", "RX-30")
def test_kernel_return_fire_tables__hold_a_prone_reactor_and_a_prone_shooter_under_edition_2() -> None:
    """A creature tripped on the shooter's turn and then shot from outside its reach may still fire back (its
    reaction unspent): the Return Fire tables hold the reactor lying prone (its attack at disadvantage) and the
    shooter lying prone (a ranged attack on it at disadvantage), beside both up (C-PRO)."""
    setup = setup_of(ENCOUNTERS / "ai-pistol-and-shotgun-fire-back-at-a-penalty.yaml", "ashfall-2")
    ranged = KernelSetup(setup).lowered.ai.ranged
    assert ranged.draws.shape[4] == ALL_STATES
    i, j = (int(k) for k in np.nonzero(ranged.fire_back >= 0)[0][:2])
    code = 0  # no hostile within 5 ft, not within 5 ft, no cover between
    up = ranged.draws[i, j, 0, 0, 0, code]
    assert up == 1  # one d20
    single = ranged.outcome[i, j, 0, 0, 0, code][:, 0]
    for state in (PRONE_UP, ATTACKER_PRONE, ATTACKER_PRONE + PRONE_UP):
        assert ranged.draws[i, j, 0, 0, state, code] == 2  # disadvantage: two d20s, the lower kept
        table = ranged.outcome[i, j, 0, 0, state, code]
        assert all(table[f - 1, g - 1] == single[min(f, g) - 1] for f in range(1, 21) for g in range(1, 21))
