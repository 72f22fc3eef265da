"""Positioning on the map and off it: flanking, high ground, prone, cover (POS, AMOD, COV, X-01, X-02, STC)."""

from __future__ import annotations

import pytest

from ashfall.content.schema import WeaponProperty
from ashfall.core.types import Condition, Size
from ashfall.engine import Combatant, Declared, Engine, Refused, Strike
from ashfall.engine import events as ev
from ashfall.grid.board import Board, CoverLevel, CoverObject, Square
from ashfall.rules.defense import Cover
from ashfall.ruleset import preset
from tests.engine.map_kit import attack_of, dv_rules, fighter, mod_rules, script, snapshot, started, weapon

OPEN = Board(10, 10)
ED1 = "ashfall-1"


def fight(*roster: Combatant, board: Board | None = OPEN, edition: str | None = None,
          options: dict | None = None) -> Engine:
    rs = preset(edition) if edition else preset()
    if options:
        rs = rs.with_options(**options)
    return started(list(roster), board, ruleset=rs)


def swing(engine: Engine, intent: Strike) -> ev.AttackRolled:
    """Submit a Strike with low dice (a likely miss) and return its attack roll."""
    script(engine, [2, 2] + [1] * 8)
    return attack_of(engine.submit(intent))


def sources(attack: ev.AttackRolled) -> set[tuple[bool, str]]:
    return {(s.advantage, s.rule) for s in attack.roll.sources}


def refused_rule(engine: Engine, intent: Strike) -> str:
    before = snapshot(engine)
    with pytest.raises(Refused) as info:
        engine.submit(intent)
    assert snapshot(engine) == before
    return str(info.value.rule)


# ----- flanking on the grid (POS-1, AMOD-1, POS-3, E-22) -----


def flank_scene(ally_at: Square, *, ally_conditions: tuple[Condition, ...] = (), ally_down: bool = False,
                edition: str | None = None, ally_weapons: tuple[str, ...] = ()) -> Engine:
    return fight(
        fighter("w", "party", (1, 2)),
        fighter("a", "party", ally_at, conditions=ally_conditions, down=ally_down, weapons=ally_weapons),
        fighter("r", "raiders", (2, 2), "raider"),
        edition=edition,
    )


@pytest.mark.rule("POS-1", "AMOD-1", "G-37")
@pytest.mark.parametrize(
    ("ally_at", "bonus"),
    [((3, 2), 2), ((3, 1), 0), ((2, 1), 0), ((3, 3), 0), ((4, 2), 0)],
    ids=["opposite", "corner-not-opposite", "adjacent-side", "other-corner", "ally-out-of-reach"],
)
def test_pos_1__flanking_on_the_grid_gives_plus_2_to_melee(ally_at: Square, bonus: int) -> None:
    attack = swing(flank_scene(ally_at), Strike("w", "r"))
    assert mod_rules(attack).get("AMOD-1", 0) == bonus


@pytest.mark.rule("POS-1", "AMOD-1")
def test_pos_1__an_ally_with_a_reach_weapon_flanks_from_10_ft() -> None:
    attack = swing(flank_scene((4, 2), ally_weapons=("halberd",)), Strike("w", "r"))
    assert mod_rules(attack)["AMOD-1"] == 2


@pytest.mark.rule("POS-1", "AMOD-1")
def test_pos_1__an_ally_holding_only_a_gun_flanks_with_its_natural_reach() -> None:
    assert mod_rules(swing(flank_scene((3, 2), ally_weapons=("pistol",)), Strike("w", "r")))["AMOD-1"] == 2
    far = swing(flank_scene((5, 2), ally_weapons=("hunting-rifle",)), Strike("w", "r"))
    assert "AMOD-1" not in mod_rules(far)  # a rifle's range is not melee reach


