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
from ashfall.ai.odds_cache import attack_value, ruleset_token
from ashfall.ai.openers import multi_targets, openers
from ashfall.ai.plans import Block, Costs, Plan, Setting, full_plan_inputs, plan_key, plans_for
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
from ashfall.ai.sight import Sights, situation_of
from ashfall.core.types import Condition
from ashfall.engine import (
    AllOutAttack,
    Combatant,
    EncounterState,
    Engine,
    FullAutoBurst,
    PowerStrike,
    Refused,
    SweepingStrike,
)
from ashfall.families.attacks.engine import Situation
from ashfall.families.attacks.engine_common import mode_for, speed_ft
from ashfall.families.attacks.moves_legacy import EXTRA_ATTACK
from ashfall.families.attacks.rules_activities import Activity, action_cost
from ashfall.grid.board import Square
from ashfall.rules.damage_defenses import Defenses
from ashfall.ruleset.sections import MapCounting

_ACTIVITY = {Block.POWER: (Activity.POWER_STRIKE, PowerStrike), Block.ALL_OUT: (Activity.ALL_OUT, AllOutAttack),
             Block.SWEEP: (Activity.SWEEPING, SweepingStrike), Block.FULL_AUTO: (Activity.FULL_AUTO, FullAutoBurst)}
