"""The turn structure: initiative, surprise, the action and reaction economy, Delay, Ready, leaning out.

INIT-1..3, E-21, SUR-1..4, AE-1, AE-2, AE-4, AE-5, RX-1, RX-4, E-13, FF-3, DEL-1..3, RDY-1..5, COV-3, COV-4, G-55.
"""

from dataclasses import dataclass, replace

import pytest

from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Condition
from ashfall.engine import (
    Delay,
    Engine,
    FireReadied,
    LeanOut,
    ReadiedAction,
    Ready,
    ReadyTrigger,
    Refused,
    Step,
    Stride,
    Strike,
    catalog,
    new_state,
)
from ashfall.engine import events as ev
from ashfall.engine.actions import ActionDef, fixed
from ashfall.engine.rulebook import Family
from ashfall.grid.board import Board, CoverLevel, CoverObject
from ashfall.ruleset import preset
from tests.engine.map_kit import TIEBREAK, attack_of, dv_rules, fighter, mod_rules, of_type, script, started
from tests.engine.reaction_kit import Takes, offered

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
OPEN = Board(12, 7)
AOO = "attack-of-opportunity"


def _engine(combatants, faces, ruleset=ED2, board=OPEN, controllers=None):
    state = new_state(combatants, ruleset, board)
    chosen = {c.id: Takes() for c in combatants}
    chosen.update(controllers or {})
    return Engine(state, ScriptedRng(faces), chosen, seed=None)


# ----- initiative (INIT-1..3, E-21) -----


@pytest.mark.rule("INIT-1")
def test_init_1__d20_plus_agi_plus_proficiency_plus_equipment():
    g = fighter("g", "party", None, "gunslinger")
    g = replace(g, creature=g.creature.model_copy(update={"initiative_bonus": 2}))
    engine = _engine([g], [(20, 10), (TIEBREAK, 1)])
    engine.start()
    (rolled,) = of_type(engine.log, ev.InitiativeRolled)
    assert [(p.label, p.value, p.rule) for p in rolled.roll.modifiers] == [
        ("AGI", 4, "INIT-1"), ("proficiency", 4, "INIT-1"), ("equipment", 2, "INIT-1")]
    assert rolled.roll.total == 20 and engine.state.get("g").initiative == 20


@pytest.mark.rule("INIT-2", "INIT-3")
def test_init_3__ties_go_to_higher_agi_then_the_seeded_flip():
    # warrior +4, gunslinger +8, operative +5, second warrior +4: all total 18
    cs = [fighter("w1", "a", None), fighter("g", "a", None, "gunslinger"), fighter("o", "b", None, "operative"),
          fighter("w2", "b", None)]
    faces = [(20, 14), (TIEBREAK, 3), (20, 10), (TIEBREAK, 1), (20, 13), (TIEBREAK, 1), (20, 14), (TIEBREAK, 9)]
    engine = _engine(cs, faces)
    engine.start()
    assert engine.state.order == ["g", "o", "w2", "w1"]
    (order,) = of_type(engine.log, ev.OrderSet)
    assert order.rule == "INIT-3"


@pytest.mark.rule("INIT-2")
def test_init_2__highest_first():
    cs = [fighter("w", "a", None), fighter("o", "b", None, "operative")]
    engine = _engine(cs, [(20, 20), (TIEBREAK, 1), (20, 2), (TIEBREAK, 1)])
    engine.start()
    assert engine.state.order == ["w", "o"] and engine.state.active_id == "w"


@pytest.mark.rule("E-21", "INIT-1")
@pytest.mark.parametrize(("ruleset", "trained", "expected"), [
    pytest.param(ED2, False, [("AGI", "INIT-1"), ("proficiency", "INIT-1")], id="ed2-everyone"),
    pytest.param(ED1, True, [("AGI", "INIT-1"), ("proficiency", "E-21")], id="ed1-combat-trained"),
    pytest.param(ED1, False, [("AGI", "INIT-1")], id="ed1-untrained"),
])
def test_e_21__edition_1_adds_proficiency_only_when_combat_trained(ruleset, trained, expected):
    w = fighter("w", "a", None, ruleset=ruleset)
    w = replace(w, creature=w.creature.model_copy(update={"combat_trained": trained}))
    engine = _engine([w], [(20, 10), (TIEBREAK, 1)], ruleset)
    engine.start()
    (rolled,) = of_type(engine.log, ev.InitiativeRolled)
    assert [(p.label, p.rule) for p in rolled.roll.modifiers] == expected


