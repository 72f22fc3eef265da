"""The engine's speed caches give the answers they replace: a creature's space, a checked intent, reachability."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from ashfall.ai.movement import MoveGraph
from ashfall.content.loader import default_library
from ashfall.content.schema import WeaponKind
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import RuleId, rule
from ashfall.core.types import Condition, DamageType, Size
from ashfall.engine import Combatant, EncounterState, Refused, Strike, harm, make_combatant
from ashfall.engine import events as ev
from ashfall.engine.effects import EffectKind, TimedEffect, expire_effects
from ashfall.engine.engine import can_act
from ashfall.engine.reactions import can_react
from ashfall.families.attacks.engine_common import best_melee, can_make_melee_attack, melee_reach, melee_weapons
from ashfall.families.attacks.moves_strike import strike_out_of_reach
from ashfall.grid.board import Board, Square, Terrain, footprint
from ashfall.grid.paths import reachable, shortest_path
from ashfall.rules import conditions as cond
from ashfall.rules.condition_durations import AppliedCondition, Duration, TurnBoundary, TurnEdge
from ashfall.rules.defense import AttackTraits, Cover, defense_value, untargetable_behind
from ashfall.rules.health import Vitality
from ashfall.ruleset import preset
from tests.engine.maneuver_helpers import fighter, started


def test_space__follows_a_move_and_a_new_stat_block() -> None:
    c = fighter("a", "x", (1, 1))
    assert c.space == ((1, 1),)
    c.position = (4, 2)  # the applier moves creatures by assignment
    assert c.space == ((4, 2),)
    c.creature = c.creature.model_copy(update={"size": Size.LARGE})
    assert c.space == footprint((4, 2), Size.LARGE.squares)
    c.position = None
    assert c.space == ()


def test_space__a_replaced_combatant_has_its_own_space() -> None:
    c = fighter("a", "x", (1, 1))
    assert c.space == ((1, 1),)
    moved = replace(c, position=(3, 3))
    assert moved.space == ((3, 3),) and c.space == ((1, 1),)


def test_submit__checks_again_when_the_state_changed_since_the_check() -> None:
    eng = started([fighter("a", "x", (1, 1)), fighter("b", "y", (2, 1))])
    strike = Strike("a", "b")
    eng.check(strike)
    eng.state.get("b").position = (8, 8)  # out of reach after the check, on the same state object and count
    eng._changes += 1  # what an intent run between the check and the submit does
    with pytest.raises(Refused):
        eng.submit(strike)


def test_submit__an_intent_checked_on_a_copy_is_checked_again() -> None:
    eng = started([fighter("a", "x", (1, 1)), fighter("b", "y", (2, 1))])
    strike = Strike("a", "b")
    eng.check(strike)
    other = eng.copy()
    other.state.get("b").position = (8, 8)
    with pytest.raises(Refused):
        other.submit(strike)


_WALL = {(2, 0), (2, 1), (2, 2)}


def _cost(frm: Square, to: Square, parity: int) -> int | None:
    return None if to in _WALL or not (0 <= to[0] < 6 and 0 <= to[1] < 6) else 5 + 5 * parity


@pytest.mark.parametrize(("start", "goal"), [
    ((0, 1), (4, 1)),  # around the wall
    ((0, 1), (0, 1)),  # already there
    ((0, 1), (2, 1)),  # a wall square: never
    ((0, 1), (9, 9)),  # off the map: never
])
def test_reachable__agrees_with_shortest_path(start: Square, goal: Square) -> None:
    found = shortest_path(start, lambda s: s == goal, _cost)
    assert reachable(start, lambda s: s == goal, _cost) is (found is not None)


def test_standing_on__is_the_copy_replace_makes() -> None:
    c = fighter("a", "x", (1, 1))
    assert c.space == ((1, 1),)
    there = c.standing_on((4, 2))
    assert there == replace(c, position=(4, 2)) and there is not c
    assert there.space == ((4, 2),) and c.space == ((1, 1),) and c.position == (1, 1)


@pytest.mark.rule("COV-4", "SUP-11")
def test_effects_on__the_index_follows_effects_beginning_and_ending() -> None:
    eng = started([fighter("a", "x", (1, 1)), fighter("b", "y", (2, 1))])
    state = eng.state
    lean = TimedEffect("lean", EffectKind.NO_COVER, "a", "COV-4", Duration.until_removed())
    pinned = TimedEffect("pin", EffectKind.SUPPRESSED, "b", "SUP-11", Duration.until_removed())
    assert state.effects_on("a", EffectKind.NO_COVER) == []
    state.effects = (lean,)
    assert state.effects_on("a", EffectKind.NO_COVER) == [lean] and state.effects_on("b", EffectKind.NO_COVER) == []
    state.effects = (lean, pinned)  # the applier replaces the tuple whenever an effect begins or ends
    assert state.effects_on("b", EffectKind.SUPPRESSED) == [pinned]
    state.effects = (pinned,)
    assert state.effects_on("a", EffectKind.NO_COVER) == [] and state.effects_on("b", EffectKind.SUPPRESSED) == [pinned]
    found = state.effects_on("b", EffectKind.SUPPRESSED)
    found.clear()  # callers get their own list
    assert state.effects_on("b", EffectKind.SUPPRESSED) == [pinned]


@pytest.mark.rule("RX-24", "NAT-6")
def test_melee_weapons__follow_a_new_weapon_tuple() -> None:
    eng = started([fighter("a", "x", (1, 1), weapons=["combat-knife", "halberd", "pistol"]), fighter("b", "y", (2, 1))])
    state = eng.state
    c = state.get("a")
    expected = [w for w in c.weapons if w.kind is WeaponKind.MELEE]
    assert melee_weapons(c) == expected and best_melee(c) == expected[0]
    assert melee_reach(c, state) == max([w.reach for w in expected] + [state.ruleset.attack.natural_reach])
    c.weapons = tuple(w for w in c.weapons if w.kind is not WeaponKind.MELEE)  # the applier replaces the tuple
    assert melee_weapons(c) == [] and best_melee(c) is None
    assert melee_reach(c, state) == state.ruleset.attack.natural_reach
    assert can_make_melee_attack(c) is (not c.creature.machine)


@pytest.mark.rule("MOV-2", "ACT-2", "G-37")
@pytest.mark.parametrize("goal", [(8, 1), (0, 8), (5, 5), (9, 9)])
def test_approach_expander__finds_the_path_the_step_prices_find(goal: Square) -> None:
    board = Board(10, 10, terrain={(4, 4): Terrain.DIFFICULT}, walls=frozenset({(3, 0), (3, 1), (3, 2), (6, 6)}))
    eng = started([fighter("a", "x", (1, 1)), fighter("b", "y", (5, 1)), fighter("c", "y", (2, 6))], board)
    graph = MoveGraph.of(eng.state, eng.state.get("a"))
    expand = graph.expander()
    assert expand is not None and graph.blocked  # enemies stand in the way
    for _ in range(2):  # the second search reads the board's tables the first one filled
        found = shortest_path((1, 1), lambda s: s == goal, graph.price, expand=expand)
        assert found == shortest_path((1, 1), lambda s: s == goal, graph.price)


def test_expire_effects__a_boundary_that_changes_nothing_keeps_the_tuple() -> None:
    lasting = TimedEffect("lean", EffectKind.NO_COVER, "a", "COV-4", Duration.until_removed())
    timed = TimedEffect("pin", EffectKind.SUPPRESSED, "b", "SUP-11", Duration.end_of_next_turn("b"))
    start_b, end_b = TurnBoundary("b", TurnEdge.START, 1), TurnBoundary("b", TurnEdge.END, 1)
    effects = (lasting,)
    assert expire_effects(effects, end_b) == (effects, ()) and expire_effects(effects, end_b)[0] is effects
    assert expire_effects((), end_b) == ((), ())
    kept, gone = expire_effects((lasting, timed), start_b)  # the timed one's bookkeeping moves on: a new tuple
    assert gone == () and kept[0] is lasting and kept[1] != timed
    kept, gone = expire_effects(kept, end_b)
    assert (kept, gone) == ((lasting,), (replace(timed, duration=gone[0].duration),))


@pytest.mark.rule("MOR-27")
def test_after_damage__a_hit_that_drops_nobody_only_reads_breaking_points() -> None:
    from tests.engine.test_morale_engine import band, ctx_of, of, with_points

    plain = band(bandits=2, party=2, leader=False)
    with ScriptedRng([]) as rng:  # no group check: no die may be rolled
        ctx = ctx_of(plain, rng)
        harm.deal_damage(ctx, "b1", {DamageType.PSYCHIC: 1}, source="p1", label="test")
    assert of(ctx.log, ev.MoraleChanged) == [] and of(ctx.log, ev.MoraleChecked) == []
    pointed = band(bandits=0, party=2, leader=False,
                   extra=(with_points(make_combatant(default_library(), "bandit", "b1", "bandits"), "hp-below-25%"),))
    with ScriptedRng([]) as rng:
        ctx = ctx_of(pointed, rng)
        harm.deal_damage(ctx, "b1", {DamageType.PSYCHIC: 7}, source="p1", label="test")
    (change,) = of(ctx.log, ev.MoraleChanged)
    assert change.rule == "MOR-27"


@pytest.mark.rule("ATK-1", "ATK-2", "CONC-11")
@pytest.mark.parametrize(("target_at", "expected"),
                         [((2, 1), 1), ((3, 1), 8), ((4, 3), 9), ((12, 1), 9), ((39, 9), 10)])
def test_strike_out_of_reach__only_says_so_of_strikes_the_check_refuses(target_at: Square, expected: int) -> None:
    """Only the unknown weapon is skipped next to the target; the halberd (10 ft) and the pistol drop out with range."""
    eng = started([fighter("a", "x", (1, 1), weapons=["combat-knife", "halberd", "pistol"]),
                   fighter("b", "y", target_at)], Board(40, 10))
    strikes = [Strike("a", "b", w, unarmed=u) for w in ("combat-knife", "halberd", "pistol", None, "nope")
               for u in (False, True)]
    skipped = 0
    for strike in strikes:
        try:
            eng.check(strike)
            legal = True
        except Refused:
            legal = False
        if strike_out_of_reach(eng.state, strike):
            skipped += 1
            assert not legal, strike
    assert strike_out_of_reach(eng.state, replace(strikes[0], square=target_at)) is False  # a guess is measured
    assert skipped == expected


@pytest.mark.rule("COV-3", "STC-8", "STC-9", "COV-4")
@pytest.mark.parametrize("edition", ["ashfall-2", "ashfall-1"])
def test_untargetable_behind__is_defense_values_untargetable_reason(edition: str) -> None:
    rs = preset(edition)
    target = fighter("b", "y", (2, 1))
    seen: set[RuleId | None] = set()
    every_traits = [None, *(AttackTraits(*bits) for bits in itertools.product((False, True), repeat=5))]
    for cover, traits, leaning in itertools.product(Cover, every_traits, (False, True)):
        full = defense_value(target.creature, target.armor, target.shield, rs, conditions=target.condition_set,
                             cover=cover, attack=traits, leaning_out=leaning).untargetable_reason
        assert untargetable_behind(cover, traits, rs, leaning_out=leaning) == full
        seen.add(full)
    assert None in seen and len(seen) >= 2  # both targetable and untargetable answers came up


def _can_react_in_full(state: EncounterState, c: Combatant) -> RuleId | None:
    """can_react as it reads without its early exits (the reference the fast paths must agree with)."""
    blocked = [(not c.reaction_available, "RX-1"), (c.health.is_down, "DEATH-1"),
               (c.surprised and state.round <= 1, "SUR-2"), (bool(c.uses.get("broken", 0)), "MOR-22")]
    for hit, rule_id in blocked:
        if hit:
            return rule(rule_id)
    verdict = cond.can_react(c.condition_set, state.ruleset)
    return None if verdict.allowed else (verdict.rule or rule("C-INC"))


@pytest.mark.rule("RX-1", "C-INC", "DEATH-1")
@pytest.mark.parametrize("condition", [None, Condition.STUNNED, Condition.UNCONSCIOUS, Condition.PRONE])
@pytest.mark.parametrize(("spent", "hp"), [(False, 10), (True, 10), (False, 0)])
def test_can_react__early_exits_agree_with_the_full_test(condition: Condition | None, spent: bool, hp: int) -> None:
    eng = started([fighter("a", "x", (1, 1)), fighter("b", "y", (2, 1))])
    c = eng.state.get("a")
    c.reaction_available = not spent
    c.health = c.health.evolve(hp=hp, vitality=Vitality.ALIVE if hp else Vitality.DYING)
    c.conditions = () if condition is None else (AppliedCondition(condition, "C-INC"),)
    expected = _can_react_in_full(eng.state, c)
    assert can_react(eng.state, c) == expected
    if condition is Condition.STUNNED and not spent and hp:
        assert expected is not None  # the full test can refuse: the early exit must not hide that


@pytest.mark.rule("AE-1", "C-INC", "G-13")
@pytest.mark.parametrize("condition", [None, Condition.STUNNED, Condition.DAZED, Condition.PRONE])
@pytest.mark.parametrize(("actions", "hp"), [(3, 10), (0, 10), (3, 0)])
def test_can_act__early_exit_agrees_with_max_actions(condition: Condition | None, actions: int, hp: int) -> None:
    eng = started([fighter("a", "x", (1, 1)), fighter("b", "y", (2, 1))])
    state = eng.state
    # model_copy skips validation: 0 actions is outside the option's range (1 to 6), yet the early exit must agree.
    state.ruleset = state.ruleset.model_copy(
        update={"turn": state.ruleset.turn.model_copy(update={"actions_per_turn": actions})})
    c = state.get("a")
    c.health = c.health.evolve(hp=hp, vitality=Vitality.ALIVE if hp else Vitality.DYING)
    c.conditions = () if condition is None else (AppliedCondition(condition, "C-INC"),)
    assert can_act(c, state) is (cond.max_actions(c.condition_set, state.ruleset).actions > 0)