_OWN_MODE = frozenset({Block.SWEEP, Block.FULL_AUTO})
"""Blocks whose intents name a weapon but no mode: the engine makes them in the weapon's own mode (``mode_for``), so
a thrown option of a melee weapon (a javelin) cannot make them (a burst of javelin throws is refused, MAA-2)."""
_BEST: dict[tuple[object, ...], tuple[tuple[Block, ...], tuple[str, ...], float, float, float, int] | None] = {}
"""Best plans by everything they depend on (:meth:`TurnView.best_plan`, :func:`~ashfall.ai.plans.full_plan_inputs`).

A pure function of its key (the ruleset by its token), so nothing invalidates it; bounded by :data:`_BEST_MAX`.
"""
_BEST_MAX = 1 << 15


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
    _at: dict[tuple[Square | None, int], dict[str, AttackBase]] = field(default_factory=dict)
    _options: dict[int, tuple[int, int | None, frozenset[Block], frozenset[Block]]] = field(default_factory=dict)
    _by_code: dict[tuple[str, int, int, bool], AttackBase | None] = field(default_factory=dict)
    _enemy_values: dict[tuple[str, int, int], float] = field(default_factory=dict)
    _defenses: dict[str, Defenses] = field(default_factory=dict)
    _costs: dict[int, Costs] = field(default_factory=dict)
    _available: dict[int, frozenset[Block]] = field(default_factory=dict)
    _aoo: dict[str, float] = field(default_factory=dict)
    _threat: dict[Square | None, float] = field(default_factory=dict)
    _legal: dict[Any, bool] = field(default_factory=dict)
    _attacking: list[tuple[Combatant, tuple[AttackOption, ...], tuple[Square, ...], int]] | None = None
    _melee: dict[tuple[str, int], float] = field(default_factory=dict)
    _plans: dict[tuple[str, int, int, int], tuple[AttackBase, Plan | None]] = field(default_factory=dict)

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

    def situation(self, square: Square | None, target: Combatant, ranged: bool) -> Situation:
        """The attack's situation from ``square`` (None: where it stands), as the attack pipeline would read it."""
        return self.sights.situation(self.c, self.space_at(square), target, self.spaces.get(target.id, ()), ranged)

    def base(self, square: Square | None, target: Combatant, option: AttackOption, *,
             prone: bool = False) -> AttackBase | None:
        """The odds inputs of attacking ``target`` from ``square`` with ``option`` (cached)."""
        key = (square, target.id, option.index, prone)
        bases = self._bases
        if key in bases:
            return bases[key]
        found: AttackBase | None = None
        mine, theirs = self.space_at(square), self.spaces.get(target.id, ())
        if not (mine and theirs) or gap_ft(mine, theirs) <= option.limit_ft:
            found = self._base_in(target, option, self.sights.code(self.c, mine, target, theirs, option.ranged), prone)
        bases[key] = found
        return found

    def _base_in(self, target: Combatant, option: AttackOption, code: int, prone: bool) -> AttackBase | None:
        """The odds inputs of the actor's attack in the situation ``code`` stands for.

        Within one decision they depend on the target, the option, the situation and a Trip only (not on the
        square itself: a what-if copy of the actor differs only in where it stands), so they are cached by those.
        """
        key = (target.id, option.index, code, prone)
        by_code = self._by_code
        if key in by_code:
            return by_code[key]
        d = self._defenses.get(target.id)
        if d is None:
            d = self._defenses[target.id] = Defenses.of_creature(target.creature, target.armor,
                                                                 self.conds[target.id])
        if prone:
            who = prone_copy(self.c, target)
            conds = (self.conds[self.c.id], who.condition_set)
        else:
            who, conds = target, (self.conds[self.c.id], self.conds[target.id])
        found = by_code[key] = base_for(self.state, self.c, who, option, situation_of(code), self.token, d, conds)
        return found

    def best_plan(self, target: str, setting: Setting, actions: int, *, full: bool, openers: bool,
                  drop_step: float) -> Plan | None:
        """The best plan against ``target`` in this setting, by :func:`~ashfall.ai.plans.plan_key`.

        A plan depends only on the odds inputs against the target (and, with openers, against it prone), its
        HP, MAP so far, rounds loaded, the action costs (the ruleset and the weapon's magazine and reload), the
        blocks allowed, the actions left, the openers' odds and the multi-target groups with their odds inputs
        and HP, so it is cached across decisions by those (:data:`_BEST`). Without square-specific extras (no
        groups, no openers) it is also cached within the decision by the odds inputs' identity.
        """
        key = None
        if not full:
            base = setting.bases[target]
            # the base by identity (no hashing of its 13 fields): each entry keeps its base alive, so an id
            # in a key stands for that one object; equal bases under two ids only miss
            key = (target, setting.option.index, actions, id(base))
            plans = self._plans
            if key in plans:
                return plans[key][1]
            costs = self.costs(setting.option)
            shared: tuple[object, ...] = (base, setting.hp[target], setting.map_steps, setting.ammo, self.token,
                                          costs.capacity, costs.reload, actions, setting.available, openers,
                                          drop_step)
        else:
            costs = self.costs(setting.option)
            shared = full_plan_inputs(target, setting, costs, actions, self.token, openers, drop_step)
        if shared in _BEST:
            known = _BEST[shared]
            found = None if known is None else Plan(known[0], setting.option, target, *known[1:])
            if key is not None:
                plans[key] = (base, found)
            return found
        best: Plan | None = None
        for p in plans_for(target, setting, costs, actions, openers=openers):
            if best is None or plan_key(p, drop_step) > plan_key(best, drop_step):
                best = p
        if key is not None:
            plans[key] = (base, best)
        if len(_BEST) >= _BEST_MAX:
            _BEST.clear()
        _BEST[shared] = None if best is None else (best.blocks, best.others, best.frac, best.capped, best.p_drop,
                                                   best.actions)
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
            own = mode_for(option.weapon) is option.mode
            for b, (activity, intent) in _ACTIVITY.items():
                if intent in self.state.rulebook.actions and activity_allowed(c, option, activity, self.state) and \
                        (own or b not in _OWN_MODE):
                    blocks.add(b)
            found = frozenset(blocks)
            self._available[option.index] = found
        return found

    def setting(self, square: Square | None, option: AttackOption, *, full: bool) -> Setting | None:
        """The plan setting at a square (None: no target can be attacked from there with this option).

        ``full`` adds what only the square the actor stands on needs: openers and multi-target groups.
        """
        bases = self._bases_at(square, option)
        if not bases:
            return None
        steps, ammo, available, plain = self._per_option(option)
        groups: dict[Block, dict[str, tuple[str, ...]]] = {}
        prone: dict[str, AttackBase] = {}
        odds: dict[tuple[Block, str], float] = {}
        if full:
            groups = multi_targets(self, option, bases, available)
            odds, prone, extra = openers(self, square, option, bases)
            available = available | extra
        else:
            available = plain
        return Setting(option, bases, prone, self.hp, groups, steps, ammo, available, odds)

    def _bases_at(self, square: Square | None, option: AttackOption) -> dict[str, AttackBase]:
        """:meth:`base` against every target that can be attacked from ``square`` with ``option``, in roster order.

        Cached per square and option for the decision (nobody changes the dict it returns).
        """
        key = (square, option.index)
        found = self._at.get(key)
        if found is not None:
            return found
        found = self._at[key] = {}
        mine, spaces, c, code, base_in = self.space_at(square), self.spaces, self.c, self.sights.code, self._base_in
        limit, ranged, index, by_code = option.limit_ft, option.ranged, option.index, self._by_code
        for t in self.targets:
            tid = t.id
            theirs = spaces.get(tid, ())
            gap = gap_ft(mine, theirs) if mine and theirs else -1
            if gap <= limit:
                known = (tid, index, sit := code(c, mine, t, theirs, ranged, gap), False)  # _base_in's cache, inline
                b = by_code[known] if known in by_code else base_in(t, option, sit, False)
                if b is not None:
                    found[tid] = b
        return found

    def _per_option(self, option: AttackOption) -> tuple[int, int | None, frozenset[Block], frozenset[Block]]:
        """MAP steps so far, rounds loaded, the blocks allowed, and those without multi-target blocks (cached)."""
        found = self._options.get(option.index)
        if found is None:
            available = self.available(option)
            found = self._options[option.index] = (map_steps(self.c, self.state), shots_left(self.c, option),
                                                   available, available - {Block.SWEEP, Block.FULL_AUTO})
        return found

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
        c, code, values = self.c, self.sights.code, self._enemy_values
        total = 0.0
        for e, options, theirs, walk in self._attackers():
            gap = gap_ft(mine, theirs) if mine and theirs else 0
            best = 0.0
            sit = -1  # every ranged option of the enemy shares one situation: read once, when first needed
            for option in options:
                if option.ranged:
                    if gap <= option.limit_ft:
                        if sit < 0:
                            sit = code(e, theirs, c, mine, True, gap)  # feet are the same either way round
                        value = values.get((e.id, option.index, sit))
                        if value is None:
                            value = self._enemy_value(e, option, sit)
                        if value > best:
                            best = value
                elif gap <= option.limit_ft + walk:
                    value = self._melee_value(e, option)
                    if value > best:
                        best = value
            total += best
        self._threat[square] = total
        return total

    def _enemy_value(self, e: Combatant, option: AttackOption, code: int) -> float:
        """Expected damage of one of an enemy's attacks on the actor in the situation ``code`` stands for.

        Within one decision it depends on the enemy, the option and the situation only (the actor's copy on
        another square differs only in where it stands), so it is cached by those.
        """
        key = (e.id, option.index, code)
        found = self._enemy_values.get(key)
        if found is None:
            b = base_for(self.state, e, self.c, option, situation_of(code), self.token, None,
                         (self.conds[e.id], self.conds[self.c.id]))
            found = self._enemy_values[key] = attack_value(b.key(1)).expected if b is not None else 0.0
        return found

    def _melee_value(self, e: Combatant, option: AttackOption) -> float:
        """Expected damage of one of an enemy's melee attacks on the actor where it stands.

        The square weighed hardly changes it: the enemy walks up to wherever the actor goes.
        """
        key = (e.id, option.index)
        found = self._melee.get(key)
        if found is None:
            b = self.enemy_base(e, option, self.c, self.spaces.get(self.c.id, ()))
            found = self._melee[key] = attack_value(b.key(1)).expected if b is not None else 0.0
        return found

    def enemy_base(self, e: Combatant, option: AttackOption, me: Combatant, mine: tuple[Square, ...],
                    mine_conditions: frozenset[Condition] | None = None) -> AttackBase | None:
        """The odds inputs of an enemy's attack on the actor standing on ``mine`` (with these conditions)."""
        sit = self.sights.situation(e, self.spaces[e.id], me, mine, option.ranged)
        conditions = self.conds[self.c.id] if mine_conditions is None else mine_conditions
        return base_for(self.state, e, me, option, sit, self.token, None, (self.conds[e.id], conditions))

    def _attackers(self) -> list[tuple[Combatant, tuple[AttackOption, ...], tuple[Square, ...], int]]:
        """Each enemy still standing: its attack options (loaded ranged weapons, melee), space and walking speed.

        Read once per decision: the same for every square weighed.
        """
        if self._attacking is None:
            self._attacking = []
            for e in self.state.enemies_of(self.c.id):
                if not e.is_active or not self.spaces.get(e.id):
                    continue
                options = tuple(o for o in attack_options(e, self.state) if not o.ranged or shots_left(e, o) != 0)
                if options:
                    self._attacking.append((e, options, self.spaces[e.id], speed_ft(e, self.state)))
        return self._attacking

    def aoo_damage(self, enemy_id: str) -> float:
        """Expected damage of one enemy's Attack of Opportunity on the actor: its first melee option, no MAP (G-41)."""
        found = self._aoo.get(enemy_id)
        if found is None:
            e = self.state.get(enemy_id)
            found = 0.0
            for option in attack_options(e, self.state):
                if not option.ranged:
                    b = self.enemy_base(e, option, self.c, self.spaces.get(self.c.id, ()))
                    found = attack_value(b.key(1)).expected if b is not None else 0.0
                    break
            self._aoo[enemy_id] = found
        return found

    def gap(self, a: str, b: str) -> int:
        """Feet between two creatures (0 when either is off the map)."""
        sa, sb = self.spaces.get(a, ()), self.spaces.get(b, ())
        return gap_ft(sa, sb) if sa and sb else 0

