"""The rulebook: built deterministically from the families, each installing what it claims, and a fight paying
nothing for the families it does not use (a dry duel's Strike enters none of their modules)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest

from ashfall.core.types import Condition
from ashfall.engine import catalog
from ashfall.engine import events as ev
from ashfall.engine.catalog import FAMILIES, features_of
from ashfall.engine.engine import Engine
from ashfall.engine.environment import WaterType
from ashfall.engine.reactions import TriggerKind
from ashfall.engine.rulebook import Family, Rulebook, RulebookDraft
from ashfall.engine.setup import new_engine, new_state
from ashfall.engine.state import EncounterState
from ashfall.engine.turns import END_OF_ROUND_ORDER
from ashfall.families.attacks.moves_strike import Strike
from ashfall.grid.board import Board
from ashfall.ruleset import preset
from tests.engine.map_kit import fighter
from tests.engine.object_kit import obj, place

INSTALLS: dict[str, tuple[set[str], set[str], dict[str, int]]] = {
    "morale": ({"rally"}, set(), {"movement": 1, "start_of_turn": 1, "after_damage": 1, "after_condition": 1,
                                  "reaction_veto": 1}),
    "movement": ({"crawl", "sprint", "stand", "step", "stride"}, set(), {}),
    "attacks": ({"aim", "all-out-attack", "coup-de-grace", "draw-stow", "extra-attack-strike", "full-auto-burst",
                 "off-hand-strike", "power-strike", "reload", "strike", "sweeping-strike"}, set(), {}),
    "reactions": (set(), {"attack-of-opportunity", "brace", "deflect", "dive-for-cover", "intercept", "return-fire"},
                  {}),
    "underwater": ({"swim"}, set(), {"attack": 1, "start_of_turn": 1, "end_of_turn": 2, "end_of_round": 1,
                                     "visibility": 1, "passive_perception": 1, "after_damage": 1,
                                     "damage_environment": 1, "after_condition": 1}),
    "hazards": ({"activate-suppression", "dig-out", "extinguish", "find-drain", "open-drain", "seal-gas"}, set(),
                {"movement": 1, "start_of_turn": 1, "end_of_turn": 1, "end_of_round": 4}),
    "chains": (set(), set(), {"end_of_round": 1, "after_object_damage": 1}),
    "objects": ({"flip-table", "improvised-attack", "kick-over", "push-off", "strike-object"}, set(),
                {"after_hit": 1, "area_damage": 1, "after_object_damage": 1, "on_object_hit": 1}),
    "spells": ({"cast-spell", "sustain-spell"}, {"counterspell"}, {"after_damage": 1}),
    "maneuvers": ({"constrict", "disarm", "drag", "escape", "feint", "grapple", "overrun", "release-grapple", "shove",
                   "trip"}, {"disarm-riposte"}, {"movement": 1}),
    "mounted": ({"dismount", "mount"}, set(), {"attack": 1, "order": 1, "end_of_round": 1, "after_damage": 1,
                                               "after_condition": 1}),
    "vehicles": ({"drive", "evasive-maneuvers", "ram"}, set(), {"attack": 1, "order": 1, "after_damage": 1}),
    "psionics": ({"psi-strike"}, set(), {}),
    "suppression": ({"suppressive-fire"}, set(), {"movement": 1, "start_of_turn": 1}),
    "covering-fire": (set(), {"covering-fire"}, {"movement": 1}),
    "utility": ({"dodge", "drop-item", "fall-prone", "help", "hide", "identify", "pick-up", "search", "speak",
                 "use-item", "use-object", "use-skill"}, set(), {}),
    "dying": ({"emergency-field-medicine", "second-wind", "stabilise-with-medicine", "use-stim"}, set(),
              {"before_acting": 1}),
    "turns": ({"delay", "fire-readied", "lean-out", "ready"}, {"readied"}, {"start_of_turn": 1}),
    "senses": (set(), set(), {"ambush_stealth": 1}),
    "gm": ({"gm-condition", "gm-damage", "gm-hp", "gm-morale", "gm-move", "gm-order", "gm-skip-turn",
            "gm-add-combatant", "gm-remove-combatant"}, set(), {}),
}
"""What each shipped family installs: its actions, its reactions and how many hooks of each kind."""

UNUSED_IN_A_DRY_DUEL = ("underwater", "hazards", "chains", "objects", "spells", "mounted", "vehicles", "psionics",
                        "covering-fire")
UNUSED_FAMILIES = ("underwater", "hazards", "chains", "objects", "vehicles", "mounted", "spells", "psionics",
                   "suppression")
"""Families a melee duel on a dry, empty map does not use (suppression's too: a Strike is no step)."""


def engine_part(module: str, family: str) -> bool:
    """Whether a module is the engine part (``engine*``, ``moves*``) of a family's folder."""
    prefix = f"ashfall.families.{family}."
    return module.startswith((prefix + "engine", prefix + "moves"))


def duel() -> Engine:
    """A warrior and a raider face to face on a dry, empty map."""
    rs = preset("ashfall-2")
    return new_engine(new_state([fighter("w", "party", (1, 2), ruleset=rs),
                                 fighter("r", "raiders", (2, 2), "raider", ruleset=rs)], rs, Board(8, 5)), 0)


def shape(book: Rulebook) -> tuple[object, ...]:
    """Everything order-sensitive in a rulebook, by identity (a fixed cost is a fresh closure: by its name)."""
    hooks = tuple((kind, book.hook_names[kind], book.hook_families[kind]) for kind in sorted(book.hook_names))
    actions = tuple((t, d.name, d.rule, d.cost.__qualname__, d.resolve, d.check, d.candidates, d.bonus, d.own_turn,
                     d.free, d.ends_turn) for t, d in book.actions.items())
    return (book.families, book.dormant, actions, tuple(book.reactions.items()), hooks,
            book.attack_hooks, book.movement_hooks, book.start_of_turn, book.end_of_round, book.after_damage)


@contextmanager
def modules_entered() -> Iterator[set[str]]:
    """The ``ashfall`` modules whose functions are called inside the block."""
    found: set[str] = set()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            if name.startswith("ashfall."):
                found.add(name)

    sys.setprofile(profile)
    try:
        yield found
    finally:
        sys.setprofile(None)


# ----- building -----


def test_rulebook_build__is_deterministic() -> None:
    features = frozenset({catalog.WATER, catalog.MOUNTS})
    assert shape(catalog.build(features)) == shape(catalog.build(features))
    assert shape(catalog.build()) == shape(Rulebook.build(FAMILIES, None, end_of_round_order=END_OF_ROUND_ORDER))


def test_rulebook_build__a_family_or_an_intent_installed_twice_is_an_error() -> None:
    with pytest.raises(ValueError, match="installed twice"):
        Rulebook.build((FAMILIES[0], FAMILIES[0]))
    again = Family("again", FAMILIES[1].install)
    with pytest.raises(ValueError, match="registered twice"):
        Rulebook.build((FAMILIES[1], again))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_family__installs_what_it_claims(family: Family) -> None:
    actions, reactions, hooks = INSTALLS[family.name]
    book = Rulebook.build((family,))
    assert {d.name for d in book.actions.values()} == actions
    assert set(book.reactions) == reactions
    assert {kind: len(names) for kind, names in book.hook_names.items() if names} == hooks
    assert set(book.action_family.values()) <= {family.name}


def test_families__every_shipped_family_is_listed_once_in_install_order() -> None:
    assert [f.name for f in FAMILIES] == list(INSTALLS)


@pytest.mark.parametrize("family", [f for f in FAMILIES if f.needs is not None], ids=lambda f: f.name)
def test_family__dormant_keeps_its_actions_and_drops_its_reactions_and_hooks(family: Family) -> None:
    actions, _reactions, _hooks = INSTALLS[family.name]
    book = Rulebook.build((family,), frozenset())
    assert book.dormant == (family.name,) and book.families == ()
    assert {d.name for d in book.actions.values()} == actions
    assert not book.reactions and not any(book.hook_names.values())


@pytest.mark.rule("HAZ-0")
def test_rulebook__hooks_keep_their_order() -> None:
    book = catalog.build()
    assert book.hook_names["end_of_round"] == (*END_OF_ROUND_ORDER, "breath", "trained-mounts")
    assert book.hook_names["movement"] == ("morale-escape", "hazards", "grapple-reach", "suppressive-fire",
                                           "covering-fire")
    assert book.hook_names["start_of_turn"] == ("morale-cornered", "suffocation", "hazards", "suppressive-fire",
                                                "readied-actions")
    assert book.hook_families["after_damage"] == ("morale", "underwater", "spells", "mounted", "vehicles")
    assert book.hook_families["attack"] == ("underwater", "mounted", "vehicles")
    assert [d.key for d in book.answering(TriggerKind.ATTACKED)] == ["intercept", "covering-fire", "readied"]


# ----- what a fight uses -----


def test_features_of__a_dry_melee_duel_needs_no_optional_family() -> None:
    engine = duel()
    assert features_of(engine.state) <= {catalog.SUPPRESSION}  # the raider's gun could lay down suppressive fire
    assert set(UNUSED_IN_A_DRY_DUEL) <= set(engine.rulebook.dormant)
    for kind in ("attack", "visibility", "damage_environment", "after_hit", "order", "end_of_round"):
        assert engine.rulebook.hook_names[kind] == (), kind


def _state(*, water: bool = False, vehicle: bool = False, caster: bool = False) -> EncounterState:
    roster = [fighter("w", "party", (1, 1)), fighter("r", "raiders", (6, 1), "raider")]
    if vehicle:
        roster.append(fighter("v", "party", (1, 4), "dune-buggy"))
    if caster:
        roster.append(fighter("m", "raiders", (6, 4), "psion"))  # psionic, with Psi Strike
    state = new_state(roster, preset(), Board(12, 8))
    if water:
        state.environment.underwater = WaterType.CLEAR
    return state


@pytest.mark.parametrize(("kwargs", "feature", "family"), [
    ({"water": True}, catalog.WATER, "underwater"),
    ({"vehicle": True}, catalog.VEHICLES, "vehicles"),
    ({"vehicle": True}, catalog.MOUNTS, "mounted"),
    ({"caster": True}, catalog.PSIONICS, "psionics"),
], ids=["water", "vehicle", "vehicle-boards", "psion"])
def test_features_of__the_state_installs_the_family_it_needs(kwargs: dict[str, bool], feature: str,
                                                             family: str) -> None:
    plain, furnished = _state(), _state(**kwargs)
    assert feature not in features_of(plain) and feature in features_of(furnished)
    assert family in plain.rulebook.dormant and family in furnished.rulebook.families


@pytest.mark.rule("OBJ-1")
def test_furnished__an_object_placed_mid_fight_installs_objects_and_features_only_grow() -> None:
    engine = duel()
    engine.start()
    assert "objects" in engine.rulebook.dormant
    place(engine, obj("table", "t1", (4, 4)))
    assert {"objects", "chains", "hazards"} <= set(engine.rulebook.families)
    engine.state.environment.objects.clear()
    engine.state.furnished()  # the table is gone: what the fight has used stays installed
    assert {"objects", "chains", "hazards"} <= set(engine.rulebook.families)


def test_rulebook__a_chosen_rulebook_is_kept_whatever_the_state() -> None:
    state = _state()
    book = catalog.build(frozenset())

    def noop(draft: RulebookDraft) -> None:
        """Adds nothing."""

    chosen = Rulebook.build((*FAMILIES, Family("noop", noop)), frozenset(), end_of_round_order=END_OF_ROUND_ORDER)
    engine = new_engine(state, 1, rulebook=chosen)
    state.furnished()
    assert engine.rulebook is chosen and engine.rulebook.families[-1] == "noop"
    assert book.families == chosen.families[:-1]


# ----- what a Strike costs -----


@pytest.mark.rule("ACT-7")
def test_duel_strike__enters_no_module_of_a_family_the_fight_does_not_use() -> None:
    engine = duel()
    engine.start()
    attacker = engine.state.active_id
    assert attacker is not None
    target = "r" if attacker == "w" else "w"
    weapon = engine.state.get(attacker).weapons[0].id
    with modules_entered() as entered:
        events = engine.submit(Strike(attacker, target, weapon))
    assert any(isinstance(e, ev.AttackRolled) for e in events)
    # the probe sees the Strike's own modules
    assert {"ashfall.families.attacks.engine", "ashfall.families.attacks.moves_strike"} <= entered
    assert not [m for m in entered for family in UNUSED_FAMILIES if engine_part(m, family)]


def test_duel_strike__an_underwater_duel_does_enter_the_underwater_rules() -> None:
    engine = duel()
    engine.state.environment.underwater = WaterType.CLEAR
    engine.state.furnished()
    engine.start()
    attacker = engine.state.active_id
    assert attacker is not None
    target = "r" if attacker == "w" else "w"
    with modules_entered() as entered:
        engine.submit(Strike(attacker, target, engine.state.get(attacker).weapons[0].id))
    assert "ashfall.families.underwater.engine" in entered
    assert Condition.DROWNING not in engine.state.get(target).condition_set
