"""Reactions in the engine: AoO, Sentinel, Deflect, Dive for Cover, Brace, Intercept, Return Fire (RX, E-13..E-20).

Scenarios script every die (ScriptedRng). Creatures are the library's PCs, which never check morale.
"""

from dataclasses import replace

import pytest

from ashfall.core.modifiers import Modifier, ModifierKind
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Condition, Save, Size
from ashfall.engine import Dodge, Refused, Sprint, Step, Stride, Strike
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.families.reactions.moves_defensive import (
    area_targeted,
    charge_ft,
    dive_path,
    reflex_bonus,
    trained_to_deflect,
)
from ashfall.grid.areas import burst
from ashfall.grid.board import Board, CoverLevel, CoverObject
from ashfall.rules.checks import saving_throw
from ashfall.rules.dc import fixed_dc
from ashfall.ruleset import preset
from tests.engine.map_kit import attack_of, dv_rules, fighter, mod_rules, of_type, script, started
from tests.engine.reaction_kit import Takes, kinds, offered

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
OPEN = Board(14, 7)


# ----- Attack of Opportunity: leaving reach, Step, Dodge, Sentinel, shooting in reach (RX-21..25) -----


@pytest.mark.rule("RX-21", "RX-22", "RX-24")
def test_aoo__leaving_reach_provokes_and_resolves_before_the_step():
    o, w = fighter("o", "foes", (6, 2), "operative"), fighter("w", "party", (5, 2))
    engine = started([o, w], OPEN, controllers={"w": Takes("attack-of-opportunity")})
    rng = script(engine, [(20, 15), (12, 6)])  # greataxe +7 = 22 vs DV 15; 1d12 6 + MIG 4
    with rng:
        events = engine.submit(Stride("o", ((7, 2), (8, 2))))
    names = kinds(events)
    assert names.index("AttackRolled") < names.index("Moved")
    attack = attack_of(events)
    assert (attack.actor, attack.label, attack.outcome) == ("w", "Attack of Opportunity", "hit")
    assert "MAP-1" not in mod_rules(attack)  # reactions take no MAP (G-41)
    assert engine.state.get("o").health.hp == 21 - 10
    assert engine.state.get("o").position == (8, 2)  # a hit does not stop it (RX-23)
    assert not engine.state.get("w").reaction_available


@pytest.mark.rule("RX-25", "ACT-3", "DOD-1")
@pytest.mark.parametrize("how", ["step", "dodge"])
def test_rx_25__step_or_dodge_leaves_reach_without_an_aoo(how):
    o, w = fighter("o", "foes", (6, 2), "operative"), fighter("w", "party", (5, 2))
    taker = Takes("attack-of-opportunity")
    engine = started([o, w], OPEN, controllers={"w": taker})
    with script(engine, []):
        if how == "step":
            events = engine.submit(Step("o", (7, 2)))
        else:
            engine.submit(Dodge("o"))
            events = engine.submit(Stride("o", ((7, 2), (8, 2))))
    assert not of_type(events, ev.AttackRolled) and taker.offered == []
    assert engine.state.get("w").reaction_available


@pytest.mark.rule("RX-23")
@pytest.mark.parametrize(("talents", "where"), [(frozenset({"sentinel"}), (6, 2)), (frozenset(), (8, 2))])
def test_rx_23__sentinel_hit_stops_the_mover(talents, where):
    o = fighter("o", "foes", (6, 2), "operative")
    w = fighter("w", "party", (5, 2))
    w = replace(w, creature=w.creature.model_copy(update={"talents": talents}))
    engine = started([o, w], OPEN, controllers={"w": Takes("attack-of-opportunity")})
    with script(engine, [(20, 15), (12, 1)]):
        events = engine.submit(Stride("o", ((7, 2), (8, 2))))
    assert engine.state.get("o").position == where
    assert [e.rule for e in of_type(events, ev.MovementStopped)] == (["RX-23"] if talents else [])


