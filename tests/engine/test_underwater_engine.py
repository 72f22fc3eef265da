"""Underwater fights in the engine: breath and drowning, water attacks, fire, thunder, spreading, sight, depth (UW)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from ashfall.content.schema import AirSupply, Attributes, Weapon, WeaponKind
from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import Attribute, Condition, DamageType
from ashfall.engine import CastSpell, Combatant, Decline, Engine, Hide, Refused, Stride, Strike, Swim, new_state
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.environment import WaterType
from ashfall.engine.harm import add
from ashfall.explain import log_lines
from ashfall.families.senses import engine as vision
from ashfall.families.spells.rules_spellbook import Spell, register_spell, unregister_spell
from ashfall.families.underwater.engine import WATER, breath_left, depth
from ashfall.grid.board import Board
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.ruleset import Ruleset, preset
from tests.engine.map_kit import fighter, initiative_faces, of_type, script

ED1 = preset("ashfall-1")


def begin(roster: Sequence[Combatant], *, water: WaterType | None = WaterType.CLEAR, board: Board | None = None,
          ruleset: Ruleset | None = None) -> Engine:
    """A started underwater fight (morale off: no morale dice), the first combatant's turn first."""
    state = new_state(roster, ruleset or preset(), board or Board(30, 12))
    state.environment.underwater = water
    state.morale_enabled = False
    ids = [c.id for c in roster]
    engine = Engine(state, ScriptedRng(initiative_faces(ids, ids[0])), {cid: Decline() for cid in ids}, seed=None)
    engine.start()
    return engine


def armed(c: Combatant, *weapons: Weapon) -> Combatant:
    return replace(c, weapons=weapons)


def natural(wid: str, damage_type: DamageType, dice: str = "1d6") -> Weapon:
    return Weapon(id=wid, name=wid.replace("-", " ").title(), kind=WeaponKind.MELEE, damage=dice,
                  damage_type=damage_type)


def next_turn(engine: Engine) -> None:
    active = engine.state.active_id
    assert active is not None
    engine.end_turn(active)


def breath_events(events: Sequence[object], cid: str) -> list[ev.BreathChanged]:
    return [e for e in of_type(events, ev.BreathChanged) if e.actor == cid]


def sources(attack: ev.AttackRolled) -> list[str]:
    return [s.rule for s in attack.roll.sources]


# ----- breath (UW-1..6, G-15, G-16) -----


@pytest.mark.rule("UW-1", "UW-2")
def test_uw_1__breath_min_3_counts_down_at_the_end_of_each_turn() -> None:
    weak = fighter("r", "raiders", (20, 5), "raider")
    weak = replace(weak, creature=weak.creature.model_copy(update={"attributes": Attributes(END=-1)}))
    engine = begin([fighter("w", "party", (1, 1)), weak])
    first = breath_events(engine.end_turn("w"), "w")
    assert [(e.rounds_left, e.spent, e.rule) for e in first] == [(5, 1, "UW-1")]  # END 3 + proficiency 3 = 6
    assert [(e.rounds_left, e.spent) for e in breath_events(engine.end_turn("r"), "r")] == [(2, 1)]  # minimum 3
    assert breath_left(engine.state, "w") == 5


@pytest.mark.rule("UW-3")
def test_uw_3__two_actions_on_attacks_cost_an_extra_round() -> None:
    engine = begin([fighter("w", "party", (1, 1), weapons=["spear"]), fighter("r", "raiders", (2, 1), "raider")])
    script(engine, [2, 2])  # two misses with a piercing spear (no water penalty, UW-12)
    engine.submit(Strike("w", "r", "spear"))
    engine.submit(Strike("w", "r", "spear"))
    (tick,) = breath_events(engine.end_turn("w"), "w")
    assert (tick.rounds_left, tick.spent, tick.rule) == (4, 2, "UW-3")
    assert tick.reasons == ("2 actions on attacks",)


