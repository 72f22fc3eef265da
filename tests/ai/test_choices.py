"""The tactical AI's choices in small scripted situations, checked against the exact odds."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.ai import Reason, TacticalConfig
from ashfall.ai.plans import Block
from ashfall.content.schema import DrEntry
from ashfall.engine import EmergencyFieldMedicine, PowerStrike, Reload, SecondWind, Step, Stride, Strike, legal_intents
from ashfall.engine import events as ev
from ashfall.families.attacks.rules_activities import AttackMode, attack_traits
from ashfall.grid.board import Board
from ashfall.grid.geometry import flanks, space_distance_ft
from ashfall.odds import AttackSpec, power_strike_then_strike, strikes, turn_odds
from ashfall.rules.defense import defense_value
from ashfall.rules.health import Vitality
from ashfall.ruleset import preset
from tests.ai.kit import LIB, fight, play_turn, unit

NO_OPENERS = TacticalConfig(openers=False)


def _first_target(intent: object) -> str | None:
    """The (first) creature an intent attacks."""
    targets = getattr(intent, "targets", None)
    return targets[0] if targets else getattr(intent, "target", None)


def _dv_against_greataxe(target_creature: str, **changes: object) -> int:
    t = unit("t", "raiders", (0, 0), target_creature, **changes)  # type: ignore[arg-type]
    rs = preset()
    return defense_value(t.creature, t.armor, t.shield, rs, conditions=t.condition_set,
                         attack=attack_traits(LIB.weapon("greataxe"), AttackMode.MELEE)).total


@pytest.mark.rule("MAA-5", "MAP-1", "G-41", "DR-1")
@pytest.mark.parametrize(("dr", "expected"), [(0, "strikes"), (10, "power-strike")])
def test_maa_5__power_strike_then_strike_only_when_the_exact_odds_say_so(dr: int, expected: str) -> None:
    hide = (DrEntry(amount=dr, source="hide"),) if dr else ()
    w = unit("w", "party", (5, 5), "warrior", weapons=["greataxe"])
    t = unit("t", "raiders", (6, 5), "raider", max_hp=400, dr=hide)
    engine, policy = fight([w, t], config=NO_OPENERS, ai=["w"])
    bonus = w.creature.attributes.MIG + w.creature.proficiency
    base = AttackSpec(bonus, _dv_against_greataxe("raider"), "1d12+4", dr=dr)
    three = float(turn_odds(strikes(base, 3)).expected_damage)
    power = float(turn_odds(power_strike_then_strike(base)).expected_damage)
    assert (power > three) == (expected == "power-strike")  # the numbers behind the scenario
    choice = policy.choose(engine, "w")
    assert choice is not None and choice.candidate is not None
    plan = choice.candidate.plan
    if expected == "power-strike":
        assert isinstance(choice.intent, PowerStrike)
        assert plan.blocks == (Block.POWER, Block.STRIKE)
        assert plan.capped == pytest.approx(power)
    else:
        assert isinstance(choice.intent, Strike)
        assert plan.blocks == (Block.STRIKE, Block.STRIKE, Block.STRIKE)
        assert plan.capped == pytest.approx(three)


@pytest.mark.rule("DEATH-1")
def test_focus_fire__the_target_it_can_drop_this_turn_comes_first() -> None:
    w = unit("w", "party", (5, 5), "warrior", weapons=["greataxe"])
    fresh = unit("fresh", "raiders", (4, 5), "raider")
    hurt = unit("hurt", "raiders", (6, 5), "raider", hp=4)
    engine, policy = fight([w, fresh, hurt], config=NO_OPENERS, ai=["w"])
    choice = policy.choose(engine, "w")
    assert choice is not None and choice.candidate is not None
    assert choice.candidate.plan.target == "hurt"
    assert _first_target(choice.intent) == "hurt"
    assert choice.candidate.plan.p_drop > 0.5


@pytest.mark.rule("DEATH-1", "DEATH-3")
def test_focus_fire__never_the_dead_nor_the_dying_without_the_brutal_switch() -> None:
    w = unit("w", "party", (5, 5), "warrior", weapons=["greataxe"])
    dead = unit("dead", "raiders", (6, 5), "raider")
    dead = replace(dead, health=dead.health.evolve(hp=0, vitality=Vitality.DEAD))
    dying = unit("dying", "raiders", (4, 5), "warrior")
    dying = replace(dying, health=dying.health.evolve(hp=0, vitality=Vitality.DYING))
    far = unit("far", "raiders", (5, 9), "raider")
    engine, policy = fight([w, dead, dying, far], ai=["w"])
    intents = play_turn(engine, policy, "w")
    assert intents
    assert all(t not in ("dead", "dying") for i in intents for t in (getattr(i, "targets", ()) or (_first_target(i),)))


def test_brutal__finishes_a_dying_enemy_when_nobody_else_stands() -> None:
    w = unit("w", "party", (5, 5), "warrior", weapons=["greataxe"])
    dying = unit("dying", "raiders", (4, 5), "warrior")
    dying = replace(dying, health=dying.health.evolve(hp=0, vitality=Vitality.DYING))
    other = unit("other", "raiders", (28, 28), "raider")  # standing, but out of reach this turn
    board = Board(30, 30)
    engine, policy = fight([w, dying, other], board, ai=["w"], config=TacticalConfig(brutal=True))
    gentle = fight([w, dying, other], board, ai=["w"])[1]
    choice = policy.choose(engine, "w")
    assert choice is not None and _first_target(choice.intent) == "dying"
    calm = gentle.choose(engine, "w")
    assert calm is not None and _first_target(calm.intent) != "dying"


@pytest.mark.rule("AMOD-7", "ACT-3", "RX-21")
def test_ranged__steps_away_from_an_adjacent_hostile_before_shooting() -> None:
    g = unit("g", "party", (5, 5), "gunslinger")
    brute = unit("brute", "raiders", (6, 5), "warrior", max_hp=200)
    engine, policy = fight([g, brute], ai=["g"])
    first = policy.choose(engine, "g")
    assert first is not None and isinstance(first.intent, Step)
    away = first.intent.to
    assert space_distance_ft(((away),), brute.space) > 5
    engine.submit(first.intent)
    rest = play_turn(engine, policy, "g")
    assert rest and all(_first_target(i) == "brute" for i in rest)
    assert engine.state.get("g").turn.actions_left == 0
    assert not [e for e in engine.log if isinstance(e, ev.ReactionSpent)]  # nothing was provoked


LAYOUTS = [
    ("warrior", (5, 5), [("raider", (6, 5))]),
    ("warrior", (2, 2), [("raider", (8, 8)), ("raider-boss", (9, 2))]),
    ("gunslinger", (1, 1), [("raider", (10, 10))]),
    ("vanguard", (5, 5), [("raider", (7, 5)), ("raider", (5, 8))]),
    ("raider-boss", (3, 3), [("warrior", (4, 4)), ("operative", (9, 9))]),
]


@pytest.mark.rule("AE-1")
@pytest.mark.parametrize(("who", "at", "foes"), LAYOUTS)
def test_whole_turn__no_action_left_unused_while_an_attack_is_available(
        who: str, at: tuple[int, int], foes: list[tuple[str, tuple[int, int]]]) -> None:
    me = unit("me", "party", at, who)
    enemies = [unit(f"e{i}", "raiders", pos, kind, max_hp=300) for i, (kind, pos) in enumerate(foes)]
    engine, policy = fight([me, *enemies], ai=["me"])
    play_turn(engine, policy, "me")
    left = engine.state.get("me").turn.actions_left
    attacks = [i for i in legal_intents(engine, "me") if isinstance(i, Strike)] if left else []
    assert left == 0 or not attacks


@pytest.mark.rule("POS-1", "AMOD-1")
def test_flanking__moves_to_the_square_opposite_its_ally() -> None:
    me = unit("me", "party", (9, 8), "warrior", weapons=["greataxe"])
    ally = unit("ally", "party", (5, 5), "warrior", weapons=["greataxe"])
    target = unit("target", "raiders", (6, 5), "raider", max_hp=300)
    engine, policy = fight([me, ally, target], ai=["me"])
    choice = policy.choose(engine, "me")
    assert choice is not None and choice.reason is Reason.MOVE_TO_ATTACK
    assert isinstance(choice.intent, Stride)
    end = choice.intent.path[-1]
    assert flanks((end,), ally.space, target.space)
    nearest = min(space_distance_ft(((sq),), me.space) for sq in [(7, 4), (7, 5), (7, 6), (6, 4), (6, 6)])
    assert space_distance_ft(((end),), me.space) >= nearest  # not merely the closest square


@pytest.mark.rule("RX-21", "RX-22")
def test_attack_of_opportunity__taken_when_an_enemy_leaves_its_reach() -> None:
    runner = unit("runner", "raiders", (6, 5), "raider")
    guard = unit("guard", "party", (5, 5), "warrior", weapons=["greataxe"])
    engine, _ = fight([runner, guard], ai=["guard"])
    engine.submit(Stride("runner", ((7, 5), (8, 5))))
    labels = [e.label for e in engine.log if isinstance(e, ev.AttackRolled) and e.actor == "guard"]
    assert labels == ["Attack of Opportunity"]


@pytest.mark.rule("G-31")
def test_reload__an_empty_gun_is_reloaded_before_it_shoots() -> None:
    shooter = unit("s", "party", (1, 1), "gunslinger", weapons=["pistol"])
    shooter = replace(shooter, ammo={"pistol": 0})
    target = unit("t", "raiders", (8, 1), "raider", max_hp=300)
    engine, policy = fight([shooter, target], ai=["s"])
    intents = play_turn(engine, policy, "s")
    assert isinstance(intents[0], Reload)
    assert [type(i) for i in intents[1:]] == [Strike, Strike]


@pytest.mark.rule("MAA-6", "DEATH-13")
def test_medic__treats_a_dying_ally_within_reach() -> None:
    medic = unit("medic", "party", (5, 5), "operative", uses={"medicine-kit": 2})
    down = unit("down", "party", (6, 5), "warrior")
    down = replace(down, health=down.health.evolve(hp=0, vitality=Vitality.DYING))
    foe = unit("foe", "raiders", (11, 11), "raider")
    engine, policy = fight([medic, down, foe], ai=["medic"])
    choice = policy.choose(engine, "medic")
    assert choice is not None and choice.reason is Reason.HEAL_ALLY
    assert choice.intent == EmergencyFieldMedicine("medic", "down")


@pytest.mark.rule("HEAL-5")
def test_second_wind__below_half_hp_before_attacking() -> None:
    w = unit("w", "party", (5, 5), "warrior", hp=20)
    foe = unit("foe", "raiders", (6, 5), "raider", max_hp=200)
    engine, policy = fight([w, foe], ai=["w"])
    choice = policy.choose(engine, "w")
    assert choice is not None and choice.intent == SecondWind("w")
    npc = unit("npc", "party", (5, 5), "raider-boss", hp=5)
    engine, policy = fight([npc, replace(foe, position=(6, 5))], ai=["npc"])
    choice = policy.choose(engine, "npc")
    assert choice is not None and not isinstance(choice.intent, SecondWind)  # not on its stat block


def test_choosing_changes_nothing_and_is_deterministic() -> None:
    me = unit("me", "party", (2, 2), "warrior")
    foes = [unit("a", "raiders", (7, 7), "raider"), unit("b", "raiders", (8, 3), "raider-scout")]
    engine, policy = fight([me, *foes], ai=["me"])
    before = (len(engine.log), engine.rng.getstate(), ev.dumps(engine.log))
    first = policy.choose(engine, "me")
    again = policy.choose(engine.copy(), "me")
    assert first is not None and again is not None and first.intent == again.intent
    assert (len(engine.log), engine.rng.getstate(), ev.dumps(engine.log)) == before
    assert policy.next_intent(engine, "a") is None  # not its turn