@pytest.mark.rule("RX-23", "RX-27")
def test_rx_23__a_sentinel_hit_on_an_interceptor_does_not_stop_the_mover():
    o = fighter("o", "foes", (6, 2), "operative")
    a = fighter("a", "foes", (7, 3))  # within 5 ft of the mover as it leaves
    w = fighter("w", "party", (5, 2))
    w = replace(w, creature=w.creature.model_copy(update={"talents": frozenset({"sentinel"})}))
    engine = started([o, a, w], OPEN, controllers={"w": Takes("attack-of-opportunity"), "a": Takes("intercept")})
    with script(engine, [(20, 19), (12, 1)]):  # the AoO hits the interceptor
        events = engine.submit(Stride("o", ((7, 2), (8, 2))))
    assert (attack_of(events).target, attack_of(events).outcome) == ("a", "hit")
    assert engine.state.get("o").position == (8, 2) and not of_type(events, ev.MovementStopped)


@pytest.mark.rule("RX-21", "RX-22", "RX-32", "AMOD-7")
def test_aoo__ranged_attack_in_reach_resolves_first():
    o, w = fighter("o", "foes", (6, 2), "operative"), fighter("w", "party", (5, 2))
    engine = started([o, w], OPEN, controllers={"w": Takes("attack-of-opportunity")})
    # AoO: d20 3 misses; the pistol shot: disadvantage (a hostile within 5 ft) 18 and 2, keeps 2: miss
    with script(engine, [(20, 3), (20, 18), (20, 2)]):
        events = engine.submit(Strike("o", "w", "pistol"))
    first, second = of_type(events, ev.AttackRolled)
    assert (first.actor, first.label) == ("w", "Attack of Opportunity")
    assert (second.actor, second.roll.advantage) == ("o", "disadvantage")
    assert [s.rule for s in second.roll.sources] == ["AMOD-7"]


# ----- Deflect (RX-6..8, E-14) -----


def _shot_at_mutant(ruleset=ED2, proficiencies=None):
    g = fighter("g", "party", (1, 2), "gunslinger", weapons=("pistol",), ruleset=ruleset)
    m = fighter("m", "foes", (6, 2), "mutant", ruleset=ruleset)
    if proficiencies is not None:
        m = replace(m, creature=m.creature.model_copy(update={"weapon_proficiencies": proficiencies,
                                                               "natural_weapons": ()}), weapons=())
    return started([g, m], OPEN, ruleset=ruleset, controllers={"m": Takes("deflect")})


@pytest.mark.rule("RX-6", "RX-7", "RX-8", "G-39")
def test_rx_7__deflect_reduces_the_damage_to_zero():
    engine = _shot_at_mutant()
    # pistol +8 (AGI 4, prof 4): 12 -> 20 vs DV 12; 1d6: 5 (ranged adds no AGI, DMG-3); Deflect 1d10 8 + AGI 2 = 10
    with script(engine, [(20, 12), (6, 5), (10, 8)]):
        events = engine.submit(Strike("g", "m", "pistol"))
    (rolled,) = of_type(events, ev.DiceRolled)
    assert (rolled.actor, rolled.faces, rolled.total, rolled.rule) == ("m", (8,), 10, "RX-7")
    (taken,) = of_type(events, ev.DamageTaken)
    assert taken.amount == 0 and engine.state.get("m").health.hp == 49
    assert any(r.step == "deflect" for r in taken.rows)


@pytest.mark.rule("RX-7")
def test_rx_7__deflect_takes_off_only_what_it_rolls():
    engine = _shot_at_mutant()
    with script(engine, [(20, 12), (6, 6), (10, 1)]):  # 6 damage, Deflect 1 + 2 = 3
        engine.submit(Strike("g", "m", "pistol"))
    assert engine.state.get("m").health.hp == 49 - 3


@pytest.mark.rule("RX-8", "E-14")
@pytest.mark.parametrize(("ruleset", "deflects"), [pytest.param(ED2, False, id="ed2-needs-proficiency"),
                                                   pytest.param(ED1, True, id="ed1-free-hand-only")])
def test_e_14__untrained_creature_deflects_only_in_edition_1(ruleset, deflects):
    engine = _shot_at_mutant(ruleset, proficiencies=frozenset())
    assert not trained_to_deflect(engine.state.get("m"))
    faces = [(20, 12), (6, 5)] + ([(10, 8)] if deflects else [])
    with script(engine, faces):
        events = engine.submit(Strike("g", "m", "pistol"))
    assert offered(events, "m") == (["deflect"] if deflects else [])