# ----- surprise (SUR-1..4, FF-1..3) -----


def _ambush():
    o = fighter("o", "foes", (6, 2), "operative")
    w = fighter("w", "party", (5, 2))
    # initiative: o 20, w 1; o's Stealth 10 + 5 = 15 >= the warrior's passive Perception 11
    engine = _engine([o, w], [(20, 20), (TIEBREAK, 1), (20, 1), (TIEBREAK, 1), (20, 10)],
                     controllers={"w": Takes(AOO)})
    engine.start(ambushers="foes")
    return engine


@pytest.mark.rule("SUR-1")
def test_sur_1__stealth_against_passive_perception():
    engine = _ambush()
    (s,) = of_type(engine.log, ev.Surprise)
    assert (s.actor, s.surprised, s.stealth, s.passive) == ("w", True, 15, 11)


@pytest.mark.rule("SUR-1", "G-45")
def test_sur_1__a_noticed_ambush_surprises_nobody():
    o, w = fighter("o", "foes", (6, 2), "operative"), fighter("w", "party", (5, 2))
    engine = _engine([o, w], [(20, 20), (TIEBREAK, 1), (20, 1), (TIEBREAK, 1), (20, 5)])
    engine.start(ambushers="foes")
    assert of_type(engine.log, ev.Surprise)[0].surprised is False  # 10 < 11


@pytest.mark.rule("SUR-2", "SUR-4", "FF-1", "FF-2", "FF-3")
def test_sur_2__surprised_creature_cannot_react_and_is_flat_footed_in_round_1():
    engine = _ambush()
    with script(engine, [(20, 2)]):
        attack = attack_of(engine.submit(Strike("o", "w", "combat-knife")))
    assert attack.dv == 17 and dv_rules(attack).get("FF-2") == -1  # loses its AGI +1
    with script(engine, []):
        events = engine.submit(Stride("o", ((7, 2), (8, 2))))
    assert offered(events, "w") == [] and engine.controllers["w"].offered == []


@pytest.mark.rule("SUR-2", "SUR-3")
def test_sur_3__surprised_turn_is_skipped_then_round_2_is_normal():
    engine = _ambush()
    with script(engine, []):
        events = engine.end_turn("o")
    assert [(e.actor, e.rule) for e in of_type(events, ev.TurnSkipped)] == [("w", "SUR-2")]
    assert engine.state.round == 2 and engine.state.active_id == "o"
    with script(engine, [(20, 1)]):  # round 2: it reacts again; its AoO rolls a 1
        events = engine.submit(Stride("o", ((7, 2), (8, 2))))
    assert offered(events, "w") == [AOO]


@pytest.mark.rule("FF-3")
def test_ff_3__flat_footed_creature_cannot_react():
    o = fighter("o", "foes", (6, 2), "operative")
    w = fighter("w", "party", (5, 2), conditions=[Condition.FLAT_FOOTED])
    engine = started([o, w], OPEN, controllers={"w": Takes(AOO)})
    with script(engine, []):
        engine.submit(Stride("o", ((7, 2), (8, 2))))
    assert engine.controllers["w"].offered == []


# ----- actions and reactions per turn (AE-1, AE-2, AE-4, AE-5, RX-1, RX-4, E-13) -----


@dataclass(frozen=True, slots=True)
class Shout:
    """A test-only bonus action (AE-4)."""

    actor: str


SHOUTING = catalog.build(extra=(Family("shout", lambda book: book.action(
    Shout, ActionDef("shout", "AE-4", fixed(1), lambda ctx, intent: None, bonus=True))),))


@pytest.mark.rule("AE-1")
def test_ae_1__a_fourth_action_is_refused():
    engine = started([fighter("w", "party", (1, 1)), fighter("o", "foes", (9, 5), "operative")], OPEN)
    with script(engine, []):
        for sq in ((2, 1), (3, 1), (4, 1)):
            engine.submit(Step("w", sq))
    with pytest.raises(Refused) as refused:
        engine.submit(Step("w", (5, 1)))
    assert refused.value.rule == "AE-1"


