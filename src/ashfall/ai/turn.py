"""One decision's view of the fight: targets, attack options, odds inputs by square, costs and threats.

A :class:`TurnView` is built when the policy is asked for an intent and thrown away after; everything it
computes (attack inputs per square and target, block costs, the enemies' attacks on the actor) is cached
inside it, so a decision asks each question once. It reads the state and never changes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ashfall.ai.board_cache import gap_ft
from ashfall.ai.movement import MoveGraph, Reach, threats
from ashfall.ai.odds_cache import attack_value, contest_win, ruleset_token, turn_value
from ashfall.ai.plans import Block, Costs, Plan, Setting, plan_key, plans_for
from ashfall.ai.profile import (
    AttackBase,
    AttackOption,
    activity_allowed,
    activity_bonus,
    attack_options,
    base_for,
    prone_copy,
    shots_left,
)
from ashfall.ai.sight import Sights
from ashfall.core.types import Condition, Skill
from ashfall.engine.actions import ACTIONS, Refused
from ashfall.engine.attacking import Situation
from ashfall.engine.engine import Engine
from ashfall.engine.moves.activities import AllOutAttack, FullAutoBurst, PowerStrike, SweepingStrike
from ashfall.engine.moves.common import speed_ft
from ashfall.engine.moves.legacy import EXTRA_ATTACK, Aim
from ashfall.engine.moves.maneuvers import Trip
from ashfall.engine.moves.tactics import Feint
from ashfall.engine.state import Combatant, EncounterState
from ashfall.grid.board import Square
from ashfall.rules.activities import Activity, action_cost
from ashfall.rules.checks import maneuver_stats, stat_modifier
from ashfall.rules.defenses import Defenses
from ashfall.ruleset.sections import ContestTie, MapCounting

_ACTIVITY = {Block.POWER: (Activity.POWER_STRIKE, PowerStrike), Block.ALL_OUT: (Activity.ALL_OUT, AllOutAttack),
             Block.SWEEP: (Activity.SWEEPING, SweepingStrike), Block.FULL_AUTO: (Activity.FULL_AUTO, FullAutoBurst)}
_HUGE = 1 << 30


def hp_left(c: Combatant) -> int:
    """HP an attack must take away to drop it (temporary HP first): at least 1."""
    return max(1, c.health.hp + c.health.temp_hp)


def map_steps(c: Combatant, state: EncounterState) -> int:
    """Attacks this turn that count for the next attack's MAP (per roll, or per Strike action in edition 1, E-01)."""
    if state.ruleset.attack.map_counting is MapCounting.PER_ATTACK_ROLL:
        return c.turn.attack_rolls
    return c.turn.strike_actions