@pytest.mark.rule("RX-8")
def test_rx_8__no_free_hand_no_deflect():
    g = fighter("g", "party", (1, 2), "gunslinger", weapons=("pistol",))
    w = fighter("w", "foes", (6, 2))  # greataxe (two hands) and a javelin
    taker = Takes("deflect")
    engine = started([g, w], OPEN, controllers={"w": taker})
    with script(engine, [(20, 15), (6, 6)]):
        engine.submit(Strike("g", "w", "pistol"))
    assert taker.offered == []


# ----- Dive for Cover, with a small area effect (RX-9..11, X-14, X-21) -----

CRATE = CoverObject(CoverLevel.HEAVY, name="crate")


def grenade(ctx: Context, source: str, center, dc: int, *, explosive: bool = True) -> dict[str, bool]:
    """A small area effect: everyone within 5 ft of ``center`` may react, then saves (Reflex) with the bonus."""
    src = ctx.state.get(source)
    caught = [c.id for c in ctx.state.combatants.values() if burst(center, 5) & set(c.space) and c.id != source]
    reacted = area_targeted(ctx, source, caught, src.space, explosive=explosive)
    saved = {}
    for cid, effect in reacted.items():
        c = ctx.state.get(cid)
        bonus = [Modifier(effect.reflex_bonus, ModifierKind.COVER, "RX-10", "Dive for Cover")]
        result = saving_throw(c.creature, Save.REFLEX, fixed_dc(dc, "RX-10", "grenade"), ctx.rng, ctx.ruleset,
                              modifiers=bonus if effect.reflex_bonus else ())
        saved[cid] = result.success
    return saved


def _diver(board, ruleset=ED2, enemy_at=None):
    g = fighter("g", "foes", (1, 2), "gunslinger", ruleset=ruleset)
    o = fighter("o", "party", (5, 3), "operative", ruleset=ruleset)
    roster = [g, o] + ([fighter("w", "foes", enemy_at, "vanguard", ruleset=ruleset)] if enemy_at else [])
    engine = started(roster, board, ruleset=ruleset,
                     controllers={"o": Takes("dive-for-cover"), "w": Takes("attack-of-opportunity")})
    return engine


@pytest.mark.rule("RX-9", "RX-10", "X-21", "COV-2", "G-37")
def test_rx_10__dive_for_cover_moves_behind_heavy_cover_and_adds_its_reflex_bonus():
    engine = _diver(Board(12, 7, cover={(6, 2): CRATE}))
    ctx = Context(engine.state, ScriptedRng([(20, 6)]), engine.log, engine.controllers)
    o = engine.state.get("o")
    assert dive_path(engine.state, o, engine.state.get("g").space) == (((6, 3), (7, 2)), CoverLevel.HEAVY)
    saved = grenade(ctx, "g", (5, 3), 15)
    assert o.position == (7, 2)  # behind the crate, 10 ft away
    assert [(m.to, m.mode, m.rule) for m in of_type(engine.log, ev.Moved)] == [((6, 3), "dive", "RX-10"),
                                                                               ((7, 2), "dive", "RX-10")]
    assert saved == {"o": True}  # 6 + Reflex 5 + heavy cover 5 = 16 >= 15


@pytest.mark.rule("RX-10", "RX-25")
def test_rx_10__dive_for_cover_provokes_no_aoo():
    engine = _diver(Board(12, 7, cover={(6, 2): CRATE}), enemy_at=(3, 4))  # halberd reach 10 ft
    ctx = Context(engine.state, ScriptedRng([(20, 6)]), engine.log, engine.controllers)
    grenade(ctx, "g", (5, 3), 15)
    assert engine.state.get("o").position == (7, 2)  # out of the halberd's 10-ft reach
    assert not of_type(engine.log, ev.AttackRolled)


@pytest.mark.rule("RX-9", "RX-11")
def test_rx_11__no_cover_within_10_ft_no_dive():
    engine = _diver(OPEN)
    ctx = Context(engine.state, ScriptedRng([(20, 6)]), engine.log, engine.controllers)
    assert grenade(ctx, "g", (5, 3), 15) == {"o": False}
    assert engine.state.get("o").position == (5, 3)
    assert not of_type(engine.log, ev.ReactionSpent)


