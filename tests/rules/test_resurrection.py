"""Resurrection (edition 2), Revive (edition 1) and True Resurrection (RES-1, RES-2, RES-3, E-32, G-17)."""

import pytest

from ashfall.core.modifiers import Modifier
from ashfall.core.rng import ScriptedRng
from ashfall.core.types import Attribute
from ashfall.families.dying.rules_recovery import Recovery
from ashfall.families.dying.rules_resurrection import resurrect, true_resurrection
from ashfall.rules.errors import RuleViolation
from ashfall.rules.health import Health, Vitality
from ashfall.ruleset import Ruleset, preset

ED1, ED2 = preset("ashfall-1"), preset("ashfall-2")
DEAD = Health(0, 40, temp_hp=4, temp_source="x", vitality=Vitality.DEAD)


@pytest.mark.rule("RES-1", "X-07")
def test_res_1__resurrection_returns_at_1_hp_with_3_exhaustion_and_costs() -> None:
    with ScriptedRng([]) as rng:
        result = resurrect(DEAD, Recovery(5), rng, ED2, days_dead=10)
    assert result.health == Health(1, 40)
    assert (result.spell_level, result.hours, result.credits, result.essence) == (7, 1, 5000, 10)
    assert result.recovery.resurrection_exhaustion == 3 and result.exhaustion_added == 3
    assert result.attribute_loss is None and result.penalty is None
    assert "RES-1" in result.rules


@pytest.mark.rule("E-32", "RES-1")
@pytest.mark.parametrize(
    ("ruleset", "faces", "level", "essence", "exhaustion", "lost"),
    [
        pytest.param(ED2, [], 7, 10, 3, None, id="e_32-ed2-resurrection-exhaustion"),
        pytest.param(ED1, [(6, 3)], 6, 0, 0, Attribute.END, id="e_32-ed1-revive-loses-random-attribute-point"),
        pytest.param(ED1, [(6, 6)], 6, 0, 0, Attribute.PRE, id="e_32-ed1-revive-face-6-is-pre"),
    ],
)
def test_e_32__resurrection_by_edition(
    ruleset: Ruleset, faces: list[tuple[int, int]], level: int, essence: int, exhaustion: int, lost: Attribute | None
) -> None:
    with ScriptedRng(faces) as rng:
        result = resurrect(DEAD, Recovery(5), rng, ruleset, days_dead=3)
    assert result.health.hp == 1 and result.health.vitality is Vitality.ALIVE
    assert (result.spell_level, result.credits, result.essence) == (level, 5000, essence)
    assert result.recovery.total_exhaustion == exhaustion
    if lost is None:
        assert result.attribute_loss is None
    else:
        assert result.attribute_loss is not None
        assert (result.attribute_loss.attribute, result.attribute_loss.points) == (lost, 1)
        assert "E-32" in result.rules


@pytest.mark.rule("RES-1", "G-17")
def test_res_1__exhaustion_is_capped_at_6() -> None:
    with ScriptedRng([]) as rng:
        result = resurrect(DEAD, Recovery(5, exhaustion=5), rng, ED2, days_dead=1)
    assert result.exhaustion_added == 1 and result.recovery.total_exhaustion == 6


@pytest.mark.rule("RES-1")
@pytest.mark.parametrize("ruleset", [ED1, ED2], ids=["ed1", "ed2"])
def test_res_1__more_than_10_days_dead_or_not_dead_is_refused(ruleset: Ruleset) -> None:
    for health, days in ((DEAD, 11), (Health(0, 40, vitality=Vitality.DYING), 0)):
        with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
            resurrect(health, Recovery(5), rng, ruleset, days_dead=days)
        assert err.value.rule == "RES-1"


@pytest.mark.rule("RES-3")
@pytest.mark.parametrize(
    ("willing", "final", "word"),
    [pytest.param(False, False, "willing", id="res_3-unwilling-soul"), pytest.param(True, True, "final", id="final")],
)
def test_res_3__soul_must_be_willing_and_death_not_final(willing: bool, final: bool, word: str) -> None:
    with ScriptedRng([]) as rng, pytest.raises(RuleViolation) as err:
        resurrect(DEAD, Recovery(5), rng, ED2, days_dead=1, willing=willing, final=final)
    assert err.value.rule == "RES-3" and word in err.value.reason
    with pytest.raises(RuleViolation) as err:
        true_resurrection(DEAD, Recovery(5), ED2, years_dead=1, willing=willing, final=final)
    assert err.value.rule == "RES-3"


@pytest.mark.rule("RES-2", "G-17")
@pytest.mark.parametrize(
    ("exhaustion", "res_exhaustion", "after_total", "added"),
    [
        pytest.param(0, 0, 3, 3, id="g_17-from-0-to-3"),
        pytest.param(4, 0, 4, 0, id="g_17-max-current-3-keeps-4"),
        pytest.param(0, 2, 3, 1, id="g_17-counts-resurrection-exhaustion"),
    ],
)
@pytest.mark.parametrize("ruleset", [ED1, ED2], ids=["ed1", "ed2"])
def test_res_2__true_resurrection_full_hp_exhaustion_3_and_minus_4_for_a_week(
    ruleset: Ruleset, exhaustion: int, res_exhaustion: int, after_total: int, added: int
) -> None:
    rec = Recovery(17, exhaustion=exhaustion, resurrection_exhaustion=res_exhaustion)
    result = true_resurrection(DEAD, rec, ruleset, years_dead=200)
    assert result.health == Health(40, 40)
    assert result.recovery.total_exhaustion == after_total and result.exhaustion_added == added
    assert result.recovery.resurrection_exhaustion == res_exhaustion  # G-17 levels follow REST-9
    assert isinstance(result.penalty, Modifier)
    assert (result.penalty.value, result.penalty.rule, result.penalty_days) == (-4, "RES-2", 7)
    assert (result.spell_level, result.credits, result.hours) == (9, 25000, 1)


@pytest.mark.rule("RES-2")
def test_res_2__more_than_200_years_dead_is_refused() -> None:
    with pytest.raises(RuleViolation) as err:
        true_resurrection(DEAD, Recovery(5), ED2, years_dead=200.5)
    assert err.value.rule == "RES-2"


@pytest.mark.rule("G-17")
def test_g_17__alternative_adds_3_levels() -> None:
    adds = ED2.with_options(healing={"true_resurrection_sets_exhaustion": False})
    result = true_resurrection(DEAD, Recovery(5, exhaustion=2), adds, years_dead=1)
    assert result.recovery.exhaustion == 5