@dataclass(slots=True)
class TurnView:
    """What one decision needs, computed once.

    Attributes:
        engine: The engine (read only; ``engine.check`` tests legality).
        c: The actor.
        targets: The creatures it may attack, in roster order.
        brutal: Downed enemies are among the targets.
    """

    engine: Engine
    c: Combatant
    targets: tuple[Combatant, ...]
    brutal: bool = False
    token: int = 0
    options: tuple[AttackOption, ...] = ()
    hp: dict[str, int] = field(default_factory=dict)
    spaces: dict[str, tuple[Square, ...]] = field(default_factory=dict)
    conds: dict[str, frozenset[Condition]] = field(default_factory=dict)
    sights: Sights = field(init=False)
    _graph: MoveGraph | None = None
    _reaches: tuple[Reach, ...] | None = None
    _bases: dict[tuple[Square | None, str, int, bool], AttackBase | None] = field(default_factory=dict)
    _defenses: dict[str, Defenses] = field(default_factory=dict)
    _costs: dict[int, Costs] = field(default_factory=dict)
    _available: dict[int, frozenset[Block]] = field(default_factory=dict)
    _aoo: dict[str, float] = field(default_factory=dict)
    _threat: dict[Square | None, float] = field(default_factory=dict)
    _legal: dict[Any, bool] = field(default_factory=dict)
    _attacking: list[tuple[Combatant, tuple[AttackOption, ...]]] | None = None
    _me_at: dict[Square, Combatant] = field(default_factory=dict)
    _melee: dict[tuple[str, int], float] = field(default_factory=dict)
    _plans: dict[tuple[str, int, int, AttackBase], Plan | None] = field(default_factory=dict)
    _speed: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        state = self.engine.state
        self.token = ruleset_token(state.ruleset)
        self.options = attack_options(self.c, state)
        self.hp = {t.id: hp_left(t) for t in self.targets}
        self.sights = Sights(state)
        self.spaces = self.sights.spaces
        self.conds = self.sights.conditions

    @property
    def state(self) -> EncounterState:
        """The encounter."""
        return self.engine.state

    @property
    def graph(self) -> MoveGraph:
        """The actor's movement graph."""
        if self._graph is None:
            self._graph = MoveGraph.of(self.state, self.c)
        return self._graph

    @property
    def reaches(self) -> tuple[Reach, ...]:
        """Enemies that could take an Attack of Opportunity on the actor now."""
        if self._reaches is None:
            self._reaches = threats(self.state, self.c)
        return self._reaches

    def legal(self, intent: Any) -> bool:
        """Whether the engine would accept the intent now (checked once per decision; nothing is rolled)."""
        found = self._legal.get(intent)
        if found is None:
            try:
                self.engine.check(intent)
                found = True
            except Refused:
                found = False
            self._legal[intent] = found
        return found

    # ----- odds inputs -----

    def space_at(self, square: Square | None) -> tuple[Square, ...]:
        """The actor's space with its top-left square at ``square`` (None: where it stands)."""
        if square is None or square == self.c.position:
            return self.spaces.get(self.c.id, ())
        return self.graph.space(square)

    def me_at(self, square: Square | None) -> Combatant:
        """The actor as if it stood on ``square`` (a copy; the state is not touched)."""
        if square is None or square == self.c.position:
            return self.c
        found = self._me_at.get(square)
        if found is None:
            found = self._me_at[square] = self.c.standing_on(square)
        return found

    def situation(self, square: Square | None, target: Combatant, ranged: bool) -> Situation:
        """The attack's situation from ``square`` (None: where it stands), as the attack pipeline would read it."""
        return self.sights.situation(self.c, self.space_at(square), target, self.spaces.get(target.id, ()), ranged)

    def base(self, square: Square | None, target: Combatant, option: AttackOption, *,
             prone: bool = False) -> AttackBase | None:
        """The odds inputs of attacking ``target`` from ``square`` with ``option`` (cached)."""
        key = (square, target.id, option.index, prone)
        if key in self._bases:
            return self._bases[key]
        found: AttackBase | None = None
        mine, theirs = self.space_at(square), self.spaces.get(target.id, ())
        if not (mine and theirs) or gap_ft(mine, theirs) <= option.limit_ft:
            d = self._defenses.get(target.id)
            if d is None:
                d = self._defenses[target.id] = Defenses.of_creature(target.creature, target.armor,
                                                                     self.conds[target.id])
            sit = self.situation(square, target, option.ranged)
            if prone:
                who = prone_copy(self.c, target)
                conds = (self.conds[self.c.id], who.condition_set)
            else:
                who, conds = target, (self.conds[self.c.id], self.conds[target.id])
            found = base_for(self.state, self.me_at(square), who, option, sit, self.token, d, conds)
        self._bases[key] = found
        return found

    def best_plan(self, target: str, setting: Setting, actions: int, *, full: bool, openers: bool,
                  drop_step: float) -> Plan | None:
        """The best plan against ``target`` in this setting, by :func:`~ashfall.ai.plans.plan_key`.

        Cached when the setting has no square-specific extras: the same odds inputs give the same plan.
        """
        key = None
        if not full:
            key = (target, setting.option.index, actions, setting.bases[target])
            if key in self._plans:
                return self._plans[key]
        best: Plan | None = None
        for p in plans_for(target, setting, self.costs(setting.option), actions, openers=openers):
            if best is None or plan_key(p, drop_step) > plan_key(best, drop_step):
                best = p
        if key is not None:
            self._plans[key] = best
        return best

    def costs(self, option: AttackOption) -> Costs:
        """Action costs of each block with this option (MAA-1, G-31)."""
        found = self._costs.get(option.index)
        if found is None:
            rs = self.state.ruleset
            block = {Block.STRIKE: 1, Block.EXTRA: 1, Block.FEINT: 1, Block.TRIP: 1, Block.AIM: 1}
            for b, (activity, _) in _ACTIVITY.items():
                block[b] = action_cost(activity, rs) or 1
            w = option.weapon
            capacity = w.ammo_capacity if w is not None and shots_left(self.c, option) is not None else None
            reload = w.reload_actions if w is not None else 1
            block[Block.RELOAD] = reload
            multi = {Block.SWEEP: activity_bonus(Activity.SWEEPING, self.state),
                     Block.FULL_AUTO: activity_bonus(Activity.FULL_AUTO, self.state)}
            found = Costs(block, rs.attack.all_out_attacks, rs.attack.full_auto_ammo_per_target, capacity, reload,
                          multi, rs.attack.aim_bonus)
            self._costs[option.index] = found
        return found

    def available(self, option: AttackOption) -> frozenset[Block]:
        """The attack blocks the rules allow with this option (openers are checked per target)."""
        found = self._available.get(option.index)
        if found is None:
            blocks = {Block.STRIKE}
            rs, c = self.state.ruleset, self.c
            if rs.attack.extra_attack and EXTRA_ATTACK in c.creature.talents and not option.unarmed:
                blocks.add(Block.EXTRA)
            for b, (activity, intent) in _ACTIVITY.items():
                if intent in ACTIONS and activity_allowed(c, option, activity, self.state):
                    blocks.add(b)
            found = frozenset(blocks)
            self._available[option.index] = found
        return found

    def setting(self, square: Square | None, option: AttackOption, *, full: bool) -> Setting | None:
        """The plan setting at a square (None: no target can be attacked from there with this option).

        ``full`` adds what only the square the actor stands on needs: openers and multi-target groups.
        """
        bases: dict[str, AttackBase] = {}
        for t in self.targets:
            b = self.base(square, t, option)
            if b is not None:
                bases[t.id] = b
        if not bases:
            return None
        available = self.available(option)
        groups: dict[Block, dict[str, tuple[str, ...]]] = {}
        prone: dict[str, AttackBase] = {}
        odds: dict[tuple[Block, str], float] = {}
        if full:
            groups = self._groups(option, bases, available)
            odds, prone, extra = self._openers(square, option, bases)
            available = available | extra
        else:
            available = available - {Block.SWEEP, Block.FULL_AUTO}
        return Setting(option, bases, prone, self.hp, groups, map_steps(self.c, self.state),
                       shots_left(self.c, option), available, odds)

    def _groups(self, option: AttackOption, bases: dict[str, AttackBase],
                available: frozenset[Block]) -> dict[Block, dict[str, tuple[str, ...]]]:
        """Further targets for Sweeping Strike / Full Auto Burst with each primary target, best single value first."""
        rs = self.state.ruleset
        out: dict[Block, dict[str, tuple[str, ...]]] = {}
        if len(bases) < 2:
            return out
        worth = {tid: turn_value((b.key(1),), self.hp[tid]).capped / self.hp[tid] for tid, b in bases.items()}
        ranked = sorted(bases, key=lambda tid: -worth[tid])
        for block, limit in ((Block.SWEEP, rs.attack.sweeping_targets), (Block.FULL_AUTO, rs.attack.full_auto_targets)):
            if block not in available:
                continue
            spread = rs.attack.full_auto_spread_ft if block is Block.FULL_AUTO else _HUGE
            per: dict[str, tuple[str, ...]] = {}
            for primary in bases:
                chosen = [primary]
                for other in ranked:
                    if other in chosen or len(chosen) >= limit:
                        continue
                    if all(self._gap(other, x) <= spread for x in chosen):
                        chosen.append(other)
                if len(chosen) > 1:
                    per[primary] = tuple(chosen[1:])
            out[block] = per
        return out

    def _openers(self, square: Square | None, option: AttackOption,
                 bases: dict[str, AttackBase]) -> tuple[dict[tuple[Block, str], float], dict[str, AttackBase],
                                                        frozenset[Block]]:
        """Success chances of Feint and Trip against each target, and Aim, where the engine allows them."""
        state, c = self.state, self.c
        odds: dict[tuple[Block, str], float] = {}
        prone: dict[str, AttackBase] = {}
        blocks: set[Block] = set()
        reroll = state.ruleset.checks.contest_tie is ContestTie.REROLL
        if option.ranged:
            if Aim in ACTIONS and self.legal(Aim(c.id)):
                blocks.add(Block.AIM)
                for tid in bases:
                    odds[(Block.AIM, tid)] = 1.0
            return odds, prone, frozenset(blocks)
        mine = max(stat_modifier(c.creature, s) for s in maneuver_stats(state.ruleset))
        deception = stat_modifier(c.creature, Skill.DECEPTION)
        for t in self.targets:
            if t.id not in bases:
                continue
            if self.legal(Feint(c.id, t.id)):
                blocks.add(Block.FEINT)
                odds[(Block.FEINT, t.id)] = contest_win(deception, stat_modifier(t.creature, Skill.INSIGHT), reroll)
            if self.legal(Trip(c.id, t.id, option.weapon_id)) and not self.conds[t.id] & _NO_TRIP:
                p = self.base(square, t, option, prone=True)
                if p is not None:
                    blocks.add(Block.TRIP)
                    theirs = max(stat_modifier(t.creature, s) for s in maneuver_stats(state.ruleset))
                    odds[(Block.TRIP, t.id)] = contest_win(mine, theirs, reroll)
                    prone[t.id] = p
        return odds, prone, frozenset(blocks)

    # ----- what the enemies would do to the actor -----

    def in_reach_of(self, square: Square | None) -> list[str]:
        """Enemies that would have the actor in melee reach at ``square`` and could react (RX-21)."""
        space = self.c.space if square is None or square == self.c.position else self.graph.space(square)
        if not space:
            return []
        return [r.id for r in self.reaches if gap_ft(r.space, space) <= r.reach_ft]


    def ranged_threat(self, square: Square | None) -> float:
        """Expected damage of one attack from each enemy at the actor on ``square``: the fire the square invites.

        Each enemy's ranged options count where the square is within their range, its melee options where it
        could Stride into reach; cover, high ground and AMOD-7 change with the square (a shooter the actor
        stands next to has disadvantage, but its melee weapon does not).
        """
        found = self._threat.get(square)
        if found is not None:
            return found
        mine = self.space_at(square)
        me = self.me_at(square)
        total = 0.0
        for e, options in self._attackers():
            theirs = self.spaces[e.id]
            gap = gap_ft(mine, theirs) if mine and theirs else 0
            walk = self._speed.get(e.id)
            if walk is None:  # the same for every square weighed: read once per decision
                walk = self._speed[e.id] = speed_ft(e, self.state)
            best = 0.0
            for option in options:
                if option.ranged:
                    if gap <= option.limit_ft:
                        b = self._enemy_base(e, option, me, mine)
                        best = max(best, attack_value(b.key(1)).expected if b is not None else 0.0)
                elif gap <= option.limit_ft + walk:
                    best = max(best, self._melee_value(e, option))
            total += best
        self._threat[square] = total
        return total

    def _melee_value(self, e: Combatant, option: AttackOption) -> float:
        """Expected damage of one of an enemy's melee attacks on the actor where it stands.

        The square weighed hardly changes it: the enemy walks up to wherever the actor goes.
        """
        key = (e.id, option.index)
        found = self._melee.get(key)
        if found is None:
            b = self._enemy_base(e, option, self.c, self.spaces.get(self.c.id, ()))
            found = self._melee[key] = attack_value(b.key(1)).expected if b is not None else 0.0
        return found

    def _enemy_base(self, e: Combatant, option: AttackOption, me: Combatant, mine: tuple[Square, ...],
                    mine_conditions: frozenset[Condition] | None = None) -> AttackBase | None:
        """The odds inputs of an enemy's attack on the actor standing on ``mine`` (with these conditions)."""
        sit = self.sights.situation(e, self.spaces[e.id], me, mine, option.ranged)
        conditions = self.conds[self.c.id] if mine_conditions is None else mine_conditions
        return base_for(self.state, e, me, option, sit, self.token, None, (self.conds[e.id], conditions))

    def _attackers(self) -> list[tuple[Combatant, tuple[AttackOption, ...]]]:
        """Each enemy still standing and the attack options it could use (loaded ranged weapons, melee)."""
        if self._attacking is None:
            self._attacking = []
            for e in self.state.enemies_of(self.c.id):
                if not e.is_active or not self.spaces.get(e.id):
                    continue
                options = tuple(o for o in attack_options(e, self.state) if not o.ranged or shots_left(e, o) != 0)
                if options:
                    self._attacking.append((e, options))
        return self._attacking

    def aoo_damage(self, enemy_id: str) -> float:
        """Expected damage of one enemy's Attack of Opportunity on the actor: its first melee option, no MAP (G-41)."""
        found = self._aoo.get(enemy_id)
        if found is None:
            e = self.state.get(enemy_id)
            found = 0.0
            for option in attack_options(e, self.state):
                if not option.ranged:
                    b = self._enemy_base(e, option, self.c, self.spaces.get(self.c.id, ()))
                    found = attack_value(b.key(1)).expected if b is not None else 0.0
                    break
            self._aoo[enemy_id] = found
        return found

    def incoming(self) -> float:
        """Expected damage the enemies standing now could deal the actor in one turn of Strikes (a rough guide).

        A Dodge the actor is under does not count: whether it is outmatched does not change by dodging.
        """
        total = 0.0
        undodged = self.conds[self.c.id] - {Condition.DODGING}
        actions = self.state.ruleset.turn.actions_per_turn
        mine = self.spaces.get(self.c.id, ())
        for e in self.state.enemies_of(self.c.id):
            theirs = self.spaces.get(e.id, ())
            if not e.is_active or not theirs or not mine:
                continue
            gap = gap_ft(theirs, mine)
            best = 0.0
            for option in attack_options(e, self.state):
                if gap > option.limit_ft + (0 if option.ranged else e.creature.speeds.walk):
                    continue
                b = self._enemy_base(e, option, self.c, mine, undodged)
                if b is not None:
                    keys = tuple(b.key(n) for n in range(1, actions + 1))
                    best = max(best, turn_value(keys, hp_left(self.c)).expected)
            total += best
        return total

    def _gap(self, a: str, b: str) -> int:
        sa, sb = self.spaces.get(a, ()), self.spaces.get(b, ())
        return gap_ft(sa, sb) if sa and sb else 0


_NO_TRIP = frozenset({Condition.PRONE})
"""A prone creature is not tripped again."""
