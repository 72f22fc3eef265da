"""The tactical AI in the fight kernel shoots ranged weapons with ammunition as the AI does: rounds, reloads, range.

A bandit with a sword and a crossbow (one bolt, a 1-action reload, G-31) against a slow brute; a guard on a
platform with a pistol (twelve rounds) among cover and high ground (X-01, AMOD-2, AMOD-3) against an axeman; two
militia shooting pistols they were never trained with at each other (the fire a square invites from a loaded gun;
no Return Fire without proficiency, RX-31); two trained gunners whose hits set off Return Fire (RX-29, RX-30). The
kernel's decision equals ``TacticalPolicy.choose`` on every state such fights reach (the Reloads among them), the
shot plans are the AI's own best plans with the rounds loaded, what is not covered is named (edition 2's openers,
Deflect, a scripted gunman's Return Fire, two guns with no melee weapon beside them; edition 2's shots in reach and
openers are ``test_kernel_ai_guns_edition_2``'s), and kernels that never reload, plan as if
always loaded, shoot past cover, fear no gun or never fire back must diverge. Every step of the four sets'
reference fights under edition 1 is compared in ``test_kernel_matches_reference`` (the CI subset).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ashfall.ai import TacticalPolicy
from ashfall.ai.plans import Block, Setting
from ashfall.ai.profile import attack_options
from ashfall.ai.sight import situation_code, situation_of
from ashfall.ai.turn import TurnView, hp_left
from ashfall.content.schema import Attributes, Creature, MoraleProfile
from ashfall.kernel import ai as kai
from ashfall.ruleset import preset
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_ranged_lower import RELOAD, RELOAD_NAME
from ashfall.sim.kernel_run import KernelSetup, _ai_tab
from ashfall.sim.kernel_weapons_lower import FIRST, FULL, MODES, PLAIN
from ashfall.sim.runner import play
from ashfall.sim.setups import EncounterSetup, FightSetup, InlineCombatant, InlineSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import ENCOUNTERS, plays_like_the_reference_or_is_named, seeds, setup_of
from tests.kernel.test_kernel_ai import _Mixed, checked_decisions
from tests.kernel.test_kernel_ai_several_ways_to_attack import open_board

CROSSBOW = ENCOUNTERS / "ai-crossbow-against-a-brute.yaml"
PISTOL = ENCOUNTERS / "ai-pistol-among-cover-on-high-ground.yaml"
PISTOLS = ENCOUNTERS / "ai-untrained-pistols-among-cover.yaml"
FIRE_BACK = ENCOUNTERS / "ai-gunners-fire-back-among-cover.yaml"
SHIPPED = Path(__file__).resolve().parents[2] / "encounters"


@pytest.mark.rule("G-31")
def test_kernel_ai_shooter__simulator_rows_equal_the_reference_engine_rows() -> None:
    setup = setup_of(CROSSBOW, "ashfall-1")
    kernel = KernelSetup(setup)
    for seed in seeds(15, sweep=5):
        assert kernel.result(seed) == play(setup, seed)


@pytest.mark.rule("G-31", "E-03", "E-05")
def test_kernel_ai_decide__equals_tactical_policy_choose_with_a_sword_and_a_crossbow() -> None:
    """Every decision of 10 fights, the shots, Reloads, Aims and swings among them, compared one by one."""
    setup = setup_of(CROSSBOW, "ashfall-1")
    seen = checked_decisions(setup, seeds(10, sweep=23))
    assert ("reload", "crossbow") in seen
    assert any(isinstance(e, tuple) and len(e) == 5 and e[3] == "crossbow" for e in seen)  # it shot


@pytest.mark.rule("G-31", "E-03", "E-05")
def test_kernel_ai_shot_tables__are_the_ais_own_best_plans_with_the_rounds_loaded() -> None:
    """With the bolt spent a crossbow plan reloads first (G-31); Aim may open one from where it stands (E-05)."""
    setup = setup_of(CROSSBOW, "ashfall-1")
    kernel = KernelSetup(setup)
    fight = setup.build_fight(0)
    state = fight.engine.state
    roster = list(state.combatants.values())
    options, ranged = kernel.lowered.ai.options, kernel.lowered.ai.ranged
    i = next(k for k, c in enumerate(roster) if isinstance(fight.policies[c.id], TacticalPolicy))
    c = roster[i]
    j, t = next((k, x) for k, x in enumerate(roster) if x.side != c.side)
    policy = fight.policies[c.id]
    assert isinstance(policy, TacticalPolicy)
    view = TurnView(fight.engine, c, (t,))
    xo = next(k for k, o in enumerate(attack_options(c, state)[1:]) if o.ranged)
    option = view.options[xo + 1]
    assert ranged.slots[i, xo] == 1 and ranged.ammo[i, xo] == 1 and ranged.capacity[i, xo] == 1  # one bolt
    code = situation_code(dataclasses.replace(situation_of(0), hostile_within_5ft=False, within_5ft=False))
    base = view._base_in(t, option, code, False)
    assert base is not None
    reloads = 0
    for ammo in (0, 1):
        for mode, extra in ((PLAIN, frozenset()), (FULL, frozenset({Block.AIM}))):
            for left in range(1, options.frac.shape[6]):
                for hp in (1, 9, hp_left(t)):
                    setting = Setting(option, {t.id: base}, {}, {t.id: hp}, {}, 0, ammo,
                                      view.available(option) | extra, {(Block.AIM, t.id): 1.0} if extra else {})
                    plan = view.best_plan(t.id, setting, left, full=True, openers=True,
                                          drop_step=policy.config.drop_step)
                    at = MODES * ammo + mode
                    if plan is None:
                        assert options.first[i, xo, at, j, 0, 0, left, hp] == -1
                        continue
                    assert options.frac[i, xo, at, j, 0, 0, left, hp] == plan.frac
                    assert options.drop[i, xo, at, j, 0, 0, left, hp] == plan.p_drop
                    assert options.first[i, xo, at, j, 0, 0, left, hp] == FIRST[plan.blocks[0]]
                    reloads += plan.blocks[0] is Block.RELOAD
    assert reloads
    assert (options.first[i, xo, MODES:MODES * 2] != RELOAD).all()  # loaded: no plan reloads first


@pytest.mark.rule("G-31")
def test_kernel_ai__reads_the_reload_code_and_label() -> None:
    """The compiled turn's code of a plan's Reload and its recorded label are the lowering's."""
    lo = KernelSetup(setup_of(CROSSBOW, "ashfall-1")).lowered
    label = _ai_tab(lo)[14][4]
    assert kai.RELOAD_BLOCK == RELOAD == FIRST[Block.RELOAD] and lo.action_names[label[0]] == RELOAD_NAME
    assert kai.MODES == MODES