@pytest.mark.rule("UW-3")
def test_uw_3__damage_taken_since_the_last_turn_is_strenuous__at_most_one_extra_round() -> None:
    engine = begin([fighter("w", "party", (1, 1), weapons=["spear"]), fighter("r", "raiders", (2, 1), "raider")])
    engine.end_turn("w")
    script(engine, [19, 6, 2, 2])  # the raider spears the warrior, then two misses of the warrior's
    engine.submit(Strike("r", "w", "spear"))
    engine.end_turn("r")
    engine.submit(Strike("w", "r", "spear"))
    engine.submit(Strike("w", "r", "spear"))
    (tick,) = breath_events(engine.end_turn("w"), "w")
    assert (tick.spent, tick.reasons) == (2, ("took damage", "2 actions on attacks"))


@pytest.mark.rule("UW-4", "G-15", "UW-1")
def test_uw_4__out_of_breath_suffocates_then_drops_to_0_hp() -> None:
    engine = begin([fighter("w", "party", (1, 1)), fighter("t", "machines", (20, 5), "automated-turret")])
    script(engine, [10])  # the dying warrior's first death save
    events: list[object] = []
    while not engine.state.get("w").health.is_down:  # 6 rounds of breath, then Suffocating lasts END 3 rounds
        events += engine.end_turn(engine.state.active_id or "")
    gained = [e for e in of_type(events, ev.ConditionAdded) if e.target == "w" and
              e.applied.condition is Condition.SUFFOCATING]
    assert gained[0].rule == "UW-4" and gained[0].applied.rounds_left == 3
    drop = [e for e in of_type(events, ev.HealthSet) if e.target == "w"]
    assert [(d.health.hp, d.health.vitality.value, d.rule) for d in drop[:1]] == [(0, "dying", "G-15")]
    assert engine.state.round == 10  # out of breath at the end of round 6; 3 rounds more; drops as round 10 starts
    assert breath_events(events, "t") == []  # machines need no air (UW-1 ruling)


@pytest.mark.rule("UW-5", "UW-6")
def test_uw_5__a_rebreather_means_no_breath_clock() -> None:
    diver = fighter("d", "party", (1, 1), "salvage-diver")
    assert diver.creature.air_supply is AirSupply.REBREATHER
    engine = begin([diver, fighter("r", "raiders", (20, 5), "raider")])
    assert breath_events(engine.end_turn("d"), "d") == []
    assert breath_left(engine.state, "d") is None


@pytest.mark.rule("G-16", "UW-29")
def test_g_16__drowning_out_of_an_underwater_fight_starts_the_breath_clock_and_surfacing_resets_it() -> None:
    engine = begin([fighter("w", "party", (1, 1)), fighter("r", "raiders", (20, 5), "raider")], water=None)
    assert breath_events(engine.end_turn("w"), "w") == []
    engine.end_turn("r")
    w = engine.state.get("w")
    engine.state.get("w").conditions = (*w.conditions, AppliedCondition(Condition.DROWNING, rule("G-16")))
    engine.state.furnished()  # set directly, not by an event: the fight now has a drowning creature
    assert [e.rounds_left for e in breath_events(engine.end_turn("w"), "w")] == [5]
    engine.end_turn("r")
    engine.state.get("w").conditions = ()
    assert [e.rounds_left for e in breath_events(engine.end_turn("w"), "w")] == [None]


# ----- attacks (UW-12..18, X-24) -----


@pytest.mark.rule("UW-12", "UW-13", "X-24")
@pytest.mark.parametrize(("weapon", "swim", "faces", "expected"), [
    ("spear", None, [5], []), ("greataxe", None, [5, 6], ["UW-13"]), ("greataxe", 30, [5], []),
], ids=["uw_12-piercing-fine", "uw_13-slashing-at-disadvantage", "x_24-swim-speed-exempt"])
def test_uw_13__melee_underwater(weapon: str, swim: int | None, faces: list[int], expected: list[str]) -> None:
    engine = begin([fighter("w", "party", (1, 1), weapons=[weapon], swim=swim),
                    fighter("r", "raiders", (2, 1), "raider")])
    script(engine, [*faces])
    attack = of_type(engine.submit(Strike("w", "r", weapon)), ev.AttackRolled)[0]
    assert sources(attack) == expected and attack.outcome == "miss"


