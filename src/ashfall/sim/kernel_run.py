"""Playing trials on the kernel: signatures for the differential harness and results for the simulator.

:class:`KernelSetup` takes a setup's fight lowered once (:func:`ashfall.sim.kernel_lower.lowering`) and plays
any seed with the compiled :func:`ashfall.kernel.fight.play`. :meth:`KernelSetup.signature` records every step (the
harness's :data:`~ashfall.sim.signature.FightRunner`); :meth:`KernelSetup.results` plays trials ``start`` ..
``stop - 1`` of a sweep in fast mode and returns the same :class:`~ashfall.sim.fight.FightResult` rows the
reference engine's ``play_trials`` would, trial ``i`` with ``trial_seed(seed, i)`` as there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ashfall.core.types import Condition
from ashfall.kernel import ai as kai
from ashfall.kernel import brace as kbr
from ashfall.kernel import fight as kf
from ashfall.kernel import maneuvers as kmv
from ashfall.kernel import morale as kmor
from ashfall.kernel import surprise as ksur
from ashfall.kernel.rng import N
from ashfall.rules.health import Health, Vitality, down_conditions
from ashfall.sim.fight import DEFAULT_MAX_ROUNDS, CombatantResult, FightResult, trial_seed
from ashfall.sim.kernel_brace_lower import SAVE_STEP as BRACE_SAVE_STEP
from ashfall.sim.kernel_brace_lower import no_brace
from ashfall.sim.kernel_burst_lower import BurstTables
from ashfall.sim.kernel_burst_rolls import with_burst_label
from ashfall.sim.kernel_covering_lower import no_covering
from ashfall.sim.kernel_lower import ATTACK_LABELS, Lowered, lowering
from ashfall.sim.kernel_morale_lower import morale_of
from ashfall.sim.kernel_ranged_lower import with_reload_label
from ashfall.sim.kernel_surprise_lower import STEALTH_STEP, no_surprise
from ashfall.sim.kernel_weapons_lower import with_aim_label
from ashfall.sim.setups import FightSetup
from ashfall.sim.signature import CombatantEnd, FightSignature, Step, steps_digest

MORALE_STEP = "morale-checked"
"""How the reference log's group morale check reads as a step (``MoraleChecked``: no actor, label or target)."""
DEATH_SAVE_STEP = "check-rolled:death save"
"""How the reference log's death save reads as a step (the dying family's ``CheckRolled`` label)."""
MEDICINE_STEP = "check-rolled:Medicine (stabilise)"
"""How the reference log's Medicine check to stabilise a dying creature reads as a step (E-31, ``log_check``)."""
MOVED_STEP = "moved:stride"
"""How a square entered by a Stride reads as a step (the movement family's ``Moved`` event, mode ``stride``)."""
MOVED_BY_STEP = "moved:step"
"""How the square a Step enters reads as a step (ACT-3)."""
BAILED = 2
"""``out[OUT_TIMED_OUT]`` of a fight the kernel stopped: the AI chose what its slice does not play."""
BAILED_STEP = ("unsupported:the tactical AI's Dodge (nothing to attack and no way to close in, or withdrawing: "
               "DOD-1, DOD-2)")
"""The step a stopped fight ends with (it can never match the reference's: the harness shows it)."""
_VITALITIES = (Vitality.ALIVE, Vitality.DYING, Vitality.STABILIZED, Vitality.DEAD)
"""The kernel's vitality codes (``ashfall.kernel.fight.ALIVE`` …), in order."""


def conditions_of(vitality: int, prone: bool) -> tuple[str, ...]:
    """A combatant's conditions as the signature lists them.

    Those its vitality brings (DEATH-1: the health record's own ``down_conditions``), and prone when it lies
    prone in its own right (dropping leaves it prone; a natural 20 leaves it so until it stands).
    """
    alive = vitality >= len(_VITALITIES)  # one that surrendered (``ashfall.kernel.morale.LEFT``) is up
    names = {str(c.value) for c in down_conditions(Health(0, 1, vitality=_VITALITIES[0 if alive else vitality])
                                                   ).conditions}
    if prone:
        names.add(Condition.PRONE.value)
    return tuple(sorted(names))


