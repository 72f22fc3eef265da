"""The tactical AI in the fight kernel weighs several ways to attack as the AI does: melee weapons and a thrown one.

A skirmisher with a sword and javelins (thrown, ATK-2; Aim first under edition 1, E-05; "a hostile within 5 ft",
AMOD-7) plays every step of the reference fight against a scripted brute that carries a javelin it never throws
(whose throw the AI still counts among the fire a square invites); so does the shipped duel under ``ashfall-1``
(two Warriors with a greataxe and a javelin). The kernel's decision equals ``TacticalPolicy.choose`` on every
state such fights reach, the thrown plans are the AI's own best plans, what is not covered is named, and kernels
that never throw or never fear a throw must diverge.
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
from ashfall.grid.board import Board, CoverLevel, CoverObject
from ashfall.ruleset import preset
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_run import KernelSetup, kernel_signature
from ashfall.sim.kernel_weapons_lower import AIM, FIRST, FULL, PLAIN
from ashfall.sim.runner import play
from ashfall.sim.setups import EncounterSetup, FightSetup, InlineCombatant, InlineSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import ENCOUNTERS, plays_like_the_reference_or_is_named, seeds, setup_of
from tests.kernel.test_kernel_ai import TERRAIN, _Mixed, checked_decisions

THROWER = ENCOUNTERS / "ai-thrower-on-open-ground.yaml"
THROWERS_AMONG_COVER = ENCOUNTERS / "ai-throwers-among-cover.yaml"
SHIPPED_DUEL = Path(__file__).resolve().parents[2] / "encounters" / "duel.yaml"


@pytest.mark.rule("ATK-2", "E-05", "AMOD-7", "RX-21", "MAP-1", "E-01", "COV-1", "COV-2", "POS-4", "X-01")
@pytest.mark.parametrize("path", [THROWER, THROWERS_AMONG_COVER], ids=["open-ground", "among-cover"])
def test_kernel_ai_thrower__plays_every_step_of_the_reference_fight(path: Path) -> None:
    report = compare_engines(setup_of(path, "ashfall-1"), seeds(100), reference_signature, kernel_signature)
    assert report.identical, report.first


def test_shipped_duel_edition_1__is_on_the_kernel() -> None:
    """Its fights are compared with the other shipped encounters the kernel plays (test_kernel_matches_reference)."""
    assert check(EncounterSetup(SHIPPED_DUEL, "ashfall-1")) is None


def test_kernel_ai_thrower__simulator_rows_equal_the_reference_engine_rows() -> None:
    setup = setup_of(THROWER, "ashfall-1")
    kernel = KernelSetup(setup)
    for seed in seeds(15, sweep=5):
        assert kernel.result(seed) == play(setup, seed)


@pytest.mark.rule("ATK-2", "E-05")
def test_kernel_ai_decide__equals_tactical_policy_choose_with_a_sword_and_javelins() -> None:
    """Every decision of 10 fights, the throws, Aims and swings among them, compared one by one."""
    setup = setup_of(THROWER, "ashfall-1")
    seen = checked_decisions(setup, seeds(10, sweep=23))
    assert any(len(e) == 5 and e[4] for e in seen if isinstance(e, tuple))  # it threw
    assert len(seen) > 60


@pytest.mark.rule("E-05")
def test_kernel_ai_thrown_tables__are_the_ais_own_best_plans_with_aim_first() -> None:
    """From where it stands Aim may open a thrown plan (E-05); from a Step's square it may not."""
    setup = setup_of(THROWER, "ashfall-1")
    kernel = KernelSetup(setup)
    fight = setup.build_fight(0)
    state = fight.engine.state
    roster = list(state.combatants.values())
    options = kernel.lowered.ai.options
    i = next(k for k, c in enumerate(roster) if isinstance(fight.policies[c.id], TacticalPolicy))
    c = roster[i]
    j, t = next((k, x) for k, x in enumerate(roster) if x.side != c.side)
    policy = fight.policies[c.id]
    assert isinstance(policy, TacticalPolicy)
    view = TurnView(fight.engine, c, (t,))
    xo = next(k for k, o in enumerate(attack_options(c, state)[1:]) if o.thrown)
    option = view.options[xo + 1]
    code = situation_code(dataclasses.replace(situation_of(0), hostile_within_5ft=False, within_5ft=False))
    base = view._base_in(t, option, code, False)
    assert base is not None
    aims = 0
    for mode, extra in ((PLAIN, frozenset()), (FULL, frozenset({Block.AIM}))):
        for left in range(1, options.frac.shape[6]):
            for hp in (1, 9, hp_left(t)):
                setting = Setting(option, {t.id: base}, {}, {t.id: hp}, {}, 0, None,
                                  view.available(option) | extra, {(Block.AIM, t.id): 1.0} if extra else {})
                plan = view.best_plan(t.id, setting, left, full=True, openers=True, drop_step=policy.config.drop_step)
                assert plan is not None
                assert options.frac[i, xo, mode, j, 0, 0, left, hp] == plan.frac
                assert options.drop[i, xo, mode, j, 0, 0, left, hp] == plan.p_drop
                assert options.first[i, xo, mode, j, 0, 0, left, hp] == FIRST[plan.blocks[0]]
                aims += plan.blocks[0] is Block.AIM
    assert aims and (options.first[i, xo, PLAIN] != AIM).all()