@pytest.mark.rule("UW-16", "CRIT-1")
def test_uw_16__ranged_beyond_normal_range_misses_even_on_a_natural_20() -> None:
    engine = begin([fighter("v", "party", (1, 1), "vanguard", weapons=["pistol"]),
                    fighter("r", "raiders", (13, 1), "raider")])
    script(engine, [20])
    events = engine.submit(Strike("v", "r", "pistol"))
    (attack,) = of_type(events, ev.AttackRolled)
    assert (attack.roll.natural, attack.outcome, attack.reasons) == (20, "miss", ("UW-16",))
    assert of_type(events, ev.DamageTaken) == []


@pytest.mark.rule("UW-17", "E-42")
@pytest.mark.parametrize(("ruleset", "faces", "expected"), [(preset(), [5, 6], ["UW-17"]), (ED1, [5], [])],
                         ids=["edition-2-disadvantage", "e_42-edition-1-normal"])
def test_uw_17__ranged_within_normal_range(ruleset: Ruleset, faces: list[int], expected: list[str]) -> None:
    engine = begin([fighter("v", "party", (1, 1), "vanguard", weapons=["pistol"], ruleset=ruleset),
                    fighter("r", "raiders", (8, 1), "raider", ruleset=ruleset)], ruleset=ruleset)
    script(engine, faces)
    attack = of_type(engine.submit(Strike("v", "r", "pistol")), ev.AttackRolled)[0]
    assert sources(attack) == expected


@pytest.mark.rule("UW-18")
def test_uw_18__a_thrown_javelin_is_melee_underwater__no_range_penalty() -> None:
    engine = begin([fighter("w", "party", (1, 1), weapons=["javelin"]), fighter("r", "raiders", (7, 1), "raider")])
    script(engine, [5])
    attack = of_type(engine.submit(Strike("w", "r", "javelin", thrown=True)), ev.AttackRolled)[0]
    assert sources(attack) == [] and attack.reasons != ("UW-16",)


# ----- damage (UW-20..23, G-28) -----


@pytest.mark.rule("UW-20", "G-39")
def test_uw_20__fire_is_halved_in_the_ledger() -> None:
    w = armed(fighter("w", "party", (1, 1)), natural("flame-blade", DamageType.FIRE))
    engine = begin([w, fighter("r", "raiders", (2, 1), "raider")])
    script(engine, [15, 5])  # 5 + MIG 4 = 9 fire -> 4
    taken = of_type(engine.submit(Strike("w", "r", "flame-blade")), ev.DamageTaken)[0]
    assert [(r.step, r.before, r.after, r.rule) for r in taken.rows if r.step == "environment"] == [
        ("environment", 9, 4, "UW-20")]
    assert taken.amount == 4


@pytest.mark.rule("UW-23", "G-27")
def test_uw_23__thunder_rolls_an_extra_1d6() -> None:
    w = armed(fighter("w", "party", (1, 1)), natural("sonic-maul", DamageType.SONIC))
    engine = begin([w, fighter("r", "raiders", (2, 1), "raider")])
    script(engine, [15, 1, 3])  # 1 + MIG 4 = 5 sonic, + 3 underwater
    events = engine.submit(Strike("w", "r", "sonic-maul"))
    (extra,) = [e for e in of_type(events, ev.DiceRolled) if e.rule == "UW-23"]
    assert extra.total == 3
    assert of_type(events, ev.DamageTaken)[0].amount == 8


def spread_fight(kind: DamageType, ruleset: Ruleset | None = None) -> Engine:
    rs = ruleset or preset()
    w = armed(fighter("w", "party", (1, 1), ruleset=rs), natural("charged-blade", kind))
    return begin([w, fighter("r1", "raiders", (2, 1), "raider", ruleset=rs),
                  fighter("r2", "raiders", (3, 1), "raider", ruleset=rs),
                  fighter("w2", "party", (2, 3), ruleset=rs), fighter("r3", "raiders", (6, 1), "raider", ruleset=rs)],
                 ruleset=rs)


def dealt(events: Sequence[object]) -> dict[str, int]:
    return {e.target: e.amount for e in of_type(events, ev.DamageTaken)}


