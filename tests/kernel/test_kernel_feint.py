"""Edition 2's Feint as the tactical AI's opener on the kernel (E-37, FNT-1..7).

The Feint contest's lowering (``kernel_maneuvers.lower_feint_contest``): every pair of d20 faces' outcome read off
the reference's own contest and held here to the reference's Feint resolution (FNT-2..5, CON-5, G-45). The sets
in which the reference's AI feints often, wins, loses and loses by 10 (encounters/ai-feints-a-dull-brute.yaml),
feints beside Trip (ai-feints-and-trips-a-clumsy-brute.yaml) and among two enemies (...-between-two-brutes.yaml),
are played here at 100 seeds; their counts show that they exercise it, and kernels broken on purpose (a Feint
that never backfires, one that never wins, advantage never given, plans that forget the advantage won or feint
again after a win) diverge. What stays refused is named.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from ashfall.core.rng import ScriptedRng, ScriptError
from ashfall.engine import Feint
from ashfall.engine import events as ev
from ashfall.engine.context import Context
from ashfall.families.maneuvers.moves_tactics import _resolve_feint
from ashfall.kernel import ai as kai
from ashfall.kernel import maneuvers as kmv
from ashfall.ruleset.sections import ContestTie
from ashfall.sim import kernel_maneuvers as km
from ashfall.sim.kernel_lower import Lowered, check
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.runner import play
from ashfall.sim.setups import Fight
from ashfall.sim.signature import reference_fight
from tests.kernel.kit import OWN, Rewired, played_alike, seeds, setup_of, wrong_kernel_diverges
from tests.kernel.test_kernel_ai import checked_decisions

ED2 = "ashfall-2"
ENCOUNTERS = Path(__file__).resolve().parent / "encounters"
DULL_BRUTE = ENCOUNTERS / "ai-feints-a-dull-brute.yaml"
"""A lone AI duelist (Deception +3) against a scripted brute (Insight -2), under edition 2."""
CLUMSY_BRUTE = ENCOUNTERS / "ai-feints-and-trips-a-clumsy-brute.yaml"
"""A lone AI duelist who feints and trips a dull, clumsy scripted brute, under edition 2."""
TWO_BRUTES = ENCOUNTERS / "ai-feints-and-trips-between-two-brutes.yaml"
"""The AI duelist between two scripted brutes of two more sides (its own ruleset: edition 2 without Sweeping
Strike)."""
FEINT_SETS = [(DULL_BRUTE, ED2), (DULL_BRUTE, "ashfall-1"), (CLUMSY_BRUTE, ED2), (CLUMSY_BRUTE, "ashfall-1"),
              (TWO_BRUTES, OWN), (TWO_BRUTES, "ashfall-1")]
FEINT_IDS = [f"{path.stem}-{edition}" for path, edition in FEINT_SETS]
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


@pytest.mark.rule("E-37", "FNT-1", "FNT-2", "FNT-3", "FNT-4", "FNT-5", "FNT-7", "CON-5")
@pytest.mark.parametrize(("path", "edition"), FEINT_SETS, ids=FEINT_IDS)
def test_kernel_feint__plays_every_step_of_the_reference_ai_fight(path: Path, edition: str) -> None:
    played_alike(setup_of(path, edition), 100)


@pytest.mark.parametrize(("path", "edition"), FEINT_SETS, ids=FEINT_IDS)
def test_kernel_feint__simulator_rows_equal_the_reference_engine_rows(path: Path, edition: str) -> None:
    setup = setup_of(path, edition)
    kernel = KernelSetup(setup)
    for seed in seeds(20, sweep=5):
        assert kernel.result(seed) == play(setup, seed)


@pytest.mark.rule("E-37", "FNT-3", "FNT-7", "TRP-3")
@pytest.mark.parametrize(("path", "edition"), [(DULL_BRUTE, ED2), (CLUMSY_BRUTE, ED2), (TWO_BRUTES, OWN)],
                         ids=["dull-brute", "clumsy-brute", "two-brutes"])
def test_kernel_ai__weighs_feint_against_trip_and_strikes_like_the_reference(path: Path, edition: str) -> None:
    """Every decision of the AI in the sets, the compiled ``decide`` against the reference's: Feints included."""
    seen = checked_decisions(setup_of(path, edition), seeds(8, sweep=37))
    assert any(s[0] == "attack" and s[2] == "feint" for s in seen if isinstance(s, tuple))


