"""Running fights: one fight's result, trial seeds, replays and determinism across worker counts."""

import gc
import itertools
from pathlib import Path

import pytest

from ashfall.core.rng import SeededRng
from ashfall.encounters import encounters_root
from ashfall.engine import events as ev
from ashfall.sim.fight import FightResult, run_fight, trial_seed
from ashfall.sim.policy import ScriptedTactics
from ashfall.sim.runner import (
    MAX_CHUNK,
    PROGRESS_STEPS,
    SWEEP_GC_THRESHOLD,
    chunks,
    play,
    play_trials,
    replay_trial,
    simulate,
)
from ashfall.sim.setups import EncounterSetup, Fight
from tests.sim.duel_kit import duel

DUEL = encounters_root() / "duel.yaml"


def _consistent(result: FightResult) -> None:
    """Bookkeeping every fight must satisfy."""
    total_dealt = sum(c.damage_dealt for c in result.combatants)
    total_taken = sum(c.damage_taken for c in result.combatants)
    assert total_dealt == total_taken
    for c in result.combatants:
        assert 0 <= c.hp <= c.max_hp
        assert c.dropped or c.hp > 0
        assert not c.died or c.dropped


def test_run_fight__shipped_duel_ends_with_a_winner_and_consistent_books() -> None:
    setup = EncounterSetup(DUEL)
    fight = setup.build_fight(7)
    result = run_fight(lambda _: fight.engine, 7, fight.policies, ambushers=fight.ambushers,
                       max_rounds=fight.round_limit)
    assert result.log is None  # no log unless asked for
    assert result.winner in ("party", "raiders") or result.timed_out
    assert result.refusals == 0
    assert result.attacks > 0
    _consistent(result)
    loser = [c for c in result.combatants if c.side != result.winner]
    if result.winner is not None:
        assert all(c.dropped or c.morale for c in loser)


@pytest.mark.rule("MAP-1", "G-38")
def test_run_fight__inline_duel_with_one_policy_for_everyone_and_the_log() -> None:
    setup = duel()
    result = run_fight(lambda s: setup.build_fight(s).engine, 3, ScriptedTactics(move=False), record_log=True)
    assert result.log is not None
    assert isinstance(result.log[-1], ev.CombatEnded)
    assert result.winner in ("a", "b")
    assert sum(1 for e in result.log if isinstance(e, ev.AttackRolled)) == result.attacks
    loser = next(c for c in result.combatants if c.side != result.winner)
    assert loser.dropped and loser.died and loser.hp == 0  # NPCs die at 0 HP (G-38)
    _consistent(result)


def test_run_fight__same_seed_same_fight_different_seed_different_fight() -> None:
    setup = duel()
    a = play(setup, 11, record_log=True)
    b = play(setup, 11, record_log=True)
    assert a.log is not None and b.log is not None
    assert ev.dumps(list(a.log)) == ev.dumps(list(b.log))
    others = {ev.dumps(list(play(setup, s, record_log=True).log or ())) for s in range(12, 16)}
    assert len(others) > 1


def test_round_limit__an_undecided_fight_stops_without_a_winner() -> None:
    result = play(duel(), 5, max_rounds=1)
    if not result.timed_out:  # one round can decide it; find a seed where it does not
        result = next(r for r in (play(duel(), s, max_rounds=1) for s in range(100)) if r.timed_out)
    assert result.winner is None
    assert result.rounds == 1


def test_trial_seed__is_the_spawned_child_seed() -> None:
    assert trial_seed(42, 7) == SeededRng(42).spawn(7).seed
    assert len({trial_seed(42, i) for i in range(1000)}) == 1000


@pytest.mark.parametrize(("trials", "workers"), [(1, 1), (10, 1), (1000, 2), (7, 3)])
def test_chunks__cover_every_trial_once_in_order(trials: int, workers: int) -> None:
    ranges = chunks(trials, workers)
    assert [i for a, b in ranges for i in range(a, b)] == list(range(trials))


def test_replay_trial__reproduces_the_sweeps_trial() -> None:
    report = simulate(duel(), 12, seed=5)
    for i in (0, 7):
        result, events = replay_trial(duel(), 5, i)
        assert result.seed == trial_seed(5, i)
        assert events and isinstance(events[-1], ev.CombatEnded)
    wins = sum(1 for i in range(12) if replay_trial(duel(), 5, i)[0].winner == "a")
    assert wins == report.side("a").wins.count


def test_simulate__progress_is_reported_up_to_the_total() -> None:
    seen: list[tuple[int, int]] = []
    simulate(duel(), 30, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (30, 30)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_simulate__refuses_zero_trials() -> None:
    with pytest.raises(ValueError):
        simulate(duel(), 0, seed=1)


@pytest.mark.slow
def test_simulate__workers_1_and_2_give_identical_reports(tmp_path: Path) -> None:
    one = simulate(DUEL, 24, seed=99, workers=1)
    two = simulate(DUEL, 24, seed=99, workers=2)
    assert one == two
    assert one.to_jsonable() == two.to_jsonable()
    inline_one = simulate(duel(), 16, seed=3, workers=1)
    inline_two = simulate(duel(), 16, seed=3, workers=2)
    assert inline_one == inline_two


def test_simulate__ruleset_override_is_reported() -> None:
    report = simulate(DUEL, 3, seed=1, ruleset="ashfall-1")
    assert report.ruleset == "ashfall-1"
    assert report.trials == 3


def test_play_trials__collects_garbage_less_often_and_puts_the_settings_back() -> None:
    seen: list[tuple[int, int, int]] = []

    class Watching(EncounterSetup):
        def build_fight(self, seed: int) -> Fight:
            seen.append(gc.get_threshold())
            return super().build_fight(seed)

    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    play_trials(Watching(DUEL), 3, 0, 2)
    assert seen and all(t[0] == SWEEP_GC_THRESHOLD for t in seen)
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen == 0


def test_simulate__progress_knows_the_total_before_the_first_fight_and_moves_every_percent() -> None:
    seen: list[tuple[int, int]] = []
    simulate(duel(), 300, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 300)  # the bar has its total at once (no "0/?")
    assert {total for _, total in seen} == {300}
    steps = [b - a for (a, _), (b, _) in itertools.pairwise(seen)]
    assert max(steps) <= 3  # 1% of 300 trials
    assert seen[-1] == (300, 300)


@pytest.mark.parametrize(("trials", "workers"), [(1000, 1), (1000, 2), (100_000, 2)])
def test_chunks__a_run_has_at_least_a_hundred_chunks_of_at_most_max_chunk(trials: int, workers: int) -> None:
    ranges = chunks(trials, workers)
    assert len(ranges) >= PROGRESS_STEPS
    assert max(b - a for a, b in ranges) <= MAX_CHUNK