@pytest.mark.rule("UW-22", "G-28")
def test_uw_22__electric_spreads_10_ft_with_a_reflex_save_for_half() -> None:
    engine = spread_fight(DamageType.ELECTRIC)
    # hit; 4 + MIG 4 = 8 electric; saves vs DC 15 (8 + MIG 4 + proficiency 3): w 14+1, r2 5+1, w2 3+1
    script(engine, [15, 4, 14, 5, 3])
    events = engine.submit(Strike("w", "r1", "charged-blade"))
    (spread,) = of_type(events, ev.DamageSpread)
    assert (spread.amount, spread.radius_ft, spread.affected, spread.dc, spread.rule) == (
        8, 10, ("w", "r2", "w2"), 15, "UW-22")
    assert dealt(events) == {"r1": 8, "w": 4, "r2": 8, "w2": 8}
    assert {e.source for e in of_type(events, ev.DamageTaken) if e.target != "r1"} == {WATER}


@pytest.mark.rule("UW-21", "G-28", "UW-22", "E-42")
@pytest.mark.parametrize(("kind", "ruleset"), [(DamageType.COLD, preset()), (DamageType.ELECTRIC, ED1)],
                         ids=["uw_21-cold-5-ft-no-save", "e_42-edition-1-electric-5-ft-no-save"])
def test_uw_21__cold_spreads_5_ft_without_a_save(kind: DamageType, ruleset: Ruleset) -> None:
    engine = spread_fight(kind, ruleset)
    script(engine, [15, 4])
    events = engine.submit(Strike("w", "r1", "charged-blade"))
    assert of_type(events, ev.CheckRolled) == []
    assert dealt(events) == {"r1": 8, "w": 8, "r2": 8}


# ----- sight, speech, movement and depth (UW-7..11, UW-24..28, VIS-12) -----


@pytest.mark.rule("UW-25", "UW-26", "VIS-12")
def test_uw_26__dark_water_blinds_beyond_halved_darkvision() -> None:
    stalker = fighter("s", "deep", (1, 1), "reef-stalker")
    near, far = fighter("a", "party", (6, 1)), fighter("b", "party", (9, 1))
    engine = begin([stalker, near, far], water=WaterType.DARK)
    state = engine.state
    assert vision.sees(state, stalker, near)  # 25 ft: within darkvision 60 halved to 30
    assert not vision.sees(state, stalker, far)  # 40 ft
    assert not vision.sees(state, near, stalker)  # no darkvision
    engine.state.environment.underwater = WaterType.MURKY
    assert vision.sees(state, near, fighter("c", "party", (8, 1)))  # 10 ft
    assert not vision.sees(state, stalker, far)  # 40 ft in murky water: heavily obscured


@pytest.mark.rule("UW-25", "G-24")
def test_uw_25__murky_water_lowers_passive_perception_against_hide() -> None:
    engine = begin([fighter("o", "party", (1, 1), "operative"), fighter("r", "raiders", (25, 10), "raider")],
                   water=WaterType.MURKY)
    script(engine, [10])
    check = of_type(engine.submit(Hide("o", obscured=True)), ev.CheckRolled)[0]
    assert check.against == 5  # 10 + Perception 0 - 5


@pytest.mark.rule("UW-27", "UW-28")
def test_uw_28__no_verbal_spells_without_air() -> None:
    spell = Spell("shout-of-force", "Shout of Force", 1, 1, attack=True, damage="1d6", damage_type=DamageType.FORCE,
                  range_ft=60, verbal=True)
    register_spell(spell)
    try:
        psion = fighter("p", "party", (1, 1), "psion")
        caster = psion.creature.model_copy(update={"talents": psion.creature.talents | {"shout-of-force"},
                                                   "spell_attribute": Attribute.WIS})
        engine = begin([replace(psion, creature=caster), fighter("r", "raiders", (4, 1), "raider")])
        with pytest.raises(Refused) as refused:
            engine.submit(CastSpell("p", "shout-of-force", ("r",)))
        assert refused.value.rule == "UW-28"
        breather = caster.model_copy(update={"air_supply": AirSupply.REBREATHER})
        engine = begin([replace(psion, creature=breather), fighter("r", "raiders", (4, 1), "raider")])
        engine.check(CastSpell("p", "shout-of-force", ("r",)))  # a way to breathe: it can speak (UW-27)
    finally:
        unregister_spell(spell.id)


