"""A fight is lowered once per run: the engine choice's lowering is the one the kernel plays.

Lowering a fight on the move asks the rules core about every attack, face and situation (seconds); ``check``
keeps its lowering for the setup object, ``KernelSetup`` plays those very arrays, and a worker process given its
parent's lowering with the setup plays it without lowering again, with the same results.
"""

from __future__ import annotations

import pickle

from ashfall.sim.engines import choose_engine
from ashfall.sim.kernel_lower import lowering, remember
from ashfall.sim.kernel_run import KernelSetup
from ashfall.sim.setups import EncounterSetup
from tests.kernel.kit import BRAWL, DUEL


def test_engine_choice_then_kernel__plays_the_tables_the_choice_lowered() -> None:
    setup = EncounterSetup(BRAWL)
    assert choose_engine(setup, "auto").engine == "kernel"
    found = lowering(setup)
    assert found.lowered is not None
    played = KernelSetup(setup).lowered
    assert played.outcome is found.lowered.outcome  # the same arrays: not lowered a second time
    assert lowering(setup) is found


def test_round_limit_override__changes_only_the_round_limit_of_the_shared_lowering() -> None:
    setup = EncounterSetup(DUEL)
    short = KernelSetup(setup, max_rounds=3).lowered
    long = KernelSetup(setup, max_rounds=40).lowered
    assert (short.round_limit, long.round_limit) == (3, 40)
    assert short.outcome is long.outcome


def test_worker_given_its_parents_lowering__plays_the_same_trials() -> None:
    setup = EncounterSetup(BRAWL)
    parent = KernelSetup(setup).results(7, 0, 30)
    copy = pickle.loads(pickle.dumps(setup))  # as a spawned worker receives it
    sent = pickle.loads(pickle.dumps(lowering(setup)))
    remember(copy, sent)
    worker = KernelSetup(copy)
    assert sent.lowered is not None and worker.lowered.outcome is sent.lowered.outcome
    assert worker.results(7, 0, 30) == parent


def test_unsupported_fight__the_lowering_keeps_the_problem_and_refuses_to_play() -> None:
    from ashfall.encounters import encounters_root

    setup = EncounterSetup(encounters_root() / "skirmish.yaml")
    found = lowering(setup)
    choice = choose_engine(setup, "auto")
    assert found.lowered is None and found.problem is not None
    assert choice.notice is not None and found.problem in choice.notice