@pytest.mark.rule("X-14")
@pytest.mark.parametrize(("keep", "dives"), [(True, True), (False, False)])
def test_x_14__explosives_keep_the_dive_bonus_unless_the_option_ignores_cover(keep, dives):
    rs = ED2.with_options(defense={"explosives_keep_cover_reflex": keep})
    engine = _diver(Board(12, 7, cover={(6, 2): CRATE}), ruleset=rs)
    ctx = Context(engine.state, ScriptedRng([(20, 6)]), engine.log, engine.controllers)
    grenade(ctx, "g", (5, 3), 15)
    assert bool(of_type(engine.log, ev.ReactionSpent)) is dives


@pytest.mark.rule("COV-1", "COV-2", "X-21")
@pytest.mark.parametrize(("level", "bonus"), [(CoverLevel.NONE, 0), (CoverLevel.PARTIAL, 2), (CoverLevel.HEAVY, 5),
                                              (CoverLevel.TOTAL, 5)])
def test_cover_reflex_bonus_by_level(level, bonus):
    engine = _diver(OPEN)
    assert reflex_bonus(level, engine.state) == bonus


# ----- Brace (RX-12..15, X-20) -----


def _charge(charger="warrior", bracer="vanguard", size=None):
    w = fighter("w", "foes", (2, 2), charger, size=size)
    v = fighter("v", "party", (10, 2), bracer)
    return started([w, v], OPEN, controllers={"v": Takes("brace")})


@pytest.mark.rule("RX-12", "RX-13", "RX-14", "RX-15", "X-20", "G-41")
def test_rx_14__brace_vs_a_20_ft_charge_stops_the_charger():
    engine = _charge()
    # halberd +6 (MIG 3, prof 3): 15 -> 21 vs DV 18; 1d10 9 + Brace 1d6 4 + MIG 3 = 16, armor DR 5: 11
    # Fortitude +6 vs DC 14 (8 + prof 3 + MIG 3): 2 -> 8 fails
    with script(engine, [(20, 15), (10, 9), (6, 4), (20, 2)]):
        events = engine.submit(Stride("w", tuple((x, 2) for x in range(3, 9))))
    attack = attack_of(events)
    assert (attack.label, attack.outcome) == ("Brace", "hit") and "MAP-1" not in mod_rules(attack)
    (save,) = of_type(events, ev.CheckRolled)
    assert (save.against, save.success, save.rule) == (14, False, "RX-14")
    assert engine.state.get("w").health.hp == 52 - 11
    assert [e.rule for e in of_type(events, ev.MovementStopped)] == ["RX-14"]
    with pytest.raises(Refused) as refused:
        engine.submit(Step("w", (7, 2)))
    assert refused.value.rule == "X-20"


@pytest.mark.rule("RX-14")
def test_rx_14__a_successful_save_keeps_the_charger_free():
    engine = _charge()
    with script(engine, [(20, 15), (10, 1), (6, 1), (20, 15)]):
        engine.submit(Stride("w", tuple((x, 2) for x in range(3, 9))))
    with script(engine, []):
        engine.submit(Step("w", (8, 1)))


@pytest.mark.rule("RX-14")
def test_rx_14__a_larger_charger_makes_no_save():
    engine = _charge(size=Size.LARGE)
    with script(engine, [(20, 15), (10, 1), (6, 1)]):
        events = engine.submit(Stride("w", tuple((x, 2) for x in range(3, 8))))
    assert not of_type(events, ev.CheckRolled)