def with_dazed(names: tuple[str, ...], dazed: bool) -> tuple[str, ...]:
    """The conditions with Dazed when it lasts (TRP-4, G-13: until the end of its next turn)."""
    return tuple(sorted((*names, Condition.DAZED.value))) if dazed else names


STEP_ROWS = 4096
"""Step rows a recorded fight starts with (doubled while a fight needs more)."""


def _ai_tab(lo: Lowered) -> kf.AiTab:
    """The AI's tables as the compiled fight takes them."""
    ai = lo.ai
    o = ai.options
    return (ai.plan_frac, ai.plan_drop, ai.plan_first, ai.enemy_hit, ai.config, ai.ints, ai.view, ai.wind,
            ai.open_frac, ai.open_drop, ai.open_first, ai.enemy_hit_prone, ai.chooser,
            (o.count, o.ranged, o.limit, o.frac, o.drop, o.first, o.melee_best, o.throw_hit, o.throw_ft, o.outcome,
             o.draws, o.dice, o.flat, o.dealt, o.low, o.eview, with_aim_label(o, lo.action_names), o.prone_fire,
             o.shot, o.throw2_hit, o.throw2_ft, burst_tab(o.burst, lo.action_names), o.normal, o.total),
            _ranged_tab(lo),
            (ai.withdraw.config, ai.withdraw.way_mean, ai.withdraw.way_ft, ai.withdraw.medic, ai.withdraw.medic_hp,
             ai.withdraw.medic_ints, ai.withdraw.way_melee), burst_tab(ai.sweep))


def burst_tab(b: BurstTables, action_names: Sequence[str] = ()) -> kai.BurstTab:
    """The AI's burst tables as the compiled turn takes them (``kernel_burst_lower.BurstTables``' fields in order).

    Its action name's index among ``action_names`` is filled in (``kernel_burst_rolls.with_burst_label``).
    """
    b = with_burst_label(b, action_names, action_names[-1]) if action_names else b
    return (b.on, b.ints, b.worth, b.further, b.lists, b.start, b.size, b.drafts, b.opened, b.vals, b.roll_draws,
            b.roll_outcome, b.rules)


def _guard(lo: Lowered) -> kf.GuardTab:
    """What the AI's Intercept weighs, as the compiled fight takes it (melee hits, a gun's, its view table, sight)."""
    return lo.guard_hit, lo.guard_shot, lo.guard_view, lo.guard_seen


def _ranged_tab(lo: Lowered) -> kf.RangedTab:
    """The ammunition tables as the compiled fight takes them (``kernel_ranged_lower``, G-31)."""
    r = lo.ai.ranged
    return (r.ammo, r.capacity, r.reload, r.slots, with_reload_label(r, lo.action_names), r.fire_back, r.outcome,
            r.draws, r.dice, r.flat, r.dealt, r.low, r.intercepts, r.fire_slot, r.threat_slot, r.fire_ints,
            r.fire_clear)


def _mv_tab(lo: Lowered) -> kmv.MvTab:
    """Trip's and Feint's tables as the compiled fight takes them (edition 2, E-37)."""
    m = lo.maneuvers
    f = m.feint
    return (m.ints, m.contest_draws, m.contest_total, m.margins, m.check_label, m.dazed, m.feinted, f.draws, f.totals,
            f.labels, f.margins)


def _br_tab(lo: Lowered) -> tuple[Any, ...]:
    """Brace's tables as the compiled fight takes them (RX-12..14, X-20; off when nobody Braces)."""
    return (lo.brace or no_brace(len(lo.ids))).tab()


def _sur_tab(lo: Lowered) -> npt.NDArray[np.int64]:
    """An ambush's table as the compiled fight takes it (SUR-1..3; nobody rolls without one)."""
    return lo.surprise if lo.surprise.shape[0] == len(lo.ids) else no_surprise(len(lo.ids))


def _cov_tab(lo: Lowered) -> tuple[Any, ...]:
    """The Covering Fire talent's tables as the compiled fight takes them (SUP-11; empty when nobody has it)."""
    return (lo.covering or no_covering(len(lo.ids))).tab()


