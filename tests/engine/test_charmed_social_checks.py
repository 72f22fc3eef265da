"""Charmed: the charmer has advantage on social checks against the charmed creature (C-CHA, 000:849).

Social checks rolled against a creature are Feint's Deception (FNT-2) and a targeted skill check (ACT-11:
persuading, intimidating or deceiving someone); both ask ``durations.checks_against_sources``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ashfall.core.types import Condition, Skill
from ashfall.engine.engine import Engine
from ashfall.families.maneuvers.moves_tactics import Feint
from ashfall.families.utility.moves import UseSkill
from ashfall.rules.condition_durations import AppliedCondition
from ashfall.ruleset import Ruleset
from tests.engine.maneuver_helpers import ED1, ED2, checks, fighter, script, started


def _charmed_by(charmer: str | None, ruleset: Ruleset = ED2) -> Engine:
    """An Operative beside a Raider Boss that is charmed by ``charmer`` (or not charmed at all)."""
    boss = fighter("b", "raiders", (2, 1), "raider-boss", ruleset=ruleset)
    if charmer is not None:
        boss = replace(boss, conditions=(AppliedCondition(Condition.CHARMED, "C-CHA", source=charmer),))
    return started([fighter("o", "party", (1, 1), "operative", skills={Skill.DECEPTION: 7}, ruleset=ruleset), boss,
                    fighter("x", "party", (1, 2), "operative", ruleset=ruleset)], ruleset=ruleset)


def _advantage_of(events: list) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.roll.advantage, tuple(s.rule for s in c.roll.sources)) for c in checks(events) if c.roll is not None]


@pytest.mark.rule("C-CHA", "FNT-2")
def test_c_cha__feint_deception_against_the_creature_you_charmed_has_advantage() -> None:
    """000:849 "Charmer has advantage on social checks against you": Feint's Deception is one."""
    eng = _charmed_by("o")
    with script(eng, [3, 12, 10]):  # Deception with advantage keeps 12; Insight 10
        events = eng.submit(Feint("o", "b"))
    deception = _advantage_of(events)[0]
    assert deception == ("advantage", ("C-CHA",))


@pytest.mark.rule("C-CHA", "FNT-2")
@pytest.mark.parametrize("charmer", [None, "x"], ids=["not-charmed", "charmed-by-someone-else"])
def test_c_cha__no_advantage_without_being_the_charmer(charmer: str | None) -> None:
    """000:849 gives the advantage to *the charmer* only."""
    eng = _charmed_by(charmer)
    with script(eng, [12, 10]):  # one d20 each: no advantage
        events = eng.submit(Feint("o", "b"))
    assert _advantage_of(events)[0] == ("normal", ())


@pytest.mark.rule("C-CHA", "ACT-11")
@pytest.mark.parametrize("ruleset", [ED2, ED1], ids=["ashfall-2", "ashfall-1"])
@pytest.mark.parametrize(("skill", "expected"), [
    (Skill.INTIMIDATION, ("advantage", ("C-CHA",))),
    (Skill.PERSUASION, ("advantage", ("C-CHA",))),
    (Skill.ATHLETICS, ("normal", ())),  # not a social check
])
def test_c_cha__a_targeted_skill_check_against_the_charmed_creature(skill: Skill, expected: tuple[str, tuple[str, ...]],
                                                                     ruleset: Ruleset) -> None:
    """000:849 (and 001:478): intimidating or persuading the creature you charmed is a social check: advantage."""
    eng = _charmed_by("o", ruleset)
    faces = [3, 12] if expected[0] == "advantage" else [12]
    with script(eng, faces):
        events = eng.submit(UseSkill("o", skill, 15, "make it talk", target="b"))
    assert _advantage_of(events) == [expected]