def test_kernel_feint__lowered_codes_are_the_compiled_fights() -> None:
    assert (kmv.MV_FEINT_LABEL, kmv.MV_FEINT_COST, kmv.MV_FEINT_OFF, kmv.FEINT_FIRST, kmv.ADVANTAGED) == (
        km.MV_FEINT_LABEL, km.MV_FEINT_COST, km.MV_FEINT_OFF, km.FEINT_FIRST, km.ADVANTAGED)
    assert (kmv.FEINTED_UP, kmv.ADV_UP, kmv.ADV_PRONE, kmv.ADV_MOVED_UP) == (
        km.FEINTED_UP, km.ADV_UP, km.ADV_PRONE, km.ADV_MOVED_UP) == (
        kai.FEINTED_UP, kai.ADV_UP, kai.ADV_PRONE, kai.ADV_MOVED_UP)
    assert (kmv.FEINT_NOTHING, kmv.FEINT_WON, kmv.FEINT_BACKFIRED) == (km.FEINT_NOTHING, km.FEINT_WON,
                                                                       km.FEINT_BACKFIRED)
    assert (kai.FX_ADV, kai.FX_FEINTED) == (kmv.FX_ADV, kmv.FX_FEINTED)


def _feint_counts(path: Path, n: int, edition: str = ED2) -> Counter[str]:
    """What the reference's Feints did in ``n`` fights of a set: feints, wins (FNT-3), backfires (FNT-5), trips,
    attacks at advantage, and the feints by edition 1."""
    found: Counter[str] = Counter()
    for seed in seeds(n):
        ref = reference_fight(setup_of(path, edition), seed)
        found["feint"] += sum(1 for s in ref.signature.steps if s.action == "actions-spent:feint")
        found["trip"] += sum(1 for s in ref.signature.steps if s.action == "actions-spent:trip")
        rules = [str(e.rule) for e in ref.log if isinstance(e, ev.EffectAdded)]
        found["won"] += rules.count("FNT-3")
        found["backfired"] += rules.count("FNT-5")
        found["advantage"] += sum(1 for e in ref.log if isinstance(e, ev.AttackRolled) and any(
            "next attack" in src.label for src in e.roll.sources))
        old = reference_fight(setup_of(path, "ashfall-1"), seed)
        found["edition 1"] += sum(1 for s in old.signature.steps if s.action == "actions-spent:feint")
    return found


@pytest.mark.rule("E-37", "FNT-1", "FNT-3", "FNT-4", "FNT-5", "CON-5")
def test_feint__the_kernel_plays_the_ai_feint_and_the_reference_feints_wins_and_backfires_in_the_set() -> None:
    """The set exercises Feint on the reference: wins, plain losses and losses by 10; the kernel plays it."""
    assert check(setup_of(DULL_BRUTE, ED2)) is None
    found = _feint_counts(DULL_BRUTE, 30)
    assert found["feint"] >= 30 and found["won"] >= 15 and found["backfired"] >= 1
    assert found["feint"] - found["won"] - found["backfired"] >= 5
    assert found["advantage"] >= 10 and found["edition 1"] == 0


@pytest.mark.rule("E-37", "FNT-3", "FNT-7", "TRP-3")
def test_feint__the_reference_feints_and_trips_the_clumsy_brute() -> None:
    """Beside Trip: both openers played, a Feint's advantage carried past a Trip into an attack on a prone brute."""
    assert check(setup_of(CLUMSY_BRUTE, ED2)) is None
    found = _feint_counts(CLUMSY_BRUTE, 30)
    assert found["feint"] >= 30 and found["trip"] >= 2 and found["won"] >= 15 and found["backfired"] >= 1
    assert found["edition 1"] == 0