@pytest.mark.rule("AE-4", "AE-5")
def test_ae_5__one_bonus_action_per_turn_and_it_costs_an_action():
    engine = started([fighter("w", "party", (1, 1)), fighter("o", "foes", (9, 5), "operative")], OPEN,
                     rulebook=SHOUTING)
    engine.submit(Shout("w"))
    assert engine.state.get("w").turn.actions_left == 2
    with pytest.raises(Refused) as refused:
        engine.submit(Shout("w"))
    assert refused.value.rule == "AE-5"


@pytest.mark.rule("RX-1", "AE-2")
def test_rx_1__one_reaction_per_round_regained_at_the_start_of_your_turn():
    a, b = fighter("a", "foes", (6, 2), "operative"), fighter("b", "foes", (6, 3))  # b ties w: roster order
    w = fighter("w", "party", (5, 2))
    engine = started([a, w, b], OPEN, controllers={"w": Takes(AOO)})
    with script(engine, [(20, 1)]):
        engine.submit(Stride("a", ((7, 2), (8, 2))))
    assert not engine.state.get("w").reaction_available
    with script(engine, []):
        engine.end_turn("a")
    assert engine.state.active_id == "w" and engine.state.get("w").reaction_available  # RX-1: back at its turn
    with script(engine, []):
        engine.end_turn("w")
    with script(engine, [(20, 1)]):
        events = engine.submit(Stride("b", ((7, 3), (8, 3))))
    assert offered(events, "w") == [AOO]


@pytest.mark.rule("RX-1")
def test_rx_1__a_spent_reaction_is_not_offered_again_that_round():
    a, b = fighter("a", "foes", (6, 2), "operative"), fighter("b", "foes", (6, 3), "operative")
    w = fighter("w", "party", (5, 2))
    engine = started([a, b, w], OPEN, controllers={"w": Takes(AOO)})
    with script(engine, [(20, 1)]):
        engine.submit(Stride("a", ((7, 2), (8, 2))))
        engine.end_turn("a")
    with script(engine, []):
        events = engine.submit(Stride("b", ((7, 3), (8, 3))))
    assert offered(events, "w") == []


@pytest.mark.rule("RX-4", "E-13", "AE-2")
@pytest.mark.parametrize(("ruleset", "attacks"), [pytest.param(ED2, 1, id="ed2-one-per-trigger"),
                                                  pytest.param(ED1, 2, id="ed1-no-limit")])
def test_e_13__two_reactions_a_round_but_one_per_trigger_in_edition_2(ruleset, attacks):
    rs = ruleset.with_options(turn={"reactions_per_round": 2})
    o = fighter("o", "foes", (6, 2), "operative", ruleset=rs)
    w = fighter("w", "party", (5, 2), ruleset=rs)
    engine = started([o, w], OPEN, ruleset=rs, controllers={"w": Takes(AOO)})
    with script(engine, [(20, 1)] * attacks):
        events = engine.submit(Stride("o", ((7, 2), (8, 2))))
    assert len(of_type(events, ev.AttackRolled)) == attacks
    assert engine.state.get("w").reaction_available is (attacks == 1)


# ----- Delay (DEL-1..3) -----


def _three():
    cs = [fighter("a", "party", (1, 1)), fighter("b", "foes", (8, 1), "operative"),
          fighter("c", "foes", (8, 4), "operative")]
    return started(cs, OPEN)


@pytest.mark.rule("DEL-1", "DEL-2")
def test_del_1__delay_moves_you_later_for_good_and_you_act_there():
    engine = _three()
    with script(engine, []):
        events = engine.submit(Delay("a", "c"))
    (changed,) = of_type(events, ev.InitiativeChanged)
    assert changed.order == ("b", "c", "a") and changed.rule == "DEL-2"
    assert engine.state.active_id == "b" and engine.state.round == 1
    with script(engine, []):
        engine.end_turn("b")
        events = engine.end_turn("c")
    (started_,) = of_type(events, ev.TurnStarted)
    assert (started_.actor, started_.round, started_.actions) == ("a", 1, 3)
    with script(engine, []):
        events = engine.end_turn("a")
    assert engine.state.round == 2 and engine.state.active_id == "b"


@pytest.mark.rule("DEL-1", "DEL-3")
@pytest.mark.parametrize(("who", "after", "rule_id"), [
    pytest.param("a", "a", "DEL-1", id="not-later"),
    pytest.param("a", "zed", "DEL-1", id="unknown"),
])
def test_del_1__delay_must_go_later(who, after, rule_id):
    engine = _three()
    with pytest.raises(Refused) as refused:
        engine.submit(Delay(who, after))
    assert refused.value.rule == rule_id