class KernelSetup:
    """A setup the kernel plays: lowered once per process (see ``kernel_lower.lowering``), then any number of seeds.

    Args:
        setup: The fight.
        max_rounds: The round limit override (default: the fight's own, else the simulator's).

    Raises:
        KernelUnsupported: The fight uses a feature the kernel does not play yet (the message names it).
    """

    def __init__(self, setup: FightSetup, max_rounds: int | None = None) -> None:
        found = lowering(setup)  # the engine choice's lowering, when it checked this setup object
        self.lowered: Lowered = found.with_round_limit(max_rounds or found.round_limit or DEFAULT_MAX_ROUNDS)
        self.setup = setup
        n = len(self.lowered.ids)
        self._mt = np.zeros(N + 1, np.int64)
        self._hp = np.zeros(n, np.int64)
        self._temp = np.zeros(n, np.int64)
        self._vit = np.zeros(n, np.int64)
        self._prone = np.zeros(n, np.int64)
        self._dropped = np.zeros(n, np.int64)
        self._dealt = np.zeros(n, np.int64)
        self._taken = np.zeros(n, np.int64)
        self._out = np.zeros(kf.OUT_LEN, np.int64)
        self._no_steps = np.zeros((1, kf.STEP_HEAD + kf.STEP_FACES), np.int64)
        self._mor = self.lowered.morale.tab()

    def _play(self, seed: int, record: bool, steps: npt.NDArray[np.int64]) -> None:
        lo = self.lowered
        self._mor = lo.morale.tab()  # the lowering may have been swapped (a test's deliberately wrong kernel)
        kf.play(self._mt, seed, lo.side, lo.agi, lo.init_bonus, lo.tiebreak_sides, lo.hp, lo.temp_hp, lo.near,
                lo.plan, lo.plan_len, lo.step_actions, lo.target_rule, lo.threat, lo.act_cost, lo.act_legal, lo.counts,
                lo.actions, lo.map_index, lo.all_out_index, lo.outcome, lo.draws, lo.dice, lo.flat, lo.dealt, lo.low,
                lo.max_hp, lo.falls, lo.saves, lo.save_table, lo.dying_rules, lo.stand_cost, lo.moves, lo.pos,
                lo.reach_ft, lo.speed, lo.stride_cost, lo.price, lo.offsets, lo.dist, lo.flank_geo, lo.flanker,
                lo.threat_ft, _guard(lo), lo.guard_reach, lo.intercept_ft, lo.sight, lo.round_limit, lo.ai.on,
                _ai_tab(lo), self._hp, self._temp, self._vit, self._prone, self._dropped, self._dealt, self._taken,
                self._out, record, steps, _mv_tab(lo), self._mor, _cov_tab(lo), _br_tab(lo), _sur_tab(lo))

    def signature(self, seed: int) -> FightSignature:
        """Play the fight with ``seed``, recording every step, and return its signature."""
        rows = STEP_ROWS
        while True:
            steps = np.zeros((rows, kf.STEP_HEAD + kf.STEP_FACES), np.int64)
            self._play(seed, True, steps)
            if self._out[kf.OUT_STEPS] >= 0:
                break
            rows *= 2
        lo = self.lowered
        recorded = tuple(self._step(steps[i]) for i in range(int(self._out[kf.OUT_STEPS])))
        if self._out[kf.OUT_TIMED_OUT] == BAILED:  # the AI chose what the kernel does not play: shown, never hidden
            recorded = (*recorded, Step("", BAILED_STEP, None, ()))
        winner = int(self._out[kf.OUT_WINNER])
        dazed = lo.maneuvers.dazed
        state = self._mor[13]
        ends = tuple(CombatantEnd(cid, int(self._hp[i]), int(self._temp[i]),
                                  with_dazed(conditions_of(int(self._vit[i]), bool(self._prone[i])), bool(dazed[i])),
                                  morale_of(int(state[i, 0]), int(state[i, 1]), int(state[i, 3])))
                     for i, cid in enumerate(lo.ids))
        return FightSignature(seed, lo.sides[winner] if winner >= 0 else None, int(self._out[kf.OUT_ROUNDS]), ends,
                              recorded, steps_digest(recorded))

    def _step(self, row: npt.NDArray[np.int64]) -> Step:
        lo = self.lowered
        kind, actor, target, label, nfaces = (int(x) for x in row[:kf.STEP_HEAD])
        faces = tuple(int(x) for x in row[kf.STEP_HEAD:kf.STEP_HEAD + nfaces])
        if kind == kmor.MORALE_STEP:  # a group's check (no actor), or a leader's rally (G-04)
            return Step(lo.ids[actor] if actor >= 0 else None, MORALE_STEP, None, faces)
        if kind == kf.INITIATIVE:
            action = "initiative-rolled"
        elif kind == kf.DEATH_SAVE:
            return Step(lo.ids[actor], DEATH_SAVE_STEP, None, faces)
        elif kind == kf.MOVED:
            return Step(lo.ids[actor], MOVED_BY_STEP if label == kai.MOVED_STEP else MOVED_STEP, None, faces)
        elif kind == kai.MEDICINE_CHECK:  # edition 1's Medicine check on a dying ally (E-31)
            return Step(lo.ids[actor], MEDICINE_STEP, None, faces)
        elif kind == kf.ACTIONS and label == kmor.RALLY_LABEL:  # a leader's Rally (G-04, MOR-25)
            action = f"actions-spent:{lo.morale.rally_name}"
        elif kind == kf.ACTIONS and label == kai.MEDICINE_LABEL:
            action = f"actions-spent:{lo.ai.withdraw.medic_name}"
        elif kind == kbr.SAVE:  # a charger's save against Brace (RX-14)
            return Step(lo.ids[actor], BRACE_SAVE_STEP, None, faces)
        elif kind == ksur.STEALTH:  # an ambusher's Stealth (SUR-1)
            return Step(lo.ids[actor], STEALTH_STEP, None, faces)
        elif kind == kmv.CHECK:  # a contest's check (edition 2's Trip)
            return Step(lo.ids[actor], f"check-rolled:{lo.maneuvers.check_names[label]}", None, faces)
        elif kind == kf.ACTIONS:
            action = f"actions-spent:{lo.action_names[label]}"
        elif kind == kf.ATTACK:
            number = label // 10
            name = ATTACK_LABELS[label % 10]
            action = f"attack-rolled:{name} ({number})" if number else f"attack-rolled:{name}"
        else:
            action = "damage-rolled"
        return Step(lo.ids[actor], action, lo.ids[target] if target >= 0 else None, faces)

    def batch(self, seeds: Sequence[int]) -> Batch:
        """Play one fight per seed in one compiled loop; the raw end of each (no steps, no Python objects)."""
        t, n = len(seeds), len(self.lowered.ids)
        def rows() -> npt.NDArray[np.int64]:
            return np.zeros((t, n), np.int64)

        got = Batch(rows(), rows(), rows(), rows(), rows(), rows(), rows(), np.zeros((t, kf.OUT_LEN), np.int64),
                    np.zeros((t, n, 4), np.int64))
        lo = self.lowered
        kf.play_batch(self._mt, np.array(seeds, np.int64), lo.side, lo.agi, lo.init_bonus, lo.tiebreak_sides, lo.hp,
                      lo.temp_hp, lo.near, lo.plan, lo.plan_len, lo.step_actions, lo.target_rule, lo.threat,
                      lo.act_cost, lo.act_legal, lo.counts, lo.actions, lo.map_index, lo.all_out_index, lo.outcome,
                      lo.draws, lo.dice, lo.flat, lo.dealt, lo.low, lo.max_hp, lo.falls, lo.saves, lo.save_table,
                      lo.dying_rules, lo.stand_cost, lo.moves, lo.pos, lo.reach_ft, lo.speed, lo.stride_cost, lo.price,
                      lo.offsets, lo.dist, lo.flank_geo, lo.flanker, lo.threat_ft, _guard(lo), lo.guard_reach,
                      lo.intercept_ft, lo.sight, lo.round_limit, lo.ai.on, _ai_tab(lo), got.hp, got.temp, got.vit,
                      got.prone, got.dropped, got.dealt, got.taken, got.out, _mv_tab(lo), lo.morale.tab(), got.morale,
                      _cov_tab(lo), _br_tab(lo), _sur_tab(lo))
        return got

    def result(self, seed: int) -> FightResult:
        """Play the fight with ``seed`` (no steps recorded) and return what the simulator aggregates."""
        return self._results([seed], self.batch([seed]))[0]

    def _results(self, seeds: Sequence[int], got: Batch) -> list[FightResult]:
        lo = self.lowered
        side_names = [lo.sides[int(s)] for s in lo.side]
        found: list[FightResult] = []
        for k, seed in enumerate(seeds):
            if got.out[k, kf.OUT_TIMED_OUT] == BAILED:  # the AI chose what the kernel does not play (a Dodge)
                found.append(self._reference(seed))
                continue
            hp, vit, dropped, dealt, taken, out = (got.hp[k].tolist(), got.vit[k].tolist(), got.dropped[k].tolist(),
                                                   got.dealt[k].tolist(), got.taken[k].tolist(), got.out[k].tolist())
            rows = tuple(
                CombatantResult(cid, lo.names[i], side_names[i], bool(dropped[i]) or hp[i] <= 0, vit[i] == kf.DEAD,
                                dealt[i], taken[i], hp[i], int(lo.max_hp[i]),
                                morale_of(int(got.morale[k, i, 0]), int(got.morale[k, i, 1]), int(got.morale[k, i, 3])),
                                lo.creatures[i])
                for i, cid in enumerate(lo.ids))
            winner = out[kf.OUT_WINNER]
            found.append(FightResult(seed, lo.sides[winner] if winner >= 0 else None, out[kf.OUT_ROUNDS],
                                     bool(out[kf.OUT_TIMED_OUT]), rows, out[kf.OUT_ATTACKS], 0))
        return found

    def _reference(self, seed: int) -> FightResult:
        """The fight with ``seed`` played by the reference engine: a trial the kernel stopped, counted all the same.

        The same trial (its seed, its round limit), so a report does not depend on where the kernel stops.
        """
        from ashfall.sim.runner import play  # the runner imports this module when it plays on the kernel

        return play(self.setup, seed, max_rounds=self.lowered.round_limit)

    def results(self, seed: int, start: int, stop: int) -> list[FightResult]:
        """Trials ``start`` .. ``stop - 1`` of a sweep with ``seed`` (trial ``i`` plays ``trial_seed(seed, i)``)."""
        seeds = [trial_seed(seed, i) for i in range(start, stop)]
        return self._results(seeds, self.batch(seeds))