@pytest.mark.rule("UW-7", "UW-8", "X-03")
def test_uw_8__moving_costs_double_without_a_swim_speed() -> None:
    engine = begin([fighter("w", "party", (1, 1)), fighter("s", "deep", (1, 8), "reef-stalker"),
                    fighter("r", "raiders", (28, 10), "raider")])
    with pytest.raises(Refused):
        engine.submit(Stride("w", tuple((x, 1) for x in range(2, 6))))  # 20 ft of water costs 40 ft > 30
    engine.submit(Stride("w", tuple((x, 1) for x in range(2, 5))))  # 15 ft costs 30
    assert engine.state.get("w").position == (4, 1)
    next_turn(engine)
    engine.submit(Stride("s", tuple((x, 8) for x in range(2, 10))))  # swim speed 40, no extra cost
    assert engine.state.get("s").position == (9, 8)


@pytest.mark.rule("UW-9", "UW-10")
def test_uw_9__diving_needs_athletics_dc_10__heavy_armor_at_disadvantage_and_sinking() -> None:
    engine = begin([fighter("w", "party", (1, 1)), fighter("r", "raiders", (28, 10), "raider")])
    script(engine, [15, 4])  # disadvantage: 4 + Athletics 7 = 11 >= 10
    events = engine.submit(Swim("w", 10))
    (check,) = of_type(events, ev.CheckRolled)
    assert (check.against, [s.rule for s in check.roll.sources], check.success) == (10, ["UW-10"], True)
    assert depth(engine.state, "w") == 10
    script(engine, [1, 2])  # a failure: no vertical progress
    engine.submit(Swim("w", -10))
    assert depth(engine.state, "w") == 10
    engine.end_turn("w")  # swimming counts as moving: no sinking
    assert depth(engine.state, "w") == 10
    engine.end_turn("r")
    sink = [e for e in of_type(engine.end_turn("w"), ev.DepthChanged) if e.actor == "w"]
    assert [(e.change_ft, e.rule) for e in sink] == [(10, "UW-10")]


@pytest.mark.rule("UW-11", "UW-7")
def test_uw_11__medium_armor_does_not_sink_and_a_swimmer_needs_no_check() -> None:
    engine = begin([fighter("v", "party", (1, 1), "vanguard"), fighter("s", "deep", (1, 8), "reef-stalker")])
    assert of_type(engine.end_turn("v"), ev.DepthChanged) == []
    events = engine.submit(Swim("s", 20))
    assert of_type(events, ev.CheckRolled) == [] and depth(engine.state, "s") == 20


@pytest.mark.rule("UW-5", "UW-6", "G-16")
def test_uw_5__sealed_gear_sheds_drowning_and_suffocating() -> None:
    diver = fighter("d", "party", (1, 1), "salvage-diver")
    engine = begin([diver, fighter("r", "raiders", (20, 5), "raider")], water=None)
    ctx = Context(engine.state, engine.rng, engine.log, engine.controllers)
    add(ctx, "d", AppliedCondition(Condition.DROWNING, rule("G-16")))
    removed = of_type(engine.log, ev.ConditionRemoved)
    assert [(e.applied.condition, e.rule) for e in removed] == [(Condition.DROWNING, "UW-5")]
    assert not engine.state.get("d").has(Condition.DROWNING)


@pytest.mark.rule("UW-3", "UW-22", "UW-10")
def test_uw_explain__breath_spreading_and_depth_have_log_lines() -> None:
    engine = spread_fight(DamageType.ELECTRIC)
    script(engine, [15, 4, 14, 5, 3])
    lines = log_lines(engine.submit(Strike("w", "r1", "charged-blade")))
    assert "8 electric damage spreads through the water from r1 to w, r2, w2 (within 10 ft, Reflex DC 15 for half)" \
        " [UW-22]" in lines
    lines = log_lines(engine.end_turn("w"))
    assert "w holds its breath: 4 rounds left (-2: took damage) [UW-3]" in lines  # its own spark spread back
    assert "w sinks down 10 ft to a depth of 10 ft [UW-10]" in lines