@pytest.mark.rule("DEL-3")
def test_del_3__the_last_creature_cannot_delay():
    engine = _three()
    with script(engine, []):
        engine.end_turn("a")
        engine.end_turn("b")
    with pytest.raises(Refused) as refused:
        engine.submit(Delay("c", "a"))
    assert refused.value.rule == "DEL-3"


@pytest.mark.rule("DEL-1")
def test_del_1__delay_before_you_act():
    engine = _three()
    with script(engine, []):
        engine.submit(Step("a", (2, 1)))
    with pytest.raises(Refused) as refused:
        engine.submit(Delay("a", "c"))
    assert refused.value.rule == "DEL-1"


# ----- Ready (RDY-1..5) -----


def _readied(trigger, action=None, *, board=OPEN, w_at=(2, 2), o_at=(9, 2)):
    w = fighter("w", "party", w_at, "gunslinger", weapons=("pistol",))
    o = fighter("o", "foes", o_at, "operative")
    engine = started([w, o], board, controllers={"w": Takes("readied")})
    with script(engine, []):
        engine.submit(Ready("w", action or ReadiedAction("strike", weapon="pistol"), trigger))
        engine.end_turn("w")
    return engine


@pytest.mark.rule("RDY-1", "RDY-2")
def test_rdy_1__readying_costs_2_actions():
    w, o = fighter("w", "party", (2, 2), "gunslinger"), fighter("o", "foes", (9, 2), "operative")
    engine = started([w, o], OPEN)
    events = engine.submit(Ready("w", ReadiedAction("strike"), ReadyTrigger("moves", creature="o")))
    assert engine.state.get("w").turn.actions_left == 1
    assert of_type(events, ev.ReadyDeclared)[0].readied.trigger.creature == "o"


@pytest.mark.rule("RDY-2", "RDY-3", "G-41")
def test_rdy_3__entering_the_named_squares_fires_the_readied_strike_with_the_reaction():
    engine = _readied(ReadyTrigger("enters", squares=((6, 2), (6, 3))))
    with script(engine, [(20, 2)]):
        events = engine.submit(Stride("o", ((8, 2), (7, 2), (6, 2), (5, 2))))
    attack = attack_of(events)
    assert (attack.actor, attack.target, attack.label) == ("w", "o", "Readied Strike")
    assert "MAP-1" not in mod_rules(attack)
    names = [type(e).__name__ for e in events]
    moves = [i for i, n in enumerate(names) if n == "Moved"]
    assert moves[2] < names.index("AttackRolled") < moves[3]  # right after it entered (6, 2)
    assert [e.rule for e in of_type(events, ev.ReactionSpent)] == ["RDY-3"]
    assert not engine.state.readied and not engine.state.get("w").reaction_available
    assert ev.loads(ev.dumps(engine.log)) == engine.log


@pytest.mark.rule("RDY-4")
def test_rdy_4__an_unused_readied_action_is_lost_at_your_next_turn():
    engine = _readied(ReadyTrigger("enters", squares=((0, 6),)))
    with script(engine, []):
        events = engine.end_turn("o")
    (lost,) = of_type(events, ev.ReadyEnded)
    assert (lost.actor, lost.used, lost.rule) == ("w", False, "RDY-4") and not engine.state.readied


@pytest.mark.rule("RDY-2")
@pytest.mark.parametrize(("trigger", "fires"), [
    pytest.param(ReadyTrigger("leaves", squares=((9, 2),)), True, id="leaves"),
    pytest.param(ReadyTrigger("moves", creature="o"), True, id="named-creature-moves"),
    pytest.param(ReadyTrigger("moves", creature="w"), False, id="someone-else-named"),
    pytest.param(ReadyTrigger("enters", squares=((0, 0),)), False, id="elsewhere"),
])
def test_rdy_2__structured_triggers_fire_automatically(trigger, fires):
    engine = _readied(trigger)
    with script(engine, [(20, 2)] if fires else []):
        events = engine.submit(Step("o", (8, 2)))
    assert bool(of_type(events, ev.AttackRolled)) is fires


