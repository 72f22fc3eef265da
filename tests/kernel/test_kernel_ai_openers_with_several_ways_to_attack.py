"""Edition 2's tactical AI in the fight kernel: Trip as an opener alongside several ways to attack (E-37, E-18).

Under ``ashfall-2`` the AI weighs Feint and Trip (TRP-1..4) as openers of the plans of each melee option where it
stands, so it may trip with its second weapon and follow up with it; every option has its plans against a prone
target (C-PRO); a prone enemy's melee and throw weigh in the fire a square invites at disadvantage; and a throw in
an enemy's reach provokes its Attack of Opportunity (E-18), which the AI weighs as ``TurnView.in_reach_of`` and the
kernel plays before the throw. The shipped duel (two Warriors with a greataxe and a javelin) runs on the kernel
under its default edition; the thrower sets play under both editions; the tables are the AI's own best plans; a
Feint the AI would open with is named; kernels that read a prone target as one up or let a throw provoke nothing
must diverge.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from ashfall.ai import TacticalPolicy
from ashfall.ai.choice import Choice
from ashfall.ai.plans import Block
from ashfall.ai.profile import attack_options
from ashfall.ai.turn import TurnView, hp_left
from ashfall.core.types import Condition
from ashfall.engine import Engine, Feint, Trip
from ashfall.sim.kernel_lower import check
from ashfall.sim.kernel_maneuvers import TRIP_FIRST, with_conditions
from ashfall.sim.kernel_run import KernelSetup, kernel_signature
from ashfall.sim.kernel_weapons_lower import FIRST, FULL, PLAIN, PRONE
from ashfall.sim.setups import EncounterSetup, FightSetup
from ashfall.sim.signature import FightSignature, compare_engines, reference_signature
from tests.kernel.kit import ENCOUNTERS, plays_like_the_reference_or_is_named, seeds, setup_of, under_edition_2
from tests.kernel.test_kernel_ai import _Checked, _Mixed, checked_decisions
from tests.kernel.test_kernel_ai_several_ways_to_attack import THROWER, THROWERS_AMONG_COVER, thrower_fights

TRIPS_AND_THROWS = ENCOUNTERS / "ai-trips-with-a-second-weapon-and-throws-in-reach.yaml"
SHIPPED_DUEL = Path(__file__).resolve().parents[2] / "encounters" / "duel.yaml"
EDITION_2_SETS = [TRIPS_AND_THROWS, THROWER, THROWERS_AMONG_COVER]


@pytest.mark.rule("E-37", "E-18", "TRP-3")
def test_shipped_duel_edition_2__is_on_the_kernel() -> None:
    """Its default edition; its fights are compared in test_kernel_matches_reference with the other shipped ones."""
    assert check(EncounterSetup(SHIPPED_DUEL, None)) is None
    assert check(EncounterSetup(SHIPPED_DUEL, "ashfall-2")) is None


@pytest.mark.rule("E-37", "TRP-1", "TRP-3", "TRP-4", "C-PRO", "E-18", "RX-21", "AMOD-7", "ATK-2")
@pytest.mark.parametrize("path", EDITION_2_SETS, ids=[p.stem for p in EDITION_2_SETS])
def test_kernel_ai_openers_with_several_ways_to_attack__plays_every_step_of_the_reference_fight(path: Path) -> None:
    report = compare_engines(setup_of(path, "ashfall-2"), seeds(100), reference_signature, kernel_signature)
    assert report.identical, report.first


class _CheckedUp(_Checked):
    """:class:`_Checked` where the creature is up: a prone one stands first (ACT-5), before the compiled turn asks."""

    __slots__ = ()

    def choose(self, engine: Engine, actor: str) -> Choice | None:
        if engine.state.get(actor).has(Condition.PRONE):
            return TacticalPolicy.choose(self, engine, actor)
        return super().choose(engine, actor)


@pytest.mark.rule("E-37", "TRP-1", "E-18")
def test_kernel_ai_decide__equals_tactical_policy_choose_tripping_with_a_second_weapon_and_throwing() -> None:
    """Every decision of 12 fights; among them Trips with the greataxe (the second option) and throws."""
    setup = setup_of(TRIPS_AND_THROWS, "ashfall-2")
    seen = checked_decisions(setup, seeds(12, sweep=29), _CheckedUp)
    attacks = [e for e in seen if isinstance(e, tuple) and len(e) == 5]
    assert any(e[2] == "trip" and e[3] == "greataxe" for e in attacks)
    assert any(e[4] for e in attacks)  # it threw
    assert len(seen) > 100


@pytest.mark.rule("E-37", "TRP-1", "TRP-3", "C-PRO")
@pytest.mark.parametrize("prone", [False, True], ids=["target-up", "target-prone"])
def test_kernel_ai_second_weapon_tables__are_the_ais_own_best_plans_with_trip_first(prone: bool) -> None:
    """Where it stands, beside its target: the greataxe's plans with Trip (and Feint) as ``TurnView.setting`` offers
    them, or against the target lying prone (Feint only: a prone creature is not tripped again)."""
    setup = setup_of(TRIPS_AND_THROWS, "ashfall-2")
    options = KernelSetup(setup).lowered.ai.options
    fight = setup.build_fight(0)
    state = fight.engine.state
    roster = list(state.combatants.values())
    i, c = next((k, x) for k, x in enumerate(roster) if x.id == "kernel-ai-tripper")
    j, t = next((k, x) for k, x in enumerate(roster) if x.side != c.side)
    assert c.position is not None
    t.position = (c.position[0] + 1, c.position[1])  # beside it, on open ground: Trip's reach (TRP-1)
    xo = next(k for k, o in enumerate(attack_options(c, state)[1:]) if o.weapon_id == "greataxe")
    policy = fight.policies[c.id]
    assert isinstance(policy, TacticalPolicy)
    trips = 0
    with with_conditions(t, *((Condition.PRONE,) if prone else ())):
        view = TurnView(fight.engine, c, (t,))
        option = view.options[xo + 1]
        # on its turn, beside the target, the engine accepts both (TRP-1, FNT-1); this fight has not started
        view._legal.update({Trip(c.id, t.id, option.weapon_id): True, Feint(c.id, t.id): True})
        setting = view.setting(None, option, full=True)
        assert setting is not None and (Block.TRIP in setting.available) is not prone
        mode = FULL + (PRONE if prone else 0)
        for left in range(1, options.frac.shape[6]):
            for hp in (1, 9, hp_left(t)):
                plan = view.best_plan(t.id, dataclasses.replace(setting, hp={t.id: hp}), left, full=True,
                                      openers=True, drop_step=policy.config.drop_step)
                assert plan is not None
                at = (i, xo, mode, j, 2, 0, left, hp)  # within 5 ft, no cover between: situation code 2
                assert options.frac[at] == plan.frac
                assert options.drop[at] == plan.p_drop
                assert options.first[at] == (TRIP_FIRST if plan.blocks[0] is Block.TRIP else FIRST[plan.blocks[0]])
                trips += plan.blocks[0] is Block.TRIP
    assert bool(trips) is not prone
    assert (options.first[i, xo, PLAIN] != TRIP_FIRST).all()  # from a square it moves to, no opener


@pytest.mark.rule("E-37", "FNT-2")
def test_kernel_ai_openers__a_feint_it_would_open_with_is_named(tmp_path: Path) -> None:
    """Without the brute's Insight a Feint is the skirmisher's best opener somewhere: with several ways to attack the
    kernel names it (it plays a Feint only where the creatures it concerns attack with one weapon)."""
    text = THROWER.read_text(encoding="utf-8")
    insight = "\n      skill_proficiencies: [insight]"
    assert insight in text
    path = tmp_path / "feinter.yaml"
    path.write_text(text.replace(insight, "", 1).replace("WIS: 3", "WIS: -1"), encoding="utf-8")
    problem = check(EncounterSetup(path, "ashfall-2"))
    assert problem == "the tactical AI's feint as an opener of a further way to attack (combatant kernel-ai-skirmisher)"


class _WrongOpeners:
    """The kernel with edition 2's openers or throws-in-reach broken on purpose."""

    def __init__(self, setup: FightSetup, broken: str) -> None:
        self.kernel = KernelSetup(setup)
        lo = self.kernel.lowered
        o = lo.ai.options
        if broken == "prone-targets-read-as-up":  # the further options' plans against a prone target (C-PRO, TRP-3)
            o = dataclasses.replace(o, **{name: np.concatenate([getattr(o, name)[:, :, :PRONE]] * 2, axis=2)
                                          for name in ("frac", "drop", "first")})
        else:  # a throw in reach provokes nobody, and the AI fears no Attack of Opportunity for it (E-18)
            o = dataclasses.replace(o, shot=np.zeros_like(o.shot))
        self.kernel.lowered = dataclasses.replace(lo, ai=dataclasses.replace(lo.ai, options=o))

    def __call__(self, setup: FightSetup, seed: int) -> FightSignature:
        return self.kernel.signature(seed)


@pytest.mark.rule("E-37", "E-18")
@pytest.mark.parametrize(("broken", "least"), [("prone-targets-read-as-up", 2),
                                               ("throws-provoke-nothing", 3)])
def test_compare_engines__a_kernel_wrong_about_openers_or_throws_in_reach_diverges(broken: str, least: int) -> None:
    setup = setup_of(TRIPS_AND_THROWS, "ashfall-2")
    report = compare_engines(setup, seeds(60), reference_signature, _WrongOpeners(setup, broken))
    assert len(report.divergences) >= least
    assert report.divergences[0].explanation


@pytest.mark.rule("E-37", "E-18", "ATK-2", "TRP-3", "C-PRO")
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(thrower_fights())
def test_random_thrower_fights_edition_2__kernel_matches_reference_or_names_what_it_lacks(setup: _Mixed) -> None:
    """The thrower fights of edition 1's test, under edition 2: openers, prone targets, throws that provoke."""
    ed2 = under_edition_2(setup)
    plays_like_the_reference_or_is_named(ed2, 5, (ed2.inline, ed2.ai))
