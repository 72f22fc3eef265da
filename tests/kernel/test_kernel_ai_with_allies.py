"""The tactical AI with allies in the fight kernel: flanking with them, the withdrawal it judges, the dying.

A creature the AI plays decides with its allies' squares in mind (its attack flanks where an ally stands across the
target, POS-1) and, badly hurt and outmatched with an ally still up, withdraws (DOD-1, DOD-2): the kernel makes
that judgement exactly and stops the fight at the Dodge, every step before it the reference engine's; the
simulator plays such a trial on the reference engine. Dying creatures stay in the fight (DEATH-1..9) where no AI
creature would treat them; the rest (a Medicine check beside a dying ally, E-31; a kit, MAA-6; several ways to
attack) is named.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ashfall.content.schema import Attributes, Creature, CreatureKind, DrEntry, MoraleProfile
from ashfall.engine.records import Tally, with_key
from ashfall.grid.board import Board
from ashfall.kernel import ai as kai
from ashfall.ruleset import preset
from ashfall.sim import kernel_allies_lower as kall
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_run import MEDICINE_STEP, KernelSetup
from ashfall.sim.runner import play, simulate
from ashfall.sim.setups import EncounterSetup, FightSetup, InlineCombatant, InlineSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import (
    ENCOUNTERS,
    STOPPED,
    plays_like_the_reference_or_is_named,
    seeds,
    setup_of,
    stops_at_the_dodge,
)
from tests.kernel.test_kernel_ai import TERRAIN, _Mixed

VETERANS = ENCOUNTERS / "ai-veterans-against-a-falling-gang.yaml"
PACK = ENCOUNTERS / "ai-pack-against-a-lone-brute.yaml"
MEDIC = ENCOUNTERS / "ai-medic-stabilises-a-fallen-partner.yaml"
TWO_ON_TWO = STOPPED / "ai-two-on-two-in-the-open.yaml"
"""An AI two-on-two where a hurt creature often withdraws: the kernel stops there (not a set of the harness)."""


def test_kernel_ai_with_allies__reads_the_lowered_withdrawal_slots() -> None:
    assert (kai.WD_ON, kai.WD_BELOW) == (kall.WD_ON, kall.WD_BELOW)


@pytest.mark.rule("DOD-1", "DOD-2")
def test_kernel_ai_withdrawal__stops_at_the_references_dodge_with_every_step_before_it_the_same() -> None:
    setup = setup_of(TWO_ON_TWO, "ashfall-1")
    assert check(setup) is None
    assert 3 <= stops_at_the_dodge(setup, 30) < 30  # some hurt creature withdraws; most fights it never comes to that


@pytest.mark.rule("DOD-1", "DOD-2")
def test_kernel_ai_withdrawal__the_simulator_counts_a_stopped_trial_as_the_reference_plays_it() -> None:
    setup = setup_of(TWO_ON_TWO, "ashfall-1")
    kernel = KernelSetup(setup)
    rows = kernel.results(5, 0, 30)
    assert rows == [play(setup, seed) for seed in seeds(30, sweep=5)]
    fast, slow = simulate(setup, 30, 5, engine="kernel"), simulate(setup, 30, 5, engine="reference")
    assert fast.to_jsonable() == slow.to_jsonable()


class _Broken:
    """The kernel with one AI table broken on purpose: a runner the harness must catch."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        ai = lo.ai
        if broken == "ignores-its-allies-flanking":  # its own attack valued as if no ally ever flanked (POS-1)
            frac, drop, first = ai.plan_frac.copy(), ai.plan_drop.copy(), ai.plan_first.copy()
            for table in (frac, drop, first):
                table[:, :, 1::2] = table[:, :, 0::2]
            ai = dataclasses.replace(ai, plan_frac=frac, plan_drop=drop, plan_first=first)
        elif broken == "never-withdraws":  # never at or below its share of HP (DOD-1)
            config = ai.withdraw.config.copy()
            config[:, kall.WD_BELOW] = -1.0
            ai = dataclasses.replace(ai, withdraw=dataclasses.replace(ai.withdraw, config=config))
        else:  # "always-outmatched": at any HP, every enemy's turn deadly (DOD-1)
            config = ai.withdraw.config.copy()
            config[:, kall.WD_BELOW] = 1.0
            ai = dataclasses.replace(ai, withdraw=dataclasses.replace(ai.withdraw, config=config,
                                                                      way_mean=ai.withdraw.way_mean + 1000.0))
        self.kernel.lowered = dataclasses.replace(lo, ai=ai)

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.parametrize(("broken", "path", "least"), [("ignores-its-allies-flanking", PACK, 5),
                                                    ("never-withdraws", TWO_ON_TWO, 3),
                                                    ("always-outmatched", PACK, 5)])