@pytest.mark.rule("RDY-2", "RDY-3")
def test_rdy_3__an_attack_trigger_fires_before_the_attack():
    engine = _readied(ReadyTrigger("attacks"))
    with script(engine, [(20, 2), (20, 2)]):
        events = engine.submit(Strike("o", "w", "pistol"))
    first, second = of_type(events, ev.AttackRolled)
    assert (first.actor, first.label, second.actor) == ("w", "Readied Strike", "o")


@pytest.mark.rule("RDY-2", "RDY-3")
def test_rdy_2__a_gm_trigger_fires_by_intent_off_turn():
    engine = _readied(ReadyTrigger("gm"))
    with pytest.raises(Refused):
        engine.submit(FireReadied("o"))
    with script(engine, [(20, 2)]):
        events = engine.submit(FireReadied("w", target="o"))
    assert attack_of(events).label == "Readied Strike"
    assert not engine.state.get("w").reaction_available


@pytest.mark.rule("RDY-3")
def test_rdy_3__a_readied_step_moves_without_provoking():
    engine = _readied(ReadyTrigger("enters", squares=((3, 2),)), ReadiedAction("step", path=((1, 2),)),
                      o_at=(5, 2))
    with script(engine, []):
        events = engine.submit(Stride("o", ((4, 2), (3, 2))))
    assert engine.state.get("w").position == (1, 2)
    assert [m.mode for m in of_type(events, ev.Moved) if m.actor == "w"] == ["step"]


WALL = Board(12, 7, walls=frozenset({(5, 1), (5, 2), (5, 3)}))


@pytest.mark.rule("RDY-5", "COV-3")
def test_rdy_5__total_cover_blocks_a_strike_but_a_ready_catches_the_creature_coming_out():
    engine = _readied(ReadyTrigger("into-view", creature="o"), board=WALL, o_at=(7, 3))
    with pytest.raises(Refused) as refused:
        engine.submit(Strike("o", "w", "pistol"))
    assert refused.value.rule == "COV-3"
    with script(engine, [(20, 2)]):
        events = engine.submit(Step("o", (7, 4)))  # still behind the wall from (2, 2)
        assert not of_type(events, ev.AttackRolled)
        events = engine.submit(Step("o", (7, 5)))
    assert attack_of(events).label == "Readied Strike"


@pytest.mark.rule("RDY-5", "COV-3", "COV-4", "G-55")
def test_cov_4__leaning_out_of_total_cover_lets_you_shoot_and_be_shot():
    w, o = fighter("w", "party", (2, 2), "gunslinger", weapons=("pistol",)), fighter("o", "foes", (6, 2), "operative")
    engine = started([o, w], WALL, controllers={"w": Takes("readied")})
    with pytest.raises(Refused) as refused:
        engine.submit(Strike("o", "w", "pistol"))
    assert refused.value.rule == "COV-3"
    with script(engine, []):
        engine.end_turn("o")
        engine.submit(Ready("w", ReadiedAction("strike", weapon="pistol"), ReadyTrigger("into-view")))
        engine.end_turn("w")
    with script(engine, [(20, 2), (20, 2)]):
        events = engine.submit(LeanOut("o"))
        assert attack_of(events).label == "Readied Strike"
        engine.submit(Strike("o", "w", "pistol"))


@pytest.mark.rule("COV-4", "G-55", "COV-1")
def test_cov_4__leaning_out_loses_your_cover_until_your_next_turn():
    board = Board(12, 7, cover={(6, 2): CoverObject(CoverLevel.PARTIAL, name="barrel")})
    o, w = fighter("o", "foes", (7, 2), "operative"), fighter("w", "party", (2, 2), "gunslinger", weapons=("pistol",))
    engine = started([o, w], board)
    with script(engine, []):
        events = engine.submit(LeanOut("o"))
    assert engine.state.get("o").turn.actions_left == 2
    assert [e.effect.rule for e in of_type(events, ev.EffectAdded)] == ["COV-4"]
    with script(engine, [(20, 2)]):
        engine.end_turn("o")
        attack = attack_of(engine.submit(Strike("w", "o", "pistol")))
    assert attack.dv == 15 and "COV-1" not in dv_rules(attack)
    with script(engine, [(20, 2)]):
        engine.end_turn("w")  # o's turn starts: the lean ends
        engine.end_turn("o")
        attack = attack_of(engine.submit(Strike("w", "o", "pistol")))
    assert dv_rules(attack)["COV-1"] == 2 and attack.dv == 17