class _WrongOptions:
    """The kernel with the further options' tables broken on purpose."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        o = lo.ai.options
        if broken == "never-throws":  # no thrown plan is ever worth anything (ATK-2)
            first = o.first.copy()
            first[np.broadcast_to(o.ranged[:, :, None, None, None, None, None, None] == 1, first.shape)] = -1
            o = dataclasses.replace(o, first=first)
        elif broken == "unafraid-of-throws":  # no enemy's throw counts among the fire a square invites
            o = dataclasses.replace(o, throw_ft=np.full_like(o.throw_ft, -1))
        else:  # thrown attacks meet no cover and no high ground (COV-1, COV-2, POS-4)
            o = dataclasses.replace(o, eview=np.zeros_like(o.eview))
        self.kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, options=o))

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.parametrize(("broken", "path", "least"), [("never-throws", THROWER, 10),
                                                    ("unafraid-of-throws", THROWERS_AMONG_COVER, 5),
                                                    ("thrown-past-cover", THROWERS_AMONG_COVER, 1)])
def test_compare_engines__a_kernel_wrong_about_throwing_diverges(broken: str, path: Path, least: int) -> None:
    setup = setup_of(path, "ashfall-1")
    report = compare_engines(setup, seeds(40), reference_signature, _WrongOptions(setup, broken))
    assert len(report.divergences) >= least
    assert report.divergences[0].explanation


@pytest.mark.parametrize(("change", "named"), [
    # two thrown weapons (one beside a gun is played under edition 1: test_kernel_ai_teams_with_throws_and_guns)
    (("weapons: [salvaged-sword, javelin]", "weapons: [salvaged-sword, javelin, combat-knife]"),
     "other than melee weapons and one thrown"),
    (("weapons: [salvaged-sword, javelin]", "weapons: [javelin, salvaged-sword]"), "thrown weapons on the move"),
])
def test_kernel_ai_thrower__what_it_does_not_cover_is_named(tmp_path: Path, change: tuple[str, str],
                                                             named: str) -> None:
    text = THROWER.read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "thrower.yaml"
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    problem = check(EncounterSetup(path, "ashfall-1"))
    assert problem is not None and named in problem


# ----- random fights with throwers -----

MELEE = ("salvaged-sword", "greataxe", "sledgehammer")
THROWN = ("javelin", "combat-knife")


def open_board(draw: st.DrawFn, width: int, height: int, members: list[InlineCombatant]) -> Board:
    """A grid without walls around placed creatures: terrain, cover objects and height on the free squares."""
    taken = {c.position for c in members}
    free = [(x, y) for x in range(width) for y in range(height) if (x, y) not in taken]
    terrain = draw(st.dictionaries(st.sampled_from(free), st.sampled_from(TERRAIN[:3]), max_size=8))
    cover = draw(st.dictionaries(st.sampled_from(free), st.builds(
        CoverObject, st.sampled_from([CoverLevel.PARTIAL, CoverLevel.HEAVY]), st.booleans()), max_size=4))
    elevation = draw(st.dictionaries(st.sampled_from([(x, y) for x in range(width) for y in range(height)]),
                                     st.sampled_from([5, 10]), max_size=6))
    return Board(width, height, terrain, frozenset(), cover, elevation)


@st.composite
def thrower_fights(draw: st.DrawFn) -> _Mixed:
    """Two or three sides of one creature each on a grid with terrain, cover objects and height, some throwers.

    Every creature carries a melee weapon and perhaps a thrown one; the AI plays each, or one of two is scripted.
    """
    n_sides = draw(st.integers(2, 3))
    width, height = draw(st.integers(6, 15)), draw(st.integers(5, 7))  # past 12 squares a knife's throw falls short
    squares = iter(draw(st.permutations([(x, y) for x in range(width) for y in range(height)])))
    members: list[InlineCombatant] = []
    ai: list[bool] = []
    scripted = n_sides == 2 and draw(st.booleans())
    for s in range(n_sides):
        cid = f"c{s}"
        weapons = (draw(st.sampled_from(MELEE)), *draw(st.lists(st.sampled_from(THROWN), max_size=1)))
        creature = Creature(
            id=cid, name=cid.title(), hp=draw(st.integers(6, 40)), proficiency=draw(st.integers(0, 3)),
            attributes=Attributes(MIG=draw(st.integers(-1, 4)), AGI=draw(st.integers(-1, 4))), weapons=weapons,
            armor=draw(st.sampled_from([None, "scrap-leathers", "flak-vest"])),
            weapon_proficiencies=frozenset({"simple", "martial"}), morale=MoraleProfile(immune=True))
        plan = tuple(draw(st.lists(st.sampled_from(("strike", "power-strike")), min_size=1, max_size=2)))
        members.append(InlineCombatant(cid, f"side{s}", creature, next(squares), plan))
        ai.append(not (scripted and s == 1))
    board = open_board(draw, width, height, members)
    inline = InlineSetup("random thrower fight", tuple(members), preset("ashfall-1"), board, 8)
    return _Mixed(inline, tuple(ai))


@pytest.mark.rule("ATK-2", "E-05", "AMOD-7", "COV-1", "COV-2", "POS-4")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(thrower_fights())
def test_random_thrower_fights__kernel_matches_reference_or_names_what_it_lacks(setup: _Mixed) -> None:
    plays_like_the_reference_or_is_named(setup, 5, (setup.inline, setup.ai))


@pytest.mark.rule("E-05")
def test_kernel_ai__reads_the_option_codes_and_aims_label() -> None:
    """The compiled turn's codes of a further option's Aim and its recorded label are the lowering's."""
    from ashfall.kernel import ai as kai
    from ashfall.sim.kernel_run import _ai_tab
    from ashfall.sim.kernel_weapons_lower import AIM_NAME

    lo = KernelSetup(setup_of(THROWER, "ashfall-1")).lowered
    aim = _ai_tab(lo)[13][16]
    assert kai.AIM_BLOCK == AIM and lo.action_names[aim[2]] == AIM_NAME and aim[1] == 1