def test_compare_engines__a_kernel_wrong_about_allies_diverges(broken: str, path: Path, least: int) -> None:
    setup = setup_of(path, "ashfall-1")
    report = compare_engines(setup, seeds(30), reference_signature, _Broken(setup, broken))
    assert len(report.divergences) >= least
    assert report.divergences[0].explanation


def _variant(tmp_path: Path, old: str, new: str) -> EncounterSetup:
    text = TWO_ON_TWO.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "variant.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return EncounterSetup(path, "ashfall-1")


@pytest.mark.rule("E-31", "DEATH-17", "MAA-6")
def test_kernel_ai_with_allies__a_dying_ally_is_stabilised_with_a_medicine_check_and_a_kit_is_named(
        tmp_path: Path) -> None:
    # a player character falls dying (DEATH-1): under edition 1 its ally tries the Medicine check beside it (E-31)
    pc = _variant(tmp_path, "      name: Cutter\n", "      name: Cutter\n      kind: pc\n")
    assert check(pc) is None
    medic = KernelSetup(pc).lowered.ai.withdraw
    assert medic.medic[0, 0] == 1 and medic.medic_ints[kall.MED_ON] == 1  # the raider may treat the cutter
    assert medic.medic[0, 1] == 0 and medic.medic[0, 20] == 1  # a 1 fails the DC 10, a 20 succeeds (E-31)
    assert (kai.MED_ON, kai.MED_COST, kai.MED_REACH) == (kall.MED_ON, kall.MED_COST, kall.MED_REACH)
    # with a Medicine kit it would use it (MAA-6) or walk up to use it: not mirrored, named
    fight = pc.build_fight(0)
    raider = fight.engine.state.get("kernel-ai-pair-raider")
    raider.supplies = with_key(raider.supplies, Tally.MEDICINE_KIT, 1)
    assert kall.allies_problem(fight, raider) == ("the tactical AI treating a dying ally (MAA-6, G-31, HEAL-1, "
                                                  "combatant kernel-ai-pair-raider)")


def test_kernel_ai_with_allies__several_ways_to_attack_are_named(tmp_path: Path) -> None:
    knife = _variant(tmp_path, "weapons: [salvaged-sword]", "weapons: [combat-knife]")
    problem = check(knife)
    assert problem is not None and "several ways to attack" in problem