@pytest.mark.rule("POS-3", "E-22", "AMOD-1")
@pytest.mark.parametrize(
    ("conditions", "down", "edition", "bonus"),
    [
        ((Condition.GRAPPLED,), False, None, 0),
        ((Condition.INCAPACITATED,), False, None, 0),
        ((Condition.STUNNED,), False, None, 0),
        ((), True, None, 0),  # at 0 HP: unconscious
        ((Condition.GRAPPLED,), False, ED1, 2),  # edition 1: no exclusions (E-22)
        ((Condition.INCAPACITATED,), False, ED1, 2),
        ((), True, ED1, 2),
    ],
    ids=["grappled", "incapacitated", "stunned", "unconscious", "ed1-grappled", "ed1-incapacitated",
         "ed1-unconscious"],
)
def test_pos_3__incapacitated_or_grappled_allies_do_not_flank_edition_1_they_do(
    conditions: tuple[Condition, ...], down: bool, edition: str | None, bonus: int
) -> None:
    engine = flank_scene((3, 2), ally_conditions=conditions, ally_down=down, edition=edition)
    assert mod_rules(swing(engine, Strike("w", "r"))).get("AMOD-1", 0) == bonus


@pytest.mark.rule("POS-3", "DEATH-3")
def test_pos_3__a_dead_ally_never_flanks() -> None:
    engine = flank_scene((3, 2), ally_down=True, edition=ED1)
    ally = engine.state.get("a")
    ally.health = ally.health.evolve(vitality=ally.health.vitality.DEAD)
    assert "AMOD-1" not in mod_rules(swing(engine, Strike("w", "r")))


@pytest.mark.rule("POS-1", "AMOD-1", "AMOD-7")
def test_pos_1__ranged_attacks_do_not_flank() -> None:
    engine = fight(
        fighter("g", "party", (0, 2), weapons=("pistol",)),
        fighter("a", "party", (3, 2)),
        fighter("r", "raiders", (2, 2), "raider"),
    )
    attack = swing(engine, Strike("g", "r"))
    assert "AMOD-1" not in mod_rules(attack)
    assert (False, "AMOD-7") not in sources(attack)  # nobody hostile within 5 ft of the shooter


@pytest.mark.rule("POS-1", "AMOD-1")
def test_pos_1__a_large_target_is_flanked_across_its_space() -> None:
    engine = fight(
        fighter("w", "party", (0, 2)),
        fighter("a", "party", (3, 3)),
        fighter("r", "raiders", (1, 2), "raider", size=Size.LARGE),
    )
    assert mod_rules(swing(engine, Strike("w", "r")))["AMOD-1"] == 2


# ----- theater of mind: the GM declares (POS-2) -----


def theater(*, shooter: bool = False) -> Engine:
    weapons = ("pistol",) if shooter else ()
    return fight(fighter("w", "party", None, weapons=weapons), fighter("a", "party", None),
                 fighter("r", "raiders", None, "raider"), board=None)


@pytest.mark.rule("POS-2", "AMOD-1")
@pytest.mark.parametrize(("declared", "bonus"), [(None, 0), (True, 2), (False, 0)])
def test_pos_2__theater_of_mind_flanking_is_what_the_gm_declares(declared: bool | None, bonus: int) -> None:
    attack = swing(theater(), Strike("w", "r", declared=Declared(flanking=declared)))
    assert mod_rules(attack).get("AMOD-1", 0) == bonus


@pytest.mark.rule("POS-2", "POS-4", "AMOD-2", "AMOD-7")
def test_pos_2__theater_of_mind_ranged_attack_takes_declared_high_ground_and_no_unasked_disadvantage() -> None:
    plain = swing(theater(shooter=True), Strike("w", "r"))
    assert sources(plain) == set()  # no map: nobody is "within 5 ft" unless the GM says so
    declared = Declared(high_ground=True, hostile_within_5ft=True)
    attack = swing(theater(shooter=True), Strike("w", "r", declared=declared))
    assert mod_rules(attack)["AMOD-2"] == 2
    assert (False, "AMOD-7") in sources(attack)


@pytest.mark.rule("POS-2", "COV-1", "COV-2", "COV-3", "POS-6")
@pytest.mark.parametrize(("cover", "dv_bonus"), [(Cover.PARTIAL, 2), (Cover.HEAVY, 5), (Cover.NONE, 0)])
def test_pos_2__theater_of_mind_cover_is_declared(cover: Cover, dv_bonus: int) -> None:
    attack = swing(theater(shooter=True), Strike("w", "r", declared=Declared(cover=cover)))
    assert sum(v for k, v in dv_rules(attack).items() if k.startswith(("COV", "STC"))) == dv_bonus


@pytest.mark.rule("COV-3", "POS-2", "STC-8")
def test_cov_3__declared_total_cover_cannot_be_targeted() -> None:
    assert refused_rule(theater(shooter=True), Strike("w", "r", declared=Declared(cover=Cover.TOTAL))) == "COV-3"