def _swap_outcome(was: int, now: int) -> Callable[[Lowered], Lowered]:
    """A lowering whose Feint contest gives ``now`` where the reference gives ``was``."""
    def change(lo: Lowered) -> Lowered:
        feint = lo.maneuvers.feint
        margins = feint.margins.copy()
        margins[1][margins[1] == was] = now
        return dataclasses.replace(lo, maneuvers=dataclasses.replace(
            lo.maneuvers, feint=dataclasses.replace(feint, margins=margins)))
    return change


def _no_advantage(lo: Lowered) -> Lowered:
    """A lowering whose attacks with a Feint's advantage are rolled as without it (FNT-3, FNT-5 ignored)."""
    draws, outcome = lo.draws.copy(), lo.outcome.copy()
    draws[:, :, :, :, km.ADVANTAGED:] = draws[:, :, :, :, :km.ADVANTAGED]
    outcome[:, :, :, :, km.ADVANTAGED:] = outcome[:, :, :, :, :km.ADVANTAGED]
    return dataclasses.replace(lo, draws=draws, outcome=outcome)


def _plans_as(source: int, variant: int) -> Callable[[Lowered], Lowered]:
    """A lowering whose AI plans in opener-table ``variant`` as in ``source`` (after a won Feint: as if it had not
    feinted, FNT-3 and FNT-7 ignored, or as if it had won nothing, FNT-3 ignored)."""
    def change(lo: Lowered) -> Lowered:
        ai = lo.ai
        frac, drop, first = ai.open_frac.copy(), ai.open_drop.copy(), ai.open_first.copy()
        for table in (frac, drop, first):
            table[variant] = table[source]
        return dataclasses.replace(lo, ai=dataclasses.replace(ai, open_frac=frac, open_drop=drop, open_first=first))
    return change


@pytest.mark.rule("E-37", "FNT-3", "FNT-7")
def test_feint__the_reference_feints_between_two_brutes_with_advantage_on_its_target_only() -> None:
    """Among two enemies of two more sides: Feints, wins whose advantage goes to an attack on the feinted brute."""
    assert check(setup_of(TWO_BRUTES, OWN)) is None
    found = _feint_counts(TWO_BRUTES, 30, OWN)
    assert found["feint"] >= 30 and found["won"] >= 15 and found["advantage"] >= 15 and found["edition 1"] == 0


@pytest.mark.rule("FNT-3", "FNT-5", "FNT-7", "CON-5")
@pytest.mark.parametrize(("path", "wrong", "least"), [
    (DULL_BRUTE, _swap_outcome(km.FEINT_BACKFIRED, km.FEINT_NOTHING), 1),
    (DULL_BRUTE, _swap_outcome(km.FEINT_WON, km.FEINT_NOTHING), 5),
    (DULL_BRUTE, _no_advantage, 5),
    (DULL_BRUTE, _plans_as(km.FEINTED_UP, km.ADV_UP), 10),
    (DULL_BRUTE, _plans_as(km.OPEN_UP, km.ADV_UP), 10),
], ids=["a-feint-that-never-backfires", "a-feint-that-never-wins", "advantage-never-given",
        "plans-that-forget-the-advantage-won", "a-second-feint-after-a-win"])
def test_feint__a_kernel_broken_on_purpose_diverges(path: Path, wrong: Callable[[Lowered], Lowered],
                                                     least: int) -> None:
    setup = setup_of(path, ED2)
    wrong_kernel_diverges(setup, Rewired(setup, wrong), 60, least)


@pytest.mark.rule("E-37", "FNT-5")
def test_feint__the_kernel_names_a_feint_on_a_creature_the_ai_plays() -> None:
    """A Feint whose target weighs the advantage a backfire gives it (an AI-played target) stays refused."""
    setup = setup_of(ENCOUNTERS / "ai-gunners-fire-back-among-cover.yaml", ED2)
    assert check(setup) == "the tactical AI's feint on a creature whose choices weigh its answer (FNT-5, combatant " \
                           "kernel-ai-gunner)"