@pytest.mark.rule("RX-14", "RX-27")
def test_rx_14__a_brace_an_ally_intercepts_stops_nobody():
    w = fighter("w", "foes", (2, 2))
    a = fighter("a", "foes", (8, 3))  # beside the square the charge ends on
    v = fighter("v", "party", (10, 2), "vanguard")
    engine = started([w, a, v], OPEN, controllers={"v": Takes("brace"), "a": Takes("intercept")})
    # the halberd's 15 -> 21 hits the interceptor's DV 18: 1d10 9 + Brace 1d6 4; no save is rolled for the charger
    with script(engine, [(20, 15), (10, 9), (6, 4)]):
        events = engine.submit(Stride("w", tuple((x, 2) for x in range(3, 9))))
    attack = attack_of(events)
    assert (attack.label, attack.target, attack.outcome) == ("Brace", "a", "hit")
    assert not of_type(events, ev.CheckRolled) and not of_type(events, ev.MovementStopped)
    assert engine.state.get("w").health.hp == 52
    with script(engine, []):
        engine.submit(Step("w", (7, 2)))  # the charger may still move (X-20 does not apply)


@pytest.mark.rule("RX-12", "RX-15")
@pytest.mark.parametrize(("bracer", "path", "offered_brace"), [
    pytest.param("vanguard", tuple((x, 2) for x in range(5, 9)), True, id="20-ft-straight"),
    pytest.param("vanguard", tuple((x, 2) for x in range(6, 9)), False, id="15-ft-too-short"),
    pytest.param("vanguard", ((3, 3), (4, 3), (5, 3), (6, 2), (7, 2), (8, 2)), False, id="bent-line"),
    pytest.param("warrior", tuple((x, 2) for x in range(4, 10)), False, id="greataxe-cannot-brace"),
])
def test_rx_12__brace_needs_a_straight_20_ft_charge_and_a_braceable_weapon(bracer, path, offered_brace):
    w = fighter("w", "foes", (path[0][0] - 1, path[0][1]) if path[0][1] == 2 else (2, 2))
    v = fighter("v", "party", (10, 2), bracer)
    taker = Takes()
    engine = started([w, v], OPEN, controllers={"v": taker})
    with script(engine, []):
        engine.submit(Stride("w", path))
    assert any("brace" in o for o in taker.offered) is offered_brace


@pytest.mark.rule("RX-12", "MAA-8")
def test_rx_12__a_sprint_is_a_charge_too():
    w, v = fighter("w", "foes", (0, 2)), fighter("v", "party", (12, 2), "vanguard")
    engine = started([w, v], OPEN, controllers={"v": Takes("brace")})
    with script(engine, [(20, 1)]):  # a natural 1 misses
        events = engine.submit(Sprint("w", tuple((x, 2) for x in range(1, 11))))
    assert attack_of(events).label == "Brace"


def test_charge_ft__counts_the_last_straight_run_toward_the_target():
    path = ((0, 0), (1, 1), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2))
    assert charge_ft(path, 1, ((8, 2),)) == 20
    assert charge_ft(path, 1, ((0, 9),)) == 0  # moving away
    assert charge_ft(((0, 0),), 1, ((8, 2),)) == 0


# ----- Intercept (RX-26..28, E-19) -----


def _intercept(ruleset=ED2, ally_at=(5, 3), weapon="mutant"):
    m = fighter("m", "foes", (6, 3), weapon, ruleset=ruleset)
    o = fighter("o", "party", ally_at, "operative", ruleset=ruleset)
    w = fighter("w", "party", (5, 2), ruleset=ruleset)
    return started([m, o, w], OPEN, ruleset=ruleset, controllers={"w": Takes("intercept")})


@pytest.mark.rule("RX-26", "RX-27", "RX-28")
def test_rx_27__intercept_redirects_the_attack_to_the_interceptors_dv():
    engine = _intercept()
    with script(engine, [(20, 10)]):  # claws +7 (MIG 4, prof 3): 17 would hit the operative's 15, not DV 18
        events = engine.submit(Strike("m", "o"))
    attack = attack_of(events)
    assert (attack.target, attack.dv, attack.outcome) == ("w", 18, "miss")
    assert offered(events, "w") == ["intercept"]
    assert not of_type(events, ev.Moved)


@pytest.mark.rule("RX-26", "RX-28")
def test_rx_26__ally_farther_than_5_ft_cannot_be_intercepted():
    engine = _intercept(ally_at=(7, 4))
    with script(engine, [(20, 10), (6, 1)]):
        events = engine.submit(Strike("m", "o"))
    assert attack_of(events).target == "o"


