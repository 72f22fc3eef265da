"""Edition 2's Trip in the fight kernel: the tactical AI's opener, the contest, Prone and Dazed, draw for draw.

Under ``ashfall-2`` the AI weighs Feint and Trip before its Strikes where it stands (E-37). The kernel plays the
AI duels step for step with the reference (100 seeds in CI; ``scripts/kernel_diff.py --edition ashfall-2``
plays 1,000): the Trip contest (TRP-2, CON-1..5, G-45), Prone (TRP-3; melee advantage against it, its own
attacks at disadvantage, Stand costing an action, C-PRO, ACT-5), Dazed on a win by 10 (TRP-4, G-13: 2 actions,
no reactions). What it does not play is named (a Feint as the AI's opener, Sweeping Strike among several
enemies), and kernels that never Trip, ignore Prone or ignore Dazed must diverge.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ashfall.ai import TacticalPolicy
from ashfall.content.schema import Attributes, Creature, MoraleProfile
from ashfall.core.types import Size, Skill
from ashfall.grid.board import Board
from ashfall.kernel import maneuvers as kmv
from ashfall.ruleset import preset
from ashfall.sim import kernel_maneuvers as km
from ashfall.sim.kernel_lower import TARGET_STATES, check
from ashfall.sim.kernel_run import KernelSetup, kernel_signature
from ashfall.sim.policy import Policy
from ashfall.sim.runner import play
from ashfall.sim.setups import FightSetup, InlineCombatant, InlineSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import (
    AI_AMONG_COVER,
    AI_DUEL,
    AI_FREE_FOR_ALL,
    AI_GANG,
    ENCOUNTERS,
    OWN,
    InlineWithPolicies,
    plays_like_the_reference_or_is_named,
    seeds,
    setup_of,
)

ED2 = "ashfall-2"
DUELS = [AI_DUEL, AI_AMONG_COVER]
DUEL_IDS = [path.stem for path in DUELS]
AI_TRIPS = ENCOUNTERS / "ai-free-for-all-with-trips.yaml"
"""Four AI creatures under edition 2 without Sweeping Strike: Trip among several enemies."""
TRIP_SETS = [(path, ED2) for path in DUELS] + [(AI_TRIPS, OWN)]
TRIP_IDS = [*DUEL_IDS, AI_TRIPS.stem]


@pytest.mark.rule("E-37", "TRP-1", "TRP-2", "TRP-3", "TRP-4", "C-PRO", "AMOD-4", "ACT-5", "G-13", "CON-5")
@pytest.mark.parametrize(("path", "edition"), TRIP_SETS, ids=TRIP_IDS)
def test_kernel_trip__plays_every_step_of_the_reference_ai_fight(path: Path, edition: str) -> None:
    setup = setup_of(path, edition)
    assert check(setup) is None
    report = compare_engines(setup, seeds(100), reference_signature, kernel_signature)
    assert report.identical, report.first


@pytest.mark.parametrize(("path", "edition"), TRIP_SETS, ids=TRIP_IDS)
def test_kernel_trip__simulator_rows_equal_the_reference_engine_rows(path: Path, edition: str) -> None:
    setup = setup_of(path, edition)
    kernel = KernelSetup(setup)
    for seed in seeds(20, sweep=5):
        assert kernel.result(seed) == play(setup, seed)


@pytest.mark.rule("TRP-3", "TRP-4", "G-13", "ACT-5")
def test_kernel_trip__the_duel_trips_stands_and_ends_prone_or_dazed_in_many_fights() -> None:
    """The set exercises what it checks: Trips, Stands, and fights that end with someone prone or Dazed."""
    kernel = KernelSetup(setup_of(AI_DUEL, ED2))
    trips = stands = prone = dazed = 0
    for seed in seeds(200):
        signature = kernel.signature(seed)
        actions = [s.action for s in signature.steps]
        trips += actions.count("actions-spent:trip")
        stands += actions.count("actions-spent:stand")
        ends = [x for c in signature.combatants for x in c.conditions]
        prone += ends.count("prone")
        dazed += ends.count("dazed")
    assert trips >= 60 and stands >= 10 and prone >= 20 and dazed >= 5


def test_kernel_trip__lowered_codes_are_the_compiled_fights() -> None:
    assert (kmv.MV_ON, kmv.MV_TRIP_LABEL, kmv.MV_TRIP_COST, kmv.MV_DAZED_ACTIONS, kmv.MV_MARGIN_OFF) == (
        km.MV_ON, km.MV_TRIP_LABEL, km.MV_TRIP_COST, km.MV_DAZED_ACTIONS, km.MV_MARGIN_OFF)
    assert (kmv.MARGIN_SETTLED, kmv.MARGIN_WINS, kmv.MARGIN_CRIT) == (km.MARGIN_SETTLED, km.MARGIN_WINS,
                                                                      km.MARGIN_CRIT)
    assert (kmv.TRIP_FIRST, kmv.PRONE_UP, kmv.ATTACKER_PRONE, kmv.BASE_STATES) == (
        km.TRIP_FIRST, km.PRONE_UP, km.ATTACKER_PRONE, TARGET_STATES)


@pytest.mark.rule("TRP-4", "G-13", "CON-5", "G-45")
def test_kernel_trip__contest_tables_are_the_rules_contest() -> None:
    """Trip costs one action, a Dazed creature has 2, a tie keeps the status quo (G-45), 10 or more is critical."""
    lo = KernelSetup(setup_of(AI_DUEL, ED2)).lowered
    m = lo.maneuvers
    assert m.ints[km.MV_ON] == 1 and m.ints[km.MV_TRIP_COST] == 1 and m.ints[km.MV_DAZED_ACTIONS] == 2
    assert lo.action_names[m.ints[km.MV_TRIP_LABEL]] == "trip"
    off = m.ints[km.MV_MARGIN_OFF]
    assert m.margins[km.MARGIN_SETTLED, off] == 1 and m.margins[km.MARGIN_WINS, off] == 0
    assert m.margins[km.MARGIN_WINS, off + 1] == 1 and m.margins[km.MARGIN_CRIT, off + 9] == 0
    assert m.margins[km.MARGIN_CRIT, off + 10] == 1
    # d20 + the better of Athletics and Acrobatics: one more on each face
    assert (np.diff(m.contest_total[0, 1, 0, 0, :, 0]) == 1).all()
    assert lo.draws.shape[4] == km.ALL_STATES
    edition_1 = KernelSetup(setup_of(AI_DUEL, "ashfall-1")).lowered
    assert edition_1.maneuvers.ints[km.MV_ON] == 0 and edition_1.draws.shape[4] == TARGET_STATES


@pytest.mark.rule("C-PRO", "AMOD-4", "RX-21")
def test_kernel_trip__prone_creatures_attack_at_disadvantage_and_are_attacked_at_advantage() -> None:
    """The appended target states: a melee attack on a prone target up, and a prone creature's Attack of
    Opportunity, each roll two d20s (C-PRO) where the upright attack rolls one."""
    lo = KernelSetup(setup_of(AI_TRIPS, OWN)).lowered
    beside = 2  # the situation code of an attack from beside the target, in the open
    strike, aoo = 0, 3
    assert lo.draws[0, 1, strike, 0, 0, beside] == 1 and lo.draws[0, 1, aoo, 0, 0, beside] == 1
    assert lo.draws[0, 1, strike, 0, km.PRONE_UP, beside] == 2
    assert lo.draws[0, 1, aoo, 0, km.ATTACKER_PRONE, beside] == 2
    upright = lo.outcome[0, 1, aoo, 0, 0, beside, :, 0]
    lying = lo.outcome[0, 1, aoo, 0, km.ATTACKER_PRONE, beside]
    faces = np.arange(20)
    assert (lying == upright[np.minimum.outer(faces, faces)]).all()  # the lower face counts (disadvantage)


@pytest.mark.rule("E-37", "SWP-3")
@pytest.mark.parametrize(("path", "named"), [
    (AI_FREE_FOR_ALL, "the tactical AI's Sweeping Strike among several enemies (SWP-3, E-37"),
    (AI_GANG, "the tactical AI's Sweeping Strike among several enemies (SWP-3, E-37")], ids=["free-for-all", "gang"])
def test_kernel_trip__what_edition_2_adds_beyond_trip_is_named(path: Path, named: str) -> None:
    problem = check(setup_of(path, ED2))
    assert problem is not None and problem.startswith(named)


def _duellist(cid: str, deception: int, insight: int, size: Size = Size.MEDIUM) -> Creature:
    return Creature(id=cid, name=cid.title(), hp=30, attributes=Attributes(MIG=2, AGI=1), weapons=("salvaged-sword",),
                    weapon_proficiencies=frozenset({"simple", "martial"}), size=size,
                    skills={Skill.DECEPTION: deception, Skill.INSIGHT: insight}, morale=MoraleProfile(immune=True))


@dataclasses.dataclass(frozen=True, slots=True)
class _AllAi(InlineWithPolicies):
    """An inline fight every creature of which the tactical AI plays."""

    def policy(self, index: int, combatant: InlineCombatant) -> Policy:
        return TacticalPolicy()


def _duel(a: Creature, b: Creature, ruleset: str = ED2) -> _AllAi:
    members = (InlineCombatant("a", "left", a, (0, 0), ("strike",)), InlineCombatant("b", "right", b, (4, 3),
                                                                                       ("strike",)))
    return _AllAi(InlineSetup("inline duel", members, preset(ruleset), Board(6, 4), 10))


@pytest.mark.rule("FNT-2", "FNT-3", "FNT-5", "E-37")
def test_kernel_trip__a_feint_on_a_creature_the_ai_plays_is_named_not_played() -> None:
    """A master of Deception against an AI-played creature with no Insight would Feint: the kernel plays a Feint
    (``test_kernel_feint``) but not on a creature whose own plans would weigh the answer a lost one gives it."""
    problem = check(_duel(_duellist("a", 14, 0), _duellist("b", 0, -5)))
    assert problem is not None and problem.startswith("the tactical AI's feint on a creature whose choices weigh")


@pytest.mark.rule("G-13")
def test_kernel_trip__dazed_as_flat_footed_is_named() -> None:
    inline = _duel(_duellist("a", 0, 0), _duellist("b", 0, 0)).inline
    flat = dataclasses.replace(inline, ruleset=preset(ED2).with_options(conditions={"dazed": "flat-footed"}))
    problem = check(_AllAi(flat))
    assert problem is not None and problem.startswith("the tactical AI's Trip with Dazed as flat-footed")


# ----- wrong kernels must be caught -----


class _WrongTrip:
    """The kernel with Trip broken on purpose."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        m = lo.maneuvers
        if broken == "never-trips":  # the AI's plans without openers: it never Trips (E-37)
            ints = m.ints.copy()
            ints[km.MV_ON] = 0
            lo = dataclasses.replace(lo, maneuvers=dataclasses.replace(m, ints=ints))
        elif broken == "ignores-prone":  # attacks on and by prone creatures as on creatures up (C-PRO)
            lo = dataclasses.replace(lo, outcome=np.ascontiguousarray(lo.outcome[:, :, :, :, :TARGET_STATES]),
                                     draws=np.ascontiguousarray(lo.draws[:, :, :, :, :TARGET_STATES]))
        else:  # a Dazed creature keeps all its actions (G-13)
            ints = m.ints.copy()
            ints[km.MV_DAZED_ACTIONS] = lo.actions
            lo = dataclasses.replace(lo, maneuvers=dataclasses.replace(m, ints=ints))
        self.kernel.lowered = lo

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.parametrize(("broken", "trials", "least"), [("never-trips", 60, 20), ("ignores-prone", 60, 10),
                                                      ("ignores-dazed", 200, 3)])
