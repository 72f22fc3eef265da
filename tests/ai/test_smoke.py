"""The tactical AI plays every shipped encounter to the end under both presets, without a refused intent."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ashfall.ai import TacticalPolicy, ai_controller, default_policy
from ashfall.encounters import build, load_encounter
from ashfall.ruleset import preset
from ashfall.sim.fight import run_fight
from ashfall.sim.policy import Policy

ENCOUNTERS = sorted((Path(__file__).resolve().parents[2] / "encounters").glob("*.yaml"))
SEEDS = (0, 1, 2)


def test_the_ai_is_the_default_policy_and_a_policy() -> None:
    assert isinstance(default_policy(), TacticalPolicy)
    assert isinstance(default_policy(), Policy)


@pytest.mark.parametrize("ruleset", ["ashfall-2", "ashfall-1"])
@pytest.mark.parametrize("path", ENCOUNTERS, ids=lambda p: p.stem)
def test_every_shipped_encounter_is_played_to_its_end(path: Path, ruleset: str) -> None:
    spec = dataclasses.replace(load_encounter(path), ruleset=preset(ruleset))
    limit = spec.round_limit or 20
    policy = TacticalPolicy()
    for seed in SEEDS:
        result = run_fight(lambda s: build(spec, s, controllers={"ai": ai_controller, "human": ai_controller})[0],
                           seed, policy, max_rounds=limit, ambushers=spec.ambushers)
        assert result.refusals == 0, (path.stem, ruleset, seed)
        assert result.rounds <= limit + 1
        assert result.winner is not None or result.timed_out
        assert result.attacks > 0
