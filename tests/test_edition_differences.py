"""Every edition difference E-01 … E-45 has a ruleset option, or a documented reason it has none.

The README promises that the presets differ by exactly the E-nn of editions-and-gaps.md: each listed
option differs between ``ashfall-1`` and ``ashfall-2``, no unlisted option does, and an E-nn without an
option says why and plays its one reading under both presets. Behaviour tests for the switches added
with this table (E-11, E-18) follow, each under both presets; the others' are in tests/test_editions.py and
beside their rules (E-03's reload in tests/engine/test_activities.py, under both presets).
"""

from __future__ import annotations

from typing import Any

import pytest

from ashfall.engine import events as ev
from ashfall.engine.actions import Refused
from ashfall.families.attacks.moves_strike import Strike
from ashfall.families.suppression.moves import SuppressiveFire
from ashfall.grid.board import Board
from ashfall.ruleset import Ruleset, option_rows, preset
from ashfall.ruleset.editions import EDITION_DIFFERENCES
from tests.engine.map_kit import fighter, of_type, script, started
from tests.engine.reaction_kit import Takes

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
ALL_E = [f"E-{n:02d}" for n in range(1, 46)]


def _value(rs: Ruleset, path: str) -> Any:
    section, name = path.split(".")
    return getattr(getattr(rs, section), name)


def test_editions__the_table_lists_e_01_to_e_45_in_order() -> None:
    assert list(EDITION_DIFFERENCES) == ALL_E


@pytest.mark.parametrize("eid", ALL_E)
def test_editions__each_difference_is_an_option_that_differs_or_a_reason_played_alike(eid: str) -> None:
    d = EDITION_DIFFERENCES[eid]
    if d.options:
        for path in d.options:
            assert _value(ED1, path) != _value(ED2, path), f"{eid}: {path} is the same under both presets"
    else:
        assert d.reason, f"{eid} has neither an option nor a reason"
        for path in d.shared:
            assert _value(ED1, path) == _value(ED2, path), f"{eid}: {path} differs though no switch is claimed"


def test_editions__the_presets_differ_by_exactly_the_listed_options() -> None:
    differing = {str(r["option"]) for r in option_rows() if r["ashfall-1"] != r["ashfall-2"]}
    listed = {path for d in EDITION_DIFFERENCES.values() for path in d.options}
    assert differing == listed


# ----- E-18: shooting in melee provokes an AoO only in edition 2 -----


@pytest.mark.rule("E-18", "RX-21")
@pytest.mark.parametrize(("ruleset", "provokes"), [(ED2, True), (ED1, False)], ids=["ashfall-2", "ashfall-1"])
def test_e_18__a_ranged_attack_within_an_enemys_reach_provokes_only_in_edition_2(ruleset: Ruleset,
                                                                                  provokes: bool) -> None:
    """000:108 "OR makes a ranged attack while within your melee reach"; 001:96 "Strike enemy leaving your reach"."""
    o = fighter("o", "foes", (6, 2), "operative", ruleset=ruleset)
    w = fighter("w", "party", (5, 2), ruleset=ruleset)
    engine = started([o, w], Board(14, 7), ruleset=ruleset, controllers={"w": Takes("attack-of-opportunity")})
    # edition 2: the AoO's d20 3 misses, then the shot at disadvantage (AMOD-7, E-25) 18 and 2 keeps 2;
    # edition 1: no AoO and no disadvantage: the shot's one d20 2 misses
    with script(engine, [(20, 3), (20, 18), (20, 2)] if provokes else [(20, 2)]):
        events = engine.submit(Strike("o", "w", "pistol"))
    labels = [(a.actor, a.label) for a in of_type(events, ev.AttackRolled)]
    assert (("w", "Attack of Opportunity") in labels) is provokes
    assert labels[-1][0] == "o"


# ----- E-11: Suppressive Fire exists only in edition 2 -----


@pytest.mark.rule("E-11", "MAA-4")
@pytest.mark.parametrize(("ruleset", "exists"), [(ED2, True), (ED1, False)], ids=["ashfall-2", "ashfall-1"])
def test_e_11__suppressive_fire_exists_only_in_edition_2(ruleset: Ruleset, exists: bool) -> None:
    """000:57 lists Suppressive Fire (2 actions, 5 ammo); 001 has no such action."""
    g = fighter("g", "party", (1, 3), "gunslinger", ruleset=ruleset)
    engine = started([g, fighter("o", "foes", (7, 3), "operative", ruleset=ruleset)], Board(12, 7), ruleset=ruleset)
    with script(engine, []):
        if exists:
            engine.submit(SuppressiveFire("g", (4, 3)))
            assert engine.state.get("g").turn.actions_left == 1
        else:
            with pytest.raises(Refused) as err:
                engine.submit(SuppressiveFire("g", (4, 3)))
            assert err.value.rule == "E-11"
