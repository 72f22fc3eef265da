"""Suppressive Fire zones and the Covering Fire talent (SUP-1..11, ACT-3, G-41).

The gunslinger is SUP-10's example: submachine gun 1d8, AGI +4, proficiency +4, so DC 16. The
operative saves Reflex at +5 (AGI 3, proficiency 2).
"""

from dataclasses import replace

import pytest

from ashfall.content.schema import WeaponProperty
from ashfall.core.types import Condition
from ashfall.engine import Refused, Stand, Step, Stride, Strike, SuppressiveFire
from ashfall.engine import events as ev
from ashfall.engine.effects import EffectKind
from ashfall.grid.board import Board
from tests.engine.map_kit import attack_of, fighter, of_type, script, started, weapon
from tests.engine.reaction_kit import Takes

OPEN = Board(12, 7)
CONE = ((2, 3), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3), (4, 4))


def _fight(*, at=(7, 3), conditions=(), gun=None, extra=()):
    g = fighter("g", "party", (1, 3), "gunslinger")
    if gun is not None:
        g = replace(g, weapons=(gun,))
    o = fighter("o", "foes", at, "operative", conditions=conditions)
    return started([g, o, *extra], OPEN)


def _suppressed(**kw):
    engine = _fight(**kw)
    with script(engine, []):
        engine.submit(SuppressiveFire("g", (4, 3)))
        engine.end_turn("g")
    return engine


@pytest.mark.rule("MAA-4", "SUP-1", "SUP-2", "SUP-3", "SUP-10", "G-41")
def test_sup_3__cone_zone_with_dc_16_spends_5_rounds_and_2_actions():
    engine = _fight()
    with script(engine, []):
        events = engine.submit(SuppressiveFire("g", (4, 3)))
    (made,) = of_type(events, ev.ZoneCreated)
    assert made.zone.squares == CONE and made.zone.dc == 16 and made.zone.damage == "1d8"
    g = engine.state.get("g")
    assert g.ammo["submachine-gun"] == 30 - 5
    assert g.turn.actions_left == 1 and g.turn.attack_rolls == 0  # not an attack roll: no MAP
    assert not of_type(events, ev.AttackRolled)
    assert ev.loads(ev.dumps(engine.log)) == engine.log


@pytest.mark.rule("SUP-3")
def test_sup_3__line_is_15_by_5_ft():
    engine = _fight()
    with script(engine, []):
        events = engine.submit(SuppressiveFire("g", (4, 3), "line"))
    assert of_type(events, ev.ZoneCreated)[0].zone.squares == ((2, 3), (3, 3), (4, 3))


@pytest.mark.rule("SUP-1", "SUP-2")
@pytest.mark.parametrize(("gun", "rule_id"), [
    pytest.param(weapon("greataxe"), "SUP-1", id="melee-weapon"),
    pytest.param(weapon("pistol", properties=frozenset({WeaponProperty.THROWN})), "SUP-1", id="thrown"),
    pytest.param(weapon("grenade-launcher"), "SUP-1", id="single-shot-2-action-reload"),
    pytest.param(weapon("crossbow"), "SUP-2", id="single-shot-1-action-reload-but-1-round"),
])
def test_sup_1__weapons_that_cannot_suppress(gun, rule_id):
    engine = _fight(gun=gun)
    with pytest.raises(Refused) as refused:
        engine.submit(SuppressiveFire("g", (4, 3)))
    assert refused.value.rule == rule_id
    assert not engine.state.zones


@pytest.mark.rule("SUP-2")
@pytest.mark.parametrize(("loaded", "ok"), [(4, False), (5, True)])
def test_sup_2__needs_5_rounds_loaded(loaded, ok):
    engine = _fight()
    engine.state.get("g").ammo["submachine-gun"] = loaded
    if ok:
        engine.submit(SuppressiveFire("g", (4, 3)))
        assert engine.state.get("g").ammo["submachine-gun"] == 0
    else:
        with pytest.raises(Refused) as refused:
            engine.submit(SuppressiveFire("g", (4, 3)))
        assert refused.value.rule == "SUP-2"


@pytest.mark.rule("SUP-5", "SUP-8", "SUP-10")
def test_sup_8__failed_save_takes_weapon_dice_only_and_stops():
    engine = _suppressed()
    with script(engine, [(20, 5), (8, 6)]):  # Reflex 5 + 5 = 10 < 16; 1d8 6, no AGI
        events = engine.submit(Stride("o", ((6, 3), (5, 3), (4, 3), (3, 3))))
    (save,) = of_type(events, ev.CheckRolled)
    assert (save.actor, save.against, save.success, save.rule) == ("o", 16, False, "SUP-5")
    (hurt,) = of_type(events, ev.DamageTaken)
    assert (hurt.amount, hurt.source) == (6, "g")
    assert [e.rule for e in of_type(events, ev.MovementStopped)] == ["SUP-8"]
    o = engine.state.get("o")
    assert o.position == (4, 3) and o.health.hp == 21 - 6
    assert o.turn.actions_left == 2  # it can still act from where it stopped


