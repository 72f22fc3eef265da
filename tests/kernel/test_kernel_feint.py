"""Edition 2's Feint as the tactical AI's opener: the groundwork for the kernel, and what the reference does.

The kernel does not play a Feint yet (``check`` names it: "the tactical AI's feint as an opener"). What is done: the
Feint contest's lowering (``kernel_maneuvers.lower_feint_contest``), every pair of d20 faces' outcome read off the
reference's own contest and held here to the reference's Feint resolution (FNT-2..5, CON-5, G-45), and a set in
which the reference's AI feints often, wins, loses and loses by 10 (tests/kernel/pending/ai-feints-a-dull-brute.yaml),
waiting for the kernel.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from ashfall.core.rng import ScriptedRng, ScriptError
from ashfall.engine import Feint
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.families.maneuvers.moves_tactics import _resolve_feint
from ashfall.ruleset.sections import ContestTie
from ashfall.sim import kernel_maneuvers as km
from ashfall.sim.kernel_lower import check
from ashfall.sim.setups import Fight
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import seeds, setup_of

PENDING = Path(__file__).resolve().parent / "pending"
DULL_BRUTE = PENDING / "ai-feints-a-dull-brute.yaml"
"""A lone AI duelist (Deception +3) against a scripted brute (Insight -2), under edition 2."""
ED2 = "ashfall-2"
FEINTER, TARGET = "kernel-ai-duelist", "kernel-scripted-brute"


def _reference_outcome(state: object, engine: object, mine: int, theirs: int) -> int | None:
    """What the reference's Feint does with these faces (None: a tie it rolls again, G-45)."""
    trial = copy.deepcopy(state)
    log: list[ev.Event] = []
    rng = ScriptedRng([mine, theirs])
    context = Context(trial, rng, log, engine.controllers, ())  # type: ignore[attr-defined]
    try:
        _resolve_feint(context, Feint(FEINTER, TARGET))
    except ScriptError:  # the scripted dice ran out: the contest was rolled again
        return None
    added = [e for e in log if isinstance(e, ev.EffectAdded)]
    if not added:
        return km.FEINT_NOTHING
    return km.FEINT_WON if str(added[0].rule) == "FNT-3" else km.FEINT_BACKFIRED


def _fight(tie: ContestTie) -> Fight:
    """The set's fight with the tie rule ``tie`` (G-45)."""
    fight = setup_of(DULL_BRUTE, ED2).build_fight(0)
    state = fight.engine.state
    state.ruleset = state.ruleset.with_options(checks={"contest_tie": tie.value})
    return fight


def _mismatches(lowered: km.FeintContest, tie: ContestTie) -> tuple[list[tuple[int, int]], set[int | None]]:
    """The pairs of faces where ``lowered`` says other than the reference's Feint, and the outcomes reached."""
    fight = _fight(tie)
    ids = [c.id for c in fight.engine.state.combatants.values()]
    i, j = ids.index(FEINTER), ids.index(TARGET)
    assert tuple(lowered.draws[i, j]) == (1, 1)
    wrong: list[tuple[int, int]] = []
    seen: set[int | None] = set()
    for mine in range(1, 21):
        for theirs in range(1, 21):
            m = lowered.totals[i, j, 0, mine - 1, 0] - lowered.totals[i, j, 1, theirs - 1, 0] + lowered.offset
            expected = _reference_outcome(fight.engine.state, fight.engine, mine, theirs)
            settled = lowered.margins[km.MARGIN_SETTLED, m] == 1
            right = not settled if expected is None else settled and lowered.margins[1, m] == expected
            if not right:
                wrong.append((mine, theirs))
            seen.add(expected)
    return wrong, seen


def _lowered(tie: ContestTie = ContestTie.STATUS_QUO) -> km.FeintContest:
    fight = _fight(tie)
    return km.lower_feint_contest(fight, list(fight.engine.state.combatants.values()))


@pytest.mark.rule("FNT-2", "FNT-3", "FNT-4", "FNT-5", "CON-5", "G-45")
@pytest.mark.parametrize("tie", list(ContestTie))
def test_feint_contest__every_pair_of_faces_does_what_the_reference_feint_does(tie: ContestTie) -> None:
    wrong, seen = _mismatches(_lowered(tie), tie)
    assert wrong == []
    ties = {None} if tie is ContestTie.REROLL else set()  # a tie rolled again (G-45) or the feinter's loss
    assert seen == {km.FEINT_NOTHING, km.FEINT_WON, km.FEINT_BACKFIRED, *ties}  # every outcome reached


@pytest.mark.rule("FNT-3", "FNT-5", "CON-5")
@pytest.mark.parametrize(("was", "now"), [(km.FEINT_WON, km.FEINT_NOTHING), (km.FEINT_BACKFIRED, km.FEINT_NOTHING)],
                         ids=["a-feint-that-never-leaves-the-target-off-guard", "a-feint-that-never-backfires"])
def test_feint_contest__a_wrong_lowering_is_caught_face_by_face(was: int, now: int) -> None:
    lowered = _lowered()
    outcomes = lowered.margins[1].copy()
    outcomes[outcomes == was] = now
    margins = lowered.margins.copy()
    margins[1] = outcomes
    wrong, _ = _mismatches(km.FeintContest(lowered.draws, lowered.totals, margins, lowered.offset),
                           ContestTie.STATUS_QUO)
    assert wrong


@pytest.mark.rule("E-37", "FNT-1", "FNT-3", "FNT-4", "FNT-5", "CON-5")
def test_feint__the_kernel_names_the_ai_feint_it_does_not_play_and_the_reference_feints_in_the_set() -> None:
    """The set exercises Feint on the reference: wins, plain losses and losses by 10; the kernel names it."""
    setup = setup_of(DULL_BRUTE, ED2)
    assert check(setup) == f"the tactical AI's feint as an opener (combatant {FEINTER})"
    feints = won = backfired = 0
    for seed in seeds(30):
        ref = reference_fight(setup, seed)
        feints += sum(1 for s in ref.signature.steps if s.action == "actions-spent:feint")
        rules = [str(e.rule) for e in ref.log if isinstance(e, ev.EffectAdded)]
        won, backfired = won + rules.count("FNT-3"), backfired + rules.count("FNT-5")
    assert feints >= 30 and won >= 15 and backfired >= 1 and feints - won - backfired >= 5