@pytest.mark.rule("RX-28", "C-INC")
def test_rx_28__an_incapacitated_creature_cannot_intercept():
    engine = _intercept()
    engine.state.get("w").conditions = (*engine.state.get("w").conditions,
                                        *fighter("x", "x", None, conditions=[Condition.STUNNED]).conditions)
    with script(engine, [(20, 10), (6, 1)]):
        events = engine.submit(Strike("m", "o"))
    assert attack_of(events).target == "o"


@pytest.mark.rule("E-19", "RX-26")
@pytest.mark.parametrize(("ruleset", "redirected"), [pytest.param(ED2, False, id="ed2-melee-only"),
                                                     pytest.param(ED1, True, id="ed1-any-attack")])
def test_e_19__intercepting_a_ranged_attack_only_in_edition_1(ruleset, redirected):
    g = fighter("g", "foes", (11, 3), "gunslinger", weapons=("pistol",), ruleset=ruleset)
    o = fighter("o", "party", (5, 3), "operative", ruleset=ruleset)
    w = fighter("w", "party", (5, 2), ruleset=ruleset)
    engine = started([g, o, w], OPEN, ruleset=ruleset, controllers={"w": Takes("intercept")})
    with script(engine, [(20, 2)]):  # misses either DV
        events = engine.submit(Strike("g", "o", "pistol"))
    assert attack_of(events).target == ("w" if redirected else "o")


# ----- Return Fire (RX-29..32, G-56, E-20, MAP-6, AMOD-7) -----


def _return_fire(ruleset=ED2, *, hostile_adjacent=False, ally_at=(3, 4)):
    s = fighter("s", "foes", (8, 2), "operative", ruleset=ruleset)
    g = fighter("g", "party", (2, 2), "gunslinger", weapons=("pistol",), ruleset=ruleset)
    w = fighter("w", "party", ally_at, ruleset=ruleset)
    roster = [s, g, w] + ([fighter("m", "foes", (1, 2), "mutant", ruleset=ruleset)] if hostile_adjacent else [])
    return started(roster, OPEN, ruleset=ruleset, controllers={"g": Takes("return-fire"), "m": Takes()})


@pytest.mark.rule("RX-29", "RX-30", "RX-31", "RX-32", "AMOD-7", "MAP-6", "G-56")
def test_rx_30__return_fire_at_minus_2_with_disadvantage_when_a_hostile_is_within_5_ft():
    engine = _return_fire(hostile_adjacent=True)
    # s's pistol +5 (AGI 3, prof 2): 15 -> 20 vs the warrior's 18; 1d6 6, armor DR 5: 1
    # g's Return Fire: pistol +8 -2, disadvantage: 17 and 4, keeps 4: 10 vs DV 15 misses
    with script(engine, [(20, 15), (6, 6), (20, 17), (20, 4)]):
        events = engine.submit(Strike("s", "w", "pistol"))
    _, back = of_type(events, ev.AttackRolled)
    assert (back.actor, back.target, back.label) == ("g", "s", "Return Fire")
    assert engine.controllers["m"].offered == [("attack-of-opportunity",)]  # RX-32: it provokes
    assert mod_rules(back) == {"ATK-2": 8, "RX-30": -2}
    assert back.roll.advantage == "disadvantage" and not back.counts_for_map
    assert engine.state.get("g").ammo["pistol"] == 11
    assert engine.state.get("g").turn.attack_rolls == 0


@pytest.mark.rule("RX-29", "G-56")
def test_g_56__ally_beyond_30_ft_of_the_reactor_is_not_covered():
    engine = _return_fire(ally_at=(9, 6))  # 35 ft from g
    taker = engine.controllers["g"]
    with script(engine, [(20, 15), (6, 6)]):
        engine.submit(Strike("s", "w", "pistol"))
    assert not any("return-fire" in o for o in taker.offered)


@pytest.mark.rule("RX-31")
def test_rx_31__shooter_beyond_normal_range_gets_no_return_fire():
    s = fighter("s", "foes", (13, 2), "operative")
    g = fighter("g", "party", (2, 2), "gunslinger", weapons=("pistol",))
    g = replace(g, weapons=(g.weapons[0].model_copy(update={"range_normal": 30, "range_long": 90}),))
    engine = started([s, g], OPEN, controllers={"g": Takes("return-fire")})
    with script(engine, [(20, 19), (6, 1)]):
        events = engine.submit(Strike("s", "g", "pistol"))
    assert len(of_type(events, ev.AttackRolled)) == 1


