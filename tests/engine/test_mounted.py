"""Mounted combat in the engine (MNT-2..9): who acts when, the rider's bonuses, both targetable, falling off."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from ashfall.core.rng import ScriptedRng
from ashfall.core.rule_ids import rule
from ashfall.core.types import Condition, Size
from ashfall.encounters import build, encounter_from_text
from ashfall.engine import Combatant, Decline, Engine, Mount, Strike, legal_intents, new_state
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.engine.harm import add
from ashfall.families.mounted.moves import FALL
from ashfall.files.yaml_marks import InputError
from ashfall.grid.board import Board
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.ruleset import preset
from tests.engine.map_kit import TIEBREAK, fighter, of_type, script


def begin(roster: Sequence[Combatant], rolls: Sequence[int] | None = None) -> Engine:
    """A started fight on a 12x12 map (morale off); ``rolls`` are the initiative d20s in roster order."""
    state = new_state(roster, preset(), Board(12, 12))
    state.morale_enabled = False
    faces = rolls or [20] + [1] * (len(roster) - 1)
    init = [f for d20 in faces for f in ((20, d20), (TIEBREAK, 1))]
    engine = Engine(state, ScriptedRng(init), {c.id: Decline() for c in roster}, seed=None)
    engine.start()
    return engine


def riding(rider: Combatant, mount: Combatant) -> Combatant:
    return replace(rider, mounted_on=mount.id, position=mount.position)


def ctx_of(engine: Engine) -> Context:
    return Context(engine.state, engine.rng, engine.log, engine.controllers)


def horse() -> Combatant:
    return fighter("h", "party", (2, 2), "strider")


def mounted_rider(mount: Combatant, weapon: str = "spear") -> Combatant:
    return riding(fighter("w", "party", None, weapons=[weapon]), mount)


# ----- who acts when (MNT-2, MNT-3) -----


@pytest.mark.rule("MNT-2", "MNT-3")
@pytest.mark.parametrize(("mount", "order"), [("strider", ["r", "w", "h"]), ("feral-strider", ["r", "h", "w"])],
                         ids=["mnt_2-trained-follows-its-rider", "mnt_3-independent-keeps-its-own"])
def test_mnt_2__a_trained_mount_acts_right_after_its_rider(mount: str, order: list[str]) -> None:
    horse = fighter("h", "party", (2, 2), mount)
    engine = begin([riding(fighter("w", "party", None), horse), horse, fighter("r", "raiders", (9, 9), "raider")],
                   rolls=[5, 15, 20])
    assert engine.state.order == order


@pytest.mark.rule("MNT-2", "ACT-6")
def test_mnt_2__mounting_mid_fight_moves_the_mount_after_the_rider_from_the_next_round() -> None:
    engine = begin([fighter("h", "party", (2, 2), "strider"), fighter("w", "party", (1, 2)),
                    fighter("r", "raiders", (9, 9), "raider")], rolls=[20, 10, 5])
    assert engine.state.order == ["h", "w", "r"]
    engine.end_turn("h")
    engine.submit(Mount("w", "h"))
    engine.end_turn("w")
    events = engine.end_turn("r")
    (change,) = of_type(events, ev.InitiativeChanged)
    assert change.rule == "MNT-2" and engine.state.order == ["w", "h", "r"]
    assert engine.state.active_id == "w"


# ----- attacking (MNT-5, MNT-6, MNT-8) -----


@pytest.mark.rule("MNT-5", "MNT-6")
@pytest.mark.parametrize(("size", "target_mounted", "faces", "bonus", "advantage"), [
    (Size.MEDIUM, False, [3, 2], 1, True), (Size.LARGE, False, [2], 1, False), (Size.MEDIUM, True, [2], 0, False),
], ids=["smaller-unmounted-plus-1-and-advantage", "as-large-plus-1-only", "mounted-target-nothing"])
def test_mnt_6__rider_melee_bonus_stacks_with_advantage_vs_smaller_unmounted(
        size: Size, target_mounted: bool, faces: list[int], bonus: int, advantage: bool) -> None:
    h = horse()
    target = fighter("r", "raiders", (0, 0), "raider", size=size)
    roster = [mounted_rider(h, "halberd"), h, target]  # a 10-ft reach from the rider's square
    if target_mounted:
        beast = fighter("b", "raiders", (0, 0), "strider")
        roster = [mounted_rider(h, "halberd"), h, riding(target, beast), beast]
    engine = begin(roster)
    script(engine, [*faces])
    (attack,) = of_type(engine.submit(Strike("w", "r", "halberd")), ev.AttackRolled)
    assert sum(p.value for p in attack.roll.modifiers if p.rule == "MNT-6") == bonus
    assert [s.rule for s in attack.roll.sources] == (["MNT-5"] if advantage else [])
    assert attack.roll.natural == max(faces)


@pytest.mark.rule("MNT-8")
def test_mnt_8__an_attacker_may_target_the_rider_or_the_mount() -> None:
    h = horse()
    engine = begin([fighter("r", "raiders", (1, 2), "raider"), mounted_rider(h), h])
    targets = {i.target for i in legal_intents(engine, "r") if isinstance(i, Strike)}
    assert {"w", "h"} <= targets
    script(engine, [2, 2])
    for target in ("w", "h"):
        assert of_type(engine.submit(Strike("r", target, "spear")), ev.AttackRolled)[0].target == target


# ----- falling off (MNT-7, MNT-9) -----


@pytest.mark.rule("MNT-7")
def test_mnt_7__a_mount_knocked_prone_throws_its_rider__1d6_and_prone() -> None:
    h = horse()
    engine = begin([mounted_rider(h), h, fighter("r", "raiders", (9, 9), "raider")])
    script(engine, [4])
    add(ctx_of(engine), "h", AppliedCondition(Condition.PRONE, rule("C-PRO")))
    rider = engine.state.get("w")
    assert rider.mounted_on is None and rider.position == (1, 1)  # the first free square next to the horse
    falls = [e for e in engine.log if isinstance(e, ev.DamageTaken) and e.target == "w"]
    assert [(e.rows[0].after, e.source) for e in falls] == [(4, FALL)]  # 1d6 (then the plate's DR)
    assert any(a.condition is Condition.PRONE and a.rule == "MNT-7" for a in rider.conditions)


@pytest.mark.rule("MNT-9", "G-22")
@pytest.mark.parametrize(("face", "prone"), [(13, True), (14, False)], ids=["fails-dc-15-prone", "saves"])
def test_mnt_9__a_mount_at_0_hp_makes_its_rider_save_dc_15_or_fall_prone(face: int, prone: bool) -> None:
    h = horse()
    weak = replace(h, health=h.health.evolve(hp=1))
    engine = begin([fighter("r", "raiders", (4, 2), "raider"), mounted_rider(weak), weak])
    script(engine, [18, 3, face])  # the raider's spear drops the horse; the warrior's Reflex (AGI 1) save
    events = engine.submit(Strike("r", "h", "spear"))
    (save,) = [e for e in of_type(events, ev.CheckRolled) if e.actor == "w"]
    assert (save.against, save.rule, save.success) == (15, "MNT-9", not prone)
    rider = engine.state.get("w")
    assert rider.mounted_on is None and rider.has(Condition.PRONE) == prone
    assert not [e for e in of_type(events, ev.DamageTaken) if e.target == "w"]  # no MNT-7 fall on top


# ----- encounter files (MNT-4) -----

RIDE = """
name: Riders at the ford
map: {width: 10, height: 6}
sides: [{name: riders}, {name: raiders}]
combatants:
  - {creature: strider, id: horse, side: riders, position: [1, 1]}
  - {creature: warrior, side: riders, mounted_on: horse}
  - {creature: raider, side: raiders, position: [8, 4]}
"""


@pytest.mark.rule("MNT-4", "MNT-2")
def test_mnt_4__an_encounter_rider_starts_in_its_mounts_square() -> None:
    engine, _ = build(encounter_from_text(RIDE))
    rider = engine.state.get("warrior")
    assert (rider.mounted_on, rider.position) == ("horse", (1, 1))


@pytest.mark.rule("ACT-6", "MNT-1")
@pytest.mark.parametrize(("change", "message"), [
    ("mounted_on: horse, position: [3, 3]", "give no position"),
    ("mounted_on: hors", "did you mean 'horse'"),
    ("mounted_on: raider", "its own side"),
], ids=["rider-with-a-position", "unknown-mount", "enemy-mount"])
def test_mnt_1__bad_riders_in_encounter_files_are_reported(change: str, message: str) -> None:
    text = RIDE.replace("mounted_on: horse", change)
    with pytest.raises(InputError) as info:
        encounter_from_text(text)
    assert any(message in str(p) for p in info.value.problems), info.value.problems