class _WrongRanged:
    """The kernel with the ammunition tables broken on purpose."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        ai = lo.ai
        r, o = ai.ranged, ai.options
        if broken == "never-reloads":  # a bottomless magazine: no shot ever spends the last round (G-31)
            r = dataclasses.replace(r, ammo=np.where(r.ammo >= 0, 1 << 20, r.ammo),
                                    capacity=np.where(r.ammo >= 0, 1 << 20, r.capacity))
        elif broken == "plans-as-if-loaded":  # the AI's plans never count the rounds loaded (G-31)
            frac, drop, first = o.frac.copy(), o.drop.copy(), o.first.copy()
            for i, xo in zip(*np.nonzero(r.slots >= 0), strict=True):
                full = slice(MODES * r.slots[i, xo], MODES * r.slots[i, xo] + MODES)
                for k in range(r.slots[i, xo]):
                    for table in (frac, drop, first):
                        table[i, xo, MODES * k:MODES * k + MODES] = table[i, xo, full]
            o = dataclasses.replace(o, frac=frac, drop=drop, first=first)
        elif broken == "never-fires-back":  # no hit sets off Return Fire (RX-29)
            r = dataclasses.replace(r, fire_back=np.full_like(r.fire_back, -1))
        elif broken == "unafraid-of-guns":  # no enemy's gun counts among the fire a square invites
            o = dataclasses.replace(o, throw_ft=np.full_like(o.throw_ft, -1))
        else:  # shots meet no cover and no high ground (X-01, AMOD-2, AMOD-3)
            o = dataclasses.replace(o, eview=np.zeros_like(o.eview))
        self.kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(ai, ranged=r, options=o))

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("G-31", "X-01", "AMOD-2", "RX-29")
@pytest.mark.parametrize(("broken", "path", "least"), [("never-reloads", CROSSBOW, 10),
                                                    ("plans-as-if-loaded", CROSSBOW, 10),
                                                    ("shots-past-cover", PISTOL, 3),
                                                    ("unafraid-of-guns", PISTOLS, 5),
                                                    ("never-fires-back", FIRE_BACK, 10)])
def test_compare_engines__a_kernel_wrong_about_ammunition_or_cover_diverges(broken: str, path: Path,
                                                                          least: int) -> None:
    setup = setup_of(path, "ashfall-1")
    report = compare_engines(setup, seeds(40), reference_signature, _WrongRanged(setup, broken))
    assert len(report.divergences) >= least
    assert report.divergences[0].explanation


@pytest.mark.rule("E-37", "E-18")
@pytest.mark.parametrize("path", [CROSSBOW, PISTOL], ids=["crossbow", "pistol-among-cover"])
def test_kernel_ai_shooter__edition_2_is_played(path: Path) -> None:
    """Edition 2's openers (E-37) and its Attack of Opportunity on a shot in reach (E-18): on the kernel
    (``test_kernel_ai_guns_edition_2`` compares the fights)."""
    assert check(setup_of(path, "ashfall-2")) is None


@pytest.mark.rule("RX-6", "RX-29", "E-18", "ATK-2")
@pytest.mark.parametrize(("change", "named"), [
    (("weapons: [greataxe]", "weapons: [salvaged-sword]"), "Deflect against ranged attacks (RX-6"),
    # two guns beside a melee weapon, the enemy's or its own (two guns and no melee weapon are played, Return Fire
    # with the first loaded in range: ``test_kernel_ai_two_guns``; a crossbow listed before the sword is played,
    # ``test_kernel_ai_ranged_weapon_first``, and one without a sword beside the unarmed strike,
    # ``test_kernel_ai_fists_beside_a_gun``)
    (("weapons: [greataxe]", "weapons: [greataxe, pistol, hunting-rifle]"), "two guns beside a melee weapon"),
    (("weapons: [salvaged-sword, crossbow]", "weapons: [salvaged-sword, crossbow, pistol]"),
     "two guns beside a melee weapon"),
    # a knife's throw beside the crossbow is weighed out of range too (edition 1); a gun out of range of some square
    # is named (test_kernel_ai_throws_out_of_range)
])
def test_kernel_ai_shooter__what_it_does_not_cover_is_named(tmp_path: Path, change: tuple[str, str],
                                                            named: str) -> None:
    text = CROSSBOW.read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "shooter.yaml"
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    problem = check(EncounterSetup(path, None if "ruleset" in change[1] else "ashfall-1"))
    assert problem is not None and named in problem


@pytest.mark.parametrize("name", ["skirmish", "bandit-band", "corridor"])
def test_shipped_encounters_with_guns__are_named_not_played(name: str) -> None:
    """Their gunmen carry a thrown knife or a second gun, fire bursts or face Return Fire: all named."""
    for edition in ("ashfall-1", "ashfall-2"):
        problem = check(EncounterSetup(SHIPPED / f"{name}.yaml", edition))
        assert problem is not None and problem.strip()


# ----- random fights with shooters -----

MELEE = ("salvaged-sword", "greataxe", "sledgehammer")
FIRST_MELEE = (*MELEE, "combat-knife")
"""The shooter's melee weapon: a combat knife can also be thrown beside its gun (the shipped bandits' kit)."""
TWO_HANDED = ("greataxe", "sledgehammer")
GUNS = ("pistol", "crossbow", "shotgun")


@st.composite
def shooter_fights(draw: st.DrawFn) -> _Mixed:
    """Two sides of one creature each on a grid with terrain, cover objects and height, the first with a gun.

    The first carries a melee weapon (a combat knife, to swing or throw, now and then) and a gun (listed first in
    about half), the second a two-handed melee weapon (no
    free hand to Deflect, RX-6)
    and, now and then, a gun too (Return Fire, RX-29: named); the AI plays both, or the second is scripted.
    """
    width, height = draw(st.integers(6, 10)), draw(st.integers(5, 7))
    squares = iter(draw(st.permutations([(x, y) for x in range(width) for y in range(height)])))
    members: list[InlineCombatant] = []
    ai: list[bool] = []
    scripted = draw(st.booleans())
    for s in range(2):
        cid = f"c{s}"
        gun = draw(st.sampled_from(GUNS)) if s == 0 or draw(st.integers(0, 4)) == 0 else None
        weapons = (draw(st.sampled_from(FIRST_MELEE if s == 0 else TWO_HANDED)), *((gun,) if gun else ()))
        if gun and s == 0 and draw(st.booleans()):  # a marksman's kit: the gun listed first (ATK-2)
            weapons = weapons[::-1]
        creature = Creature(
            id=cid, name=cid.title(), hp=draw(st.integers(6, 40)), proficiency=draw(st.integers(0, 3)),
            attributes=Attributes(MIG=draw(st.integers(-2, 4)), AGI=draw(st.integers(-1, 4))), weapons=weapons,
            armor=draw(st.sampled_from([None, "scrap-leathers", "flak-vest"])),
            weapon_proficiencies=frozenset({"simple", "martial"}), morale=MoraleProfile(immune=True))
        plan = tuple(draw(st.lists(st.sampled_from(("strike", "power-strike")), min_size=1, max_size=2)))
        members.append(InlineCombatant(cid, f"side{s}", creature, next(squares), plan))
        ai.append(not (scripted and s == 1))
    board = open_board(draw, width, height, members)
    inline = InlineSetup("random shooter fight", tuple(members), preset("ashfall-1"), board, 8)
    return _Mixed(inline, tuple(ai))


@pytest.mark.rule("G-31", "ATK-2", "E-05", "AMOD-2", "COV-1", "COV-2", "POS-4")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shooter_fights())
def test_random_shooter_fights__kernel_matches_reference_or_names_what_it_lacks(setup: _Mixed) -> None:
    plays_like_the_reference_or_is_named(setup, 5, (setup.inline, setup.ai))