@pytest.mark.rule("POS-1", "RX-21", "RX-26", "DEATH-1", "DEATH-2")
def test_kernel_ai_with_allies__dying_raiders_stay_in_the_fight_and_are_left_be() -> None:
    setup = setup_of(VETERANS, "ashfall-1")
    kernel = KernelSetup(setup)
    saves = 0
    for seed in seeds(40):
        saves += sum(step.action == "check-rolled:death save" for step in kernel.signature(seed).steps)
    assert saves > 0  # dying raiders roll their death saves while the veterans fight on
    report = compare_engines(setup, seeds(40), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first


@pytest.mark.rule("E-31", "DEATH-17", "DEATH-9")
def test_kernel_ai_with_allies__the_medic_tries_its_medicine_check_on_its_dying_partner_as_the_reference_does() -> None:
    setup = setup_of(MEDIC, "ashfall-1")
    kernel = KernelSetup(setup)
    checks = sum(step.action == MEDICINE_STEP for seed in seeds(40) for step in kernel.signature(seed).steps)
    assert checks >= 2  # the medic is beside its fallen partner in some fights
    report = compare_engines(setup, seeds(40), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first


# ----- random AI teams -----

WEAPONS = ("salvaged-sword", "greataxe", "sledgehammer", "chainsaw", "combat-knife")
"""A creature's melee weapon: the Combat Knife can also be thrown (played beside a gun, named without one)."""
GUNS = (None, None, "pistol", "crossbow")
"""A creature's second way to attack: none, or a gun or crossbow with ammunition (G-31)."""


def _kit(melee: str, gun: str | None, gun_first: bool) -> tuple[str, ...]:
    """A creature's weapons as listed: the melee weapon, and its gun after it or (``gun_first``) before it."""
    if gun is None:
        return (melee,)
    return (gun, melee) if gun_first else (melee, gun)


@st.composite
def ai_teams(draw: st.DrawFn) -> _Mixed:
    """Two sides on an open grid with terrain: an AI team of two or three against one to three, AI or scripted.

    Each creature has a melee weapon (perhaps one that can also be thrown) and, often, a gun or crossbow (G-31), listed
    before the melee weapon in about half (ATK-2: the AI weighs it first); a scripted one's is named.
    """
    width, height = draw(st.integers(6, 10)), draw(st.integers(5, 8))
    squares = iter(draw(st.permutations([(x, y) for x in range(width) for y in range(height)])))
    members: list[InlineCombatant] = []
    ai: list[bool] = []
    sizes = (draw(st.integers(2, 3)), draw(st.integers(1, 3)))
    foes_ai = draw(st.booleans())
    for s, size in enumerate(sizes):
        for m in range(size):
            cid = f"c{s}{m}"
            dr = draw(st.integers(0, 3))
            creature = Creature(
                id=cid, name=cid.title(), hp=draw(st.integers(4, 40)), temp_hp=draw(st.integers(0, 5)),
                proficiency=draw(st.integers(0, 3)),
                attributes=Attributes(MIG=draw(st.integers(-1, 4)), AGI=draw(st.integers(-1, 4))),
                weapons=_kit(draw(st.sampled_from(WEAPONS)), draw(st.sampled_from(GUNS)), draw(st.booleans())),
                armor=draw(st.sampled_from([None, "scrap-leathers", "flak-vest"])),
                weapon_proficiencies=frozenset({"simple", "martial"}),
                dr=(DrEntry(amount=dr, source="hide"),) if dr else (), morale=MoraleProfile(immune=True),
                kind=CreatureKind.PC if s == 1 and draw(st.booleans()) else CreatureKind.NPC)
            plan = tuple(draw(st.lists(st.sampled_from(("strike", "power-strike")), min_size=1, max_size=2)))
            members.append(InlineCombatant(cid, f"side{s}", creature, next(squares), plan))
            ai.append(s == 0 or foes_ai)
    taken = {c.position for c in members}
    free = [(x, y) for x in range(width) for y in range(height) if (x, y) not in taken]
    terrain = draw(st.dictionaries(st.sampled_from(free), st.sampled_from(TERRAIN), max_size=8))
    board = Board(width, height, terrain)
    # mostly edition 1: under edition 2 the AI's Sweeping Strike and Trip among several enemies are named (E-37)
    edition = draw(st.sampled_from(["ashfall-1", "ashfall-1", "ashfall-1", "ashfall-2"]))
    rs = preset(edition)
    if draw(st.booleans()):  # a burst of one target (MAA-2's house rule); else edition 1 plays bursts of three (G-35)
        rs = rs.with_options(attack={"full_auto_targets": 1})
    inline = InlineSetup("random AI teams", tuple(members), rs, board, draw(st.sampled_from([3, 10])))
    return _Mixed(inline, tuple(ai))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ai_teams())
@pytest.mark.rule("POS-1", "DOD-1", "RX-21", "RX-26", "G-31", "RX-29", "E-19", "ATK-2")
def test_random_ai_teams__kernel_matches_reference_or_names_what_it_lacks(setup: _Mixed) -> None:
    plays_like_the_reference_or_is_named(setup, 6, (setup.inline, setup.ai))


def test_random_ai_teams__an_example_plays_on_the_kernel() -> None:
    """The property's fights are not all named: a plain AI pair against a scripted creature plays."""
    sword = Creature(id="a", name="A", hp=30, attributes=Attributes(MIG=2, AGI=1), weapons=("salvaged-sword",),
                     weapon_proficiencies=frozenset({"simple", "martial"}), morale=MoraleProfile(immune=True))
    members = (InlineCombatant("a0", "side0", sword, (0, 0), ("strike",)),
               InlineCombatant("a1", "side0", sword.model_copy(update={"id": "b"}), (0, 2), ("strike",)),
               InlineCombatant("b0", "side1", sword.model_copy(update={"id": "c"}), (6, 1), ("strike",)))
    setup = _Mixed(InlineSetup("AI pair", members, preset("ashfall-1"), Board(8, 4, {}), 10), (True, True, False))
    assert check(setup) is None
    kernel = KernelSetup(setup)
    report = compare_engines(setup, seeds(10), reference_signature, lambda _, seed: kernel.signature(seed))
    assert report.identical, report.first
    assert np.asarray(KernelSetup(setup).lowered.ai.withdraw.config)[:2, kall.WD_ON].tolist() == [1.0, 1.0]