@pytest.mark.rule("POS-2", "POS-1")
def test_pos_2__a_declaration_overrides_the_map() -> None:
    attack = swing(flank_scene((3, 2)), Strike("w", "r", declared=Declared(flanking=False)))
    assert "AMOD-1" not in mod_rules(attack)


# ----- high ground (POS-4, AMOD-2, G-37) -----


@pytest.mark.rule("POS-4", "AMOD-2", "G-37")
@pytest.mark.parametrize(
    ("height", "weapons", "bonus"),
    [(5, ("pistol",), 2), (10, ("pistol",), 2), (4, ("pistol",), 0), (5, (), 0)],
    ids=["5-ft-up-ranged", "10-ft-up-ranged", "4-ft-is-not-high-ground", "melee-gets-nothing"],
)
def test_pos_4__high_ground_is_plus_2_to_ranged_attacks_only(height: int, weapons: tuple[str, ...],
                                                             bonus: int) -> None:
    board = Board(10, 10, elevation={(1, 2): height})
    engine = fight(fighter("w", "party", (1, 2), weapons=weapons), fighter("r", "raiders", (2, 2), "raider"),
                   board=board)
    assert mod_rules(swing(engine, Strike("w", "r"))).get("AMOD-2", 0) == bonus


# ----- prone (POS-5, AMOD-4, X-02) -----


@pytest.mark.rule("POS-5", "AMOD-4", "X-02")
def test_pos_5__prone_target_melee_has_advantage_ranged_disadvantage() -> None:
    melee = fight(fighter("w", "party", (1, 2)),
                  fighter("r", "raiders", (2, 2), "raider", conditions=[Condition.PRONE]))
    assert (True, "X-02") in sources(swing(melee, Strike("w", "r")))
    ranged = fight(fighter("w", "party", (0, 2), weapons=("pistol",)),
                   fighter("r", "raiders", (4, 2), "raider", conditions=[Condition.PRONE]))
    attack = swing(ranged, Strike("w", "r"))
    assert attack.roll.advantage == "disadvantage"
    assert {a for a, _ in sources(attack)} == {False}


@pytest.mark.rule("X-02", "AMOD-4")
@pytest.mark.parametrize(("option", "advantage"), [("all-melee", True), ("within-5-ft", False)])
def test_x_02__a_reach_attack_from_10_ft_on_a_prone_target_depends_on_the_option(option: str,
                                                                                  advantage: bool) -> None:
    engine = fight(fighter("w", "party", (0, 2), weapons=("halberd",)),
                   fighter("r", "raiders", (2, 2), "raider", conditions=[Condition.PRONE]),
                   options={"defense": {"prone_melee": option}})
    assert ((True, "X-02") in sources(swing(engine, Strike("w", "r")))) is advantage


@pytest.mark.rule("POS-5", "C-PRO")
def test_pos_5__a_prone_attacker_has_disadvantage() -> None:
    engine = fight(fighter("w", "party", (1, 2), conditions=[Condition.PRONE]),
                   fighter("r", "raiders", (2, 2), "raider"))
    assert swing(engine, Strike("w", "r")).roll.advantage == "disadvantage"


# ----- cover from the map (COV-1..3, X-01, STC) -----

CRATE = CoverObject(CoverLevel.PARTIAL, name="crate")
CONCRETE = CoverObject(CoverLevel.HEAVY, name="concrete barrier")


def shooting_gallery(obstacle: CoverObject | None, weapons: tuple[str, ...] = ("pistol",), *,
                     wall: bool = False, options: dict | None = None, shooter_at: Square = (0, 2),
                     target_at: Square = (5, 2)) -> Engine:
    board = Board(10, 10, cover={(3, 2): obstacle} if obstacle else {}, walls=frozenset({(3, 2)} if wall else ()))
    return fight(fighter("w", "party", shooter_at, weapons=weapons), fighter("r", "raiders", target_at, "raider"),
                 board=board, options=options)


def cover_dv(attack: ev.AttackRolled) -> dict[str, int]:
    return {k: v for k, v in dv_rules(attack).items() if k.startswith(("COV", "STC"))}


