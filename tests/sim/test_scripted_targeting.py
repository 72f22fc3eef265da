"""A scripted plan fixes what a creature does; whom it attacks stays the AI's choice unless the file names a rule.

The Raider Boss stands between a heavily armoured Warrior (first in the roster, as near) and an Operative.
The AI goes for the Operative; a ``tactics`` plan without ``target`` must do the same, and ``target``
rules (nearest, weakest, strongest, highest-threat) steer it on purpose.
"""

import pytest

from ashfall.encounters import encounter_from_text, load_encounter
from ashfall.encounters.schema import TargetRule
from ashfall.files.yaml_marks import InputError
from ashfall.sim.policy import ScriptedTactics
from ashfall.sim.runner import simulate
from ashfall.sim.setups import policy_for

BOSS = """
name: Boss
seed: 1
map:
  rows: |
    ########
    #W.....#
    #BO....#
    #......#
    ########
sides:
  - name: party
  - {name: brutes, morale: off}
combatants:
  - {creature: warrior, side: party, zone: W}
  - {creature: operative, side: party, zone: O}
  - {creature: raider-boss, side: brutes, zone: B%s}
victory:
  round_limit: 1
"""


def _taken(extra: str) -> dict[str, float]:
    report = simulate(encounter_from_text(BOSS % extra), 20, 1)
    return {c.name: c.taken.mean for c in report.combatants if c.side == "party"}


def test_tactics__a_plan_without_a_target_rule_attacks_whom_the_ai_would() -> None:
    ai = _taken("")
    scripted = _taken(", tactics: [power-strike, strike]")
    assert ai["Operative"] > ai["Warrior"]  # the AI goes for the softer target
    assert scripted["Operative"] > scripted["Warrior"]  # and so does the plan: the plan changed what, not whom


@pytest.mark.parametrize(("rule", "hit"), [("nearest", "Warrior"), ("weakest", "Operative"),
                                           ("highest-threat", "Warrior")])
def test_tactics__a_target_rule_in_the_file_steers_the_plan(rule: str, hit: str) -> None:
    taken = _taken(f", tactics: [power-strike, strike], target: {rule}")
    missed = next(n for n in taken if n != hit)
    assert taken[hit] > 0 and taken[missed] == 0


def test_tactics__the_target_rule_reaches_the_policy() -> None:
    spec = encounter_from_text(BOSS % ", tactics: [strike], target: strongest")
    tactics = next(e.tactics for e in spec.roster if e.id == "raider-boss")
    policy = policy_for(tactics)
    assert isinstance(policy, ScriptedTactics) and policy.target is TargetRule.STRONGEST and policy.chooser is None
    plain = policy_for(next(e.tactics for e in encounter_from_text(BOSS % ", tactics: [strike]").roster
                            if e.id == "raider-boss"))
    assert isinstance(plain, ScriptedTactics) and plain.target is None and plain.chooser is not None


def test_tactics__a_target_rule_without_a_plan_is_an_error_naming_the_field(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "boss.yaml"
    path.write_text(BOSS % ", target: weakest")
    with pytest.raises(InputError) as err:
        load_encounter(path)
    (problem,) = err.value.problems
    assert (problem.path, problem.line) == ("combatants[2].target", 17)