@pytest.mark.rule("E-20", "RX-29", "RX-30")
@pytest.mark.parametrize(("target", "answers"), [("w", False), ("g", True)])
def test_e_20__edition_1_return_fire_only_for_the_target_and_without_penalty(target, answers):
    engine = _return_fire(ED1)
    faces = [(20, 19), (6, 1)] + ([(20, 2)] if answers else [])
    with script(engine, faces):
        events = engine.submit(Strike("s", target, "pistol"))
    attacks = of_type(events, ev.AttackRolled)
    assert len(attacks) == (2 if answers else 1)
    if answers:
        assert "RX-30" not in mod_rules(attacks[1])


@pytest.mark.rule("RX-30")
def test_rx_30__return_fire_hits_and_deals_damage():
    engine = _return_fire()
    with script(engine, [(20, 15), (6, 6), (20, 15), (6, 3)]):  # 15 + 6 = 21 vs 15; 1d6 3
        engine.submit(Strike("s", "w", "pistol"))
    assert engine.state.get("s").health.hp == 21 - 3
    assert dv_rules(of_type(engine.log, ev.AttackRolled)[-1])["DV-1"] >= 10


# ----- who may react, and when (RX-2, RX-5) -----


@pytest.mark.rule("RX-5", "RX-26")
@pytest.mark.parametrize("creature", ["warrior", "operative", "vanguard", "raider"])
def test_rx_5__universal_reactions_need_no_talent(creature):
    m = fighter("m", "foes", (6, 3), "mutant")
    o = fighter("o", "party", (5, 3), "operative")
    x = fighter("x", "party", (5, 2), creature)
    taker = Takes()
    engine = started([m, o, x], OPEN, controllers={"x": taker})
    with script(engine, [(20, 1)]):  # a natural 1: no damage, no morale check
        engine.submit(Strike("m", "o"))
    assert ("intercept",) in taker.offered


@pytest.mark.rule("RX-2", "RX-6", "RX-29")
def test_rx_2__a_reaction_on_your_own_turn_deflects_the_return_fire_you_drew():
    m = fighter("m", "party", (2, 2), "mutant", weapons=("pistol",))
    g = fighter("g", "foes", (8, 2), "gunslinger", weapons=("pistol",))
    engine = started([m, g], OPEN, controllers={"m": Takes("deflect"), "g": Takes("return-fire")})
    # m's shot: +5 (AGI 2, prof 3): 15 -> 20 vs DV 16 hits, 1d6 2; g's Return Fire 18 + 8 - 2 = 24 vs 12, 1d6 4;
    # m deflects on its own turn: 1d10 5 + AGI 2 = 7
    with script(engine, [(20, 15), (6, 2), (20, 18), (6, 4), (10, 5)]):
        events = engine.submit(Strike("m", "g", "pistol"))
    assert engine.state.active_id == "m"
    assert [(e.actor, e.label) for e in of_type(events, ev.ReactionSpent)] == [("g", "Return Fire"), ("m", "Deflect")]
    assert engine.state.get("m").health.hp == 49


@pytest.mark.rule("DEATH-1", "RX-22")
def test_death_1__a_mover_dropped_by_a_reaction_on_its_own_turn_ends_that_turn():
    o, w = fighter("o", "foes", (6, 2), "operative"), fighter("w", "party", (5, 2))
    far = fighter("x", "foes", (12, 6), "operative")  # the fight goes on
    engine = started([o, w, far], OPEN, controllers={"w": Takes("attack-of-opportunity")})
    with script(engine, [(20, 20), (12, 12), (12, 12)]):  # a critical hit: 2d12 24 + MIG 4
        events = engine.submit(Stride("o", ((7, 2), (8, 2))))
    assert engine.state.get("o").health.is_down and engine.state.get("o").position == (6, 2)
    assert [e.actor for e in of_type(events, ev.TurnEnded)] == ["o"]
    assert engine.state.active_id == "x"  # next in the order (AGI 3 before the warrior's 1)