def test_compare_engines__a_wrong_trip_kernel_diverges(broken: str, trials: int, least: int) -> None:
    """Dazed is rarer: a win by 10 (TRP-4), and a target that lives to its next turn."""
    setup = setup_of(AI_DUEL, ED2)
    report = compare_engines(setup, seeds(trials), reference_signature, _WrongTrip(setup, broken))
    assert len(report.divergences) >= least
    assert report.divergences[0].explanation


# ----- random edition 2 duels -----


@st.composite
def trip_duels(draw: st.DrawFn) -> _AllAi:
    """Two AI creatures of random sizes, attributes and maneuver skills on an open grid (TRP-1, TRP-2, X-09)."""
    members = []
    squares = iter(draw(st.permutations([(x, y) for x in range(6) for y in range(5)])))
    for s in range(2):
        cid = f"c{s}"
        skills = {skill: draw(st.integers(-2, 8)) for skill in (Skill.ATHLETICS, Skill.ACROBATICS, Skill.INSIGHT)}
        skills[Skill.DECEPTION] = draw(st.integers(-2, 3))
        creature = Creature(
            id=cid, name=cid.title(), hp=draw(st.integers(6, 40)), proficiency=draw(st.integers(0, 3)),
            attributes=Attributes(MIG=draw(st.integers(-1, 4)), AGI=draw(st.integers(-1, 4))),
            weapons=(draw(st.sampled_from(("salvaged-sword", "greataxe", "sledgehammer"))),),
            size=draw(st.sampled_from((Size.TINY, Size.SMALL, Size.MEDIUM))), skills=skills,
            weapon_proficiencies=frozenset({"simple", "martial"}), morale=MoraleProfile(immune=True))
        members.append(InlineCombatant(cid, f"side{s}", creature, next(squares), ("strike",)))
    tie = draw(st.sampled_from(("status-quo", "reroll")))  # G-45: a tied contest rolled again
    return _AllAi(InlineSetup("random trip duel", tuple(members), preset(ED2).with_options(
        checks={"contest_tie": tie}), Board(6, 5), draw(st.sampled_from([3, 10]))))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trip_duels())
def test_random_trip_duels__kernel_matches_reference_or_names_what_it_lacks(setup: _AllAi) -> None:
    plays_like_the_reference_or_is_named(setup, 6, setup.inline)