@pytest.mark.rule("SUP-6", "SUP-9")
def test_sup_9__successful_save_keeps_moving_and_saves_once_per_turn():
    engine = _suppressed()
    with script(engine, [(20, 11)]):  # 11 + 5 = 16 meets DC 16 (G-45)
        events = engine.submit(Stride("o", ((6, 3), (5, 3), (4, 3), (3, 3), (2, 3))))
    assert [c.success for c in of_type(events, ev.CheckRolled)] == [True]
    assert engine.state.get("o").position == (2, 3)
    with script(engine, []):
        engine.submit(Step("o", (3, 2)))  # still inside, same turn: no second save


@pytest.mark.rule("ACT-3", "SUP-5")
def test_act_3__a_step_does_not_avoid_the_zone():
    engine = _suppressed(at=(5, 3))
    with script(engine, [(20, 20)]):
        events = engine.submit(Step("o", (4, 3)))
    assert [(c.actor, c.success) for c in of_type(events, ev.CheckRolled)] == [("o", True)]


@pytest.mark.rule("SUP-5", "ACT-5")
def test_sup_5__standing_up_in_the_zone_calls_for_a_save():
    engine = _suppressed(at=(3, 3), conditions=[Condition.PRONE])
    with script(engine, [(20, 2), (8, 3)]):
        events = engine.submit(Stand("o"))
    assert [c.success for c in of_type(events, ev.CheckRolled)] == [False]
    assert engine.state.get("o").health.hp == 21 - 3
    assert not engine.state.get("o").has(Condition.PRONE)


@pytest.mark.rule("SUP-7")
def test_sup_7__a_creature_inside_that_does_not_move_is_unaffected():
    engine = _suppressed(at=(3, 3))
    with script(engine, [(20, 1)]):  # its pistol shot: a natural 1
        events = engine.submit(Strike("o", "g", "pistol"))
    assert not of_type(events, ev.CheckRolled) and not of_type(events, ev.ZoneTriggered)


@pytest.mark.rule("SUP-5")
def test_sup_5__moving_outside_the_zone_is_safe():
    engine = _suppressed()
    with script(engine, []):
        engine.submit(Stride("o", ((7, 2), (7, 1), (6, 0))))


@pytest.mark.rule("SUP-4", "SUP-6")
def test_sup_4__zone_lasts_until_the_start_of_the_shooters_next_turn():
    o2 = fighter("p", "foes", (6, 4), "operative")
    engine = _suppressed(extra=(o2,))
    with script(engine, [(20, 20), (20, 20)]):
        engine.submit(Step("o", (6, 3)))
        engine.submit(Stride("o", ((5, 3), (4, 3))))
        engine.end_turn("o")
        engine.submit(Stride("p", ((5, 4), (4, 4))))  # another creature, its own save
        events = engine.end_turn("p")
    assert [e.key for e in of_type(events, ev.ZoneEnded)] and not engine.state.zones
    assert engine.state.active_id == "g"


# ----- Covering Fire (SUP-11) -----


def _covering():
    g = fighter("g", "party", (1, 3), "gunslinger")
    w = fighter("w", "party", (5, 3))
    o = fighter("o", "foes", (9, 3), "operative")
    return started([o, g, w], OPEN, controllers={"g": Takes("covering-fire")})


@pytest.mark.rule("SUP-11")
def test_sup_11__covering_fire_gives_disadvantage_on_every_attack():
    engine = _covering()
    with script(engine, [(20, 19), (20, 3), (20, 4), (20, 18)]):
        first = engine.submit(Strike("o", "w", "pistol"))
        second = engine.submit(Strike("o", "w", "pistol"))
    assert [a.roll.advantage for a in (attack_of(first), attack_of(second))] == ["disadvantage"] * 2
    assert [s.rule for s in attack_of(second).roll.sources] == ["SUP-11"]
    assert engine.state.get("g").ammo["submachine-gun"] == 29
    assert len(of_type(engine.log, ev.ReactionSpent)) == 1


@pytest.mark.rule("SUP-11")
def test_sup_11__the_pinned_creature_draws_one_free_attack_when_it_moves():
    engine = _covering()
    with script(engine, [(20, 5), (20, 5), (20, 2)]):  # the pinned shot misses; the free attack misses
        engine.submit(Strike("o", "w", "pistol"))
        events = engine.submit(Stride("o", ((9, 4), (9, 5))))
    attack = attack_of(events)
    assert (attack.actor, attack.target, attack.label) == ("g", "o", "Covering Fire")
    assert engine.state.get("g").ammo["submachine-gun"] == 28
    (pin,) = engine.state.effects_on("o", EffectKind.SUPPRESSED)
    assert pin.amount == 1