@pytest.mark.rule("COV-1", "COV-2", "AMOD-3", "POS-6", "X-01", "STC-3", "STC-7")
@pytest.mark.parametrize(("obstacle", "expected"), [(CRATE, 2), (CONCRETE, 5), (None, 0)])
def test_cov__cover_between_shooter_and_target_adds_to_dv(obstacle: CoverObject | None, expected: int) -> None:
    attack = swing(shooting_gallery(obstacle), Strike("w", "r"))
    assert sum(cover_dv(attack).values()) == expected


@pytest.mark.rule("X-01", "AMOD-3")
@pytest.mark.parametrize(("option", "expected"), [("ranged-only", 0), ("all-attacks", 2)])
def test_x_01__cover_counts_against_melee_only_with_the_switch(option: str, expected: int) -> None:
    # a halberd (reach 10 ft) over the crate at (3, 2)
    engine = shooting_gallery(CRATE, ("halberd",), options={"defense": {"cover_applies": option}},
                              shooter_at=(2, 2), target_at=(4, 2))
    attack = swing(engine, Strike("w", "r"))
    assert sum(cover_dv(attack).values()) == expected


@pytest.mark.rule("STC-2", "STC-4", "STC-5", "STC-6", "STC-1")
@pytest.mark.parametrize(
    ("obstacle", "weapon_id", "expected"),
    [
        (CRATE, "light-machine-gun", 0),  # heavy weapon ignores light cover (STC-2)
        (CONCRETE, "light-machine-gun", 2),  # heavy weapon reduces heavy cover to light (STC-4)
        (CONCRETE, "grenade-launcher", 0),  # explosives ignore cover (STC-6)
        (CONCRETE, "pistol", 5),
    ],
)
def test_stc__heavy_and_explosive_weapons_against_cover(obstacle: CoverObject, weapon_id: str, expected: int) -> None:
    attack = swing(shooting_gallery(obstacle, (weapon_id,)), Strike("w", "r"))
    assert sum(cover_dv(attack).values()) == expected


@pytest.mark.rule("STC-5")
def test_stc_5__armor_piercing_reduces_heavy_cover_to_light() -> None:
    engine = shooting_gallery(CONCRETE)
    shooter = engine.state.get("w")
    shooter.weapons = (weapon("pistol", properties=frozenset({WeaponProperty.ARMOR_PIERCING})),)
    attack = swing(engine, Strike("w", "r"))
    assert cover_dv(attack) == {"STC-5": 2}


@pytest.mark.rule("COV-3", "STC-8", "POS-6")
@pytest.mark.parametrize("weapon_id", ["pistol", "grenade-launcher", "light-machine-gun"])
def test_cov_3__a_target_behind_a_wall_cannot_be_targeted_even_by_explosives(weapon_id: str) -> None:
    engine = shooting_gallery(None, (weapon_id,), wall=True)
    assert refused_rule(engine, Strike("w", "r")) == "COV-3"


@pytest.mark.rule("COV-3")
def test_cov_3__total_cover_object_is_refused_too() -> None:
    engine = shooting_gallery(CoverObject(CoverLevel.TOTAL, name="bulkhead"))
    assert refused_rule(engine, Strike("w", "r")) == "COV-3"


# ----- ranged attack in melee (AMOD-7, E-25) -----


@pytest.mark.rule("AMOD-7", "E-25")
@pytest.mark.parametrize(("edition", "disadvantage"), [(None, True), (ED1, False)])
def test_amod_7__shooting_with_an_enemy_within_5_ft(edition: str | None, disadvantage: bool) -> None:
    engine = fight(fighter("w", "party", (1, 2), weapons=("pistol",)), fighter("r", "raiders", (2, 2), "raider"),
                   fighter("r2", "raiders", (6, 2), "raider"), edition=edition)
    assert ((False, "AMOD-7") in sources(swing(engine, Strike("w", "r2")))) is disadvantage


@pytest.mark.rule("AMOD-7", "C-INC")
def test_amod_7__an_incapacitated_or_downed_enemy_is_no_threat() -> None:
    for kwargs in ({"conditions": [Condition.STUNNED]}, {"down": True}):
        engine = fight(fighter("w", "party", (1, 2), weapons=("pistol",)),
                       fighter("r", "raiders", (2, 2), "raider", **kwargs),  # type: ignore[arg-type]
                       fighter("r2", "raiders", (6, 2), "raider"))
        assert (False, "AMOD-7") not in sources(swing(engine, Strike("w", "r2")))