@dataclass(frozen=True, slots=True)
class Batch:
    """The raw ends of a batch of fights, one row per fight.

    HP, temporary HP, vitality code, prone, ever dropped to 0 HP, damage dealt and taken per combatant,
    ``out`` (winner side code, rounds, timed out, attack rolls: :mod:`ashfall.kernel.fight`'s ``OUT_*``) and
    ``morale`` (``[trial, combatant, (status code, break style code, counted down, fled)]``,
    :mod:`ashfall.kernel.morale`).
    """

    hp: npt.NDArray[np.int64]
    temp: npt.NDArray[np.int64]
    vit: npt.NDArray[np.int64]
    prone: npt.NDArray[np.int64]
    dropped: npt.NDArray[np.int64]
    dealt: npt.NDArray[np.int64]
    taken: npt.NDArray[np.int64]
    out: npt.NDArray[np.int64]
    morale: npt.NDArray[np.int64]


CACHED_SETUPS = 32
"""Lowered setups kept per process (the setup object is kept with it, so its id cannot be reused meanwhile)."""
_cache: dict[tuple[int, int | None], tuple[FightSetup, KernelSetup]] = {}


def kernel_for(setup: FightSetup, max_rounds: int | None = None) -> KernelSetup:
    """The kernel's version of a setup, lowered once per setup object and round limit in this process."""
    key = (id(setup), max_rounds)
    hit = _cache.get(key)
    if hit is None or hit[0] is not setup:
        if len(_cache) >= CACHED_SETUPS:  # a long-lived process (tests, a notebook) lowers many setups
            _cache.clear()
        hit = (setup, KernelSetup(setup, max_rounds))
        _cache[key] = hit
    return hit[1]


def kernel_signature(setup: FightSetup, seed: int) -> FightSignature:
    """The kernel's signature of one fight: a :data:`~ashfall.sim.signature.FightRunner` for ``compare_engines``."""
    return kernel_for(setup).signature(seed)


__all__ = ["Batch", "KernelSetup", "kernel_for", "kernel_signature"]
