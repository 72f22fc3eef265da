"""Turn plans: the sequences of attack actions a creature could spend its remaining actions on, valued exactly.

A plan is a short sequence of :class:`Block` s (Strike, Power Strike, All-Out Attack, Sweeping Strike,
Full Auto Burst, Extra Attack, optionally opened by Feint, Trip or Aim, with Reloads where the magazine
runs dry) against one primary target with one attack option, from one square. Each attack becomes an
:class:`~ashfall.ai.odds_cache.AttackKey` with its MAP position (MAP-1, G-41, E-01; All-Out Attack's own
0/-3/-6, MAP-5), and the plan's worth is read off the cached exact odds: per target the mean damage
capped at its remaining HP and the chance to drop it (DEATH-1). A Feint or Trip is worth its success
chance (an exact d20 contest) times the plan with advantage / a prone target plus the rest times the
plan without. The AI re-plans after every action, so only a plan's first block is ever submitted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache

from ashfall.ai.odds_cache import AttackKey, turn_value
from ashfall.ai.profile import AttackBase, AttackOption
from ashfall.core.modifiers import Advantage
from ashfall.families.attacks.rules_activities import Activity


class Block(Enum):
    """One step of a plan (its first intent is what the AI submits)."""

    __hash__ = object.__hash__  # members are singletons: identity hashing is exact and fast (hot dict keys)

    STRIKE = "strike"
    EXTRA = "extra-attack"
    POWER = "power-strike"
    ALL_OUT = "all-out-attack"
    SWEEP = "sweeping-strike"
    FULL_AUTO = "full-auto-burst"
    FEINT = "feint"
    TRIP = "trip"
    AIM = "aim"
    RELOAD = "reload"


ATTACK_BLOCKS = (Block.STRIKE, Block.EXTRA, Block.POWER, Block.ALL_OUT, Block.SWEEP, Block.FULL_AUTO)
OPENERS = (Block.FEINT, Block.TRIP, Block.AIM)
ACTIVITY_OF = {Block.POWER: Activity.POWER_STRIKE, Block.ALL_OUT: Activity.ALL_OUT, Block.SWEEP: Activity.SWEEPING,
               Block.FULL_AUTO: Activity.FULL_AUTO}


@dataclass(frozen=True, slots=True)
class Costs:
    """Actions each block costs and what it needs, from the ruleset (MAA-1, G-31)."""

    block: Mapping[Block, int]
    all_out_attacks: int
    ammo_per_target: int
    capacity: int | None
    reload: int
    multi_bonus: Mapping[Block, int]
    aim_bonus: int


@dataclass(frozen=True, slots=True)
class Setting:
    """Everything a plan's value depends on at one square, for one attack option.

    Attributes:
        option: The attack option.
        bases: The odds inputs against each target that can be attacked from the square.
        prone_bases: The same against a prone target (after a Trip), where computed.
        hp: Each target's remaining HP (temporary HP included).
        group: Extra targets a multi-target block takes with each primary target, best first.
        map_steps: Attacks already made this turn that count for MAP.
        ammo: Rounds loaded (None: no ammunition counted).
        available: The blocks the rules allow with this option here.
        opener_odds: The success chance of each opener against each target.
    """

    option: AttackOption
    bases: Mapping[str, AttackBase]
    prone_bases: Mapping[str, AttackBase]
    hp: Mapping[str, int]
    group: Mapping[Block, Mapping[str, tuple[str, ...]]]
    map_steps: int
    ammo: int | None
    available: frozenset[Block]
    opener_odds: Mapping[tuple[Block, str], float]


@dataclass(frozen=True, slots=True)
class Plan:
    """A valued plan.

    Attributes:
        blocks: Its blocks in order (reloads included).
        option: The attack option.
        target: The primary target.
        others: The further targets of its first multi-target block.
        frac: Expected fraction of the targets' remaining HP removed (summed over targets).
        capped: Expected damage capped at each target's HP (summed).
        p_drop: Chance the primary target drops this turn.
        actions: Actions it spends.
    """

    blocks: tuple[Block, ...]
    option: AttackOption
    target: str
    others: tuple[str, ...]
    frac: float
    capped: float
    p_drop: float
    actions: int


def attack_sequences(actions: int, costs: Costs, available: frozenset[Block]) -> tuple[tuple[Block, ...], ...]:
    """Every sequence of attack blocks that fits in ``actions`` and leaves no action a Strike could use."""
    priced = tuple((b, costs.block[b]) for b in ATTACK_BLOCKS if b in available)
    return _sequences(actions, priced)


@lru_cache(maxsize=1024)
def _sequences(actions: int, priced: tuple[tuple[Block, int], ...]) -> tuple[tuple[Block, ...], ...]:
    """The sequences for blocks with these action costs (a pure function of its arguments: cached)."""
    usable = [(b, cost) for b, cost in priced if cost <= actions]
    if not usable:
        return ((),)
    return tuple((b, *rest) for b, cost in usable for rest in _sequences(actions - cost, priced))


Attacks = dict[str, list[AttackKey]]


def _walk(blocks: Sequence[Block], target: str, s: Setting, costs: Costs, actions: int, *, aimed: bool = False,
          prone: bool = False) -> tuple[Attacks, tuple[Block, ...], int, tuple[str, ...]]:
    """The attacks a sequence makes: keys by target, the blocks actually taken, actions spent, multi targets."""
    bases = s.prone_bases if prone else s.bases
    base = bases[target]
    attacks: Attacks = {target: []}
    taken: list[Block] = []
    steps, ammo, spent, first = s.map_steps, s.ammo, 0, True
    others: tuple[str, ...] = ()
    for block in blocks:
        need = _ammo_need(block, costs, len(s.group.get(block, {}).get(target, ())) + 1)
        if ammo is not None and ammo < need:
            if costs.capacity is None or costs.capacity < need or spent + costs.reload + costs.block[block] > actions:
                break
            taken.append(Block.RELOAD)
            spent += costs.reload
            ammo = costs.capacity
        if spent + costs.block[block] > actions:
            break
        spent += costs.block[block]
        taken.append(block)
        if ammo is not None:
            ammo -= need
        extra = costs.aim_bonus if aimed and first else 0
        keys = attacks[target]
        if block is Block.STRIKE:
            keys.append(base.key(steps + 1, extra=extra, first=first))
            steps += 1
        elif block is Block.EXTRA:
            keys.append(base.key(steps + 1, extra=extra, first=first))
            keys.append(base.key(steps + 1))
            steps += 1
        elif block is Block.POWER:
            keys.append(base.key(steps + 1, power=True, extra=extra, first=first))
            steps += 1
        elif block is Block.ALL_OUT:
            keys.extend(base.key(n + 1, extra=extra if n == 0 else 0, first=first and n == 0)
                        for n in range(costs.all_out_attacks))
            steps += costs.all_out_attacks
        else:
            group = s.group[block][target]
            if not others:
                others = group
            bonus = costs.multi_bonus[block]
            keys.append(base.key(steps + 1, extra=bonus + extra, first=first))
            for other in group:
                attacks.setdefault(other, []).append(
                    bases.get(other, s.bases[other]).key(steps + 1, extra=bonus, dice_only=block is Block.SWEEP))
            steps += 1
        first = False
    return attacks, tuple(taken), spent, others


def _ammo_need(block: Block, costs: Costs, targets: int) -> int:
    if block is Block.ALL_OUT:
        return costs.all_out_attacks
    if block is Block.EXTRA:
        return 2
    if block is Block.FULL_AUTO:
        return costs.ammo_per_target * targets
    return 1


def _score(attacks: Attacks, hp: Mapping[str, int], primary: str) -> tuple[float, float, float]:
    """Sum of capped fractions, sum of capped damage, and the primary target's drop chance."""
    frac = capped = p_drop = 0.0
    for tid, keys in attacks.items():
        if not keys:
            continue
        v = turn_value(tuple(keys), hp[tid])
        frac += v.capped / hp[tid]
        capped += v.capped
        if tid == primary:
            p_drop = v.p_drop
    return frac, capped, p_drop


@dataclass(frozen=True, slots=True)
class Draft:
    """A plan before it is valued: its blocks and the attacks they make, which no target's HP changes.

    :meth:`valued` scores it against the targets' remaining HP. Valuing a draft at several HP values (the
    fight kernel's plan tables, one row per HP value) walks its blocks once.

    Attributes:
        blocks: Its blocks in order (an opener first, reloads included).
        option: The attack option.
        target: The primary target.
        others: The further targets of its first multi-target block.
        attacks: The attacks by target (an opened plan's: if the opener fails).
        actions: Actions it spends.
        opened: An opened plan's success chance and its attacks if the opener succeeds (None: no opener).
    """

    blocks: tuple[Block, ...]
    option: AttackOption
    target: str
    others: tuple[str, ...]
    attacks: Attacks
    actions: int
    opened: tuple[float, Attacks] | None = None

    def valued(self, hp: Mapping[str, int]) -> Plan:
        """The plan, valued against the targets' remaining HP (temporary HP included)."""
        if self.opened is None:
            frac, capped, p_drop = _score(self.attacks, hp, self.target)
            return Plan(self.blocks, self.option, self.target, self.others, frac, capped, p_drop, self.actions)
        p, win = self.opened
        f_frac, f_capped, f_drop = _score(self.attacks, hp, self.target)
        w_frac, w_capped, w_drop = _score(win, hp, self.target)
        return Plan(self.blocks, self.option, self.target, (), p * w_frac + (1 - p) * f_frac,
                    p * w_capped + (1 - p) * f_capped, p * w_drop + (1 - p) * f_drop, self.actions)


def plans_for(target: str, s: Setting, costs: Costs, actions: int, *, openers: bool = True) -> Iterator[Plan]:
    """Every plan against ``target`` with this setting's option, spending up to ``actions``."""
    for draft in drafts_for(target, s, costs, actions, openers=openers):
        yield draft.valued(s.hp)


def drafts_for(target: str, s: Setting, costs: Costs, actions: int, *, openers: bool = True) -> Iterator[Draft]:
    """:func:`plans_for`'s plans before they are valued, in the same order (``s.hp`` is not read)."""
    if target not in s.bases or actions <= 0:
        return
    available = frozenset(b for b in s.available if b not in (Block.SWEEP, Block.FULL_AUTO)
                          or s.group.get(b, {}).get(target))
    for seq in attack_sequences(actions, costs, available):
        attacks, taken, spent, others = _walk(seq, target, s, costs, actions)
        if not spent or not any(attacks.values()):
            continue
        yield Draft(taken, s.option, target, others, attacks, spent)
    if not openers:
        return
    for opener in OPENERS:
        p = s.opener_odds.get((opener, target))
        if p is None or opener not in s.available or actions < 2:
            continue
        yield from _opened(opener, p, target, s, costs, actions - costs.block[opener])


def _opened(opener: Block, p: float, target: str, s: Setting, costs: Costs, actions: int) -> Iterator[Draft]:
    """Plans after a Feint (advantage on the next melee attack, FNT-3), a Trip (prone target) or Aim (E-05)."""
    if opener is Block.TRIP and target not in s.prone_bases:
        return
    simple = s.available - {Block.SWEEP, Block.FULL_AUTO}
    for seq in attack_sequences(actions, costs, simple):
        fail, taken, spent, _ = _walk(seq, target, s, costs, actions)
        if not spent:
            continue
        if opener is Block.FEINT:
            base = s.bases[target]
            win = _walk(seq, target, _with_first_advantage(s, target, base), costs, actions)[0]
        else:
            win = _walk(seq, target, s, costs, actions, aimed=opener is Block.AIM, prone=opener is Block.TRIP)[0]
        yield Draft((opener, *taken), s.option, target, (), fail, spent + costs.block[opener], (p, win))


def best_valued(drafts: Sequence[Draft], hp: Mapping[str, int], drop_step: float) -> Plan | None:
    """The best of the drafts valued at ``hp`` by :func:`plan_key` (the first of equals), as the AI picks a plan."""
    best: Plan | None = None
    best_key = None
    for draft in drafts:
        p = draft.valued(hp)
        key = plan_key(p, drop_step)
        if best_key is None or key > best_key:
            best, best_key = p, key
    return best


_BOOSTED = {Advantage.DISADVANTAGE.value: Advantage.NORMAL.value, Advantage.NORMAL.value: Advantage.ADVANTAGE.value,
            Advantage.ADVANTAGE.value: Advantage.ADVANTAGE.value}
"""A net advantage state with one more advantage source (G-21: one advantage cancels disadvantage)."""


def _with_first_advantage(s: Setting, target: str, base: AttackBase) -> Setting:
    boosted = _BOOSTED[base.first_advantage]
    bases = dict(s.bases)
    bases[target] = replace(base, first_advantage=boosted)
    return replace(s, bases=bases)


def plan_key(plan: Plan, drop_step: float) -> tuple[int, float, float, int]:
    """How plans against one target compare.

    The likelier drop first (in steps of ``drop_step``: focus fire), then the expected share of HP removed,
    then the exact drop chance, then fewer actions.
    """
    tier = int(plan.p_drop / drop_step + 1e-9) if drop_step > 0 else 0
    return (tier, round(plan.frac, 9), round(plan.p_drop, 9), -plan.actions)


def full_plan_inputs(target: str, s: Setting, costs: Costs, actions: int, token: int, openers: bool,
                     drop_step: float) -> tuple[object, ...]:
    """Everything the best plan against ``target`` in a setting with openers and groups depends on.

    What :func:`plans_for` reads of the setting for this target: its odds inputs (upright
    and prone), HP, each block's further targets with their odds inputs and HP, each opener's odds, MAP so
    far, rounds loaded and the blocks allowed; then the action costs (the ruleset by its token, the weapon's
    magazine and reload), the actions left, whether openers count and the drop step. Starts with a tag, so it
    never equals a plain setting's key.
    """
    groups = tuple((b, g[target]) for b, g in s.group.items() if target in g)
    members = tuple(dict.fromkeys(o for _, g in groups for o in g))
    return ("full", s.bases[target], s.prone_bases.get(target), s.hp[target], groups,
            tuple(s.bases[o] for o in members), tuple(s.hp[o] for o in members),
            tuple(s.opener_odds.get((op, target)) for op in OPENERS), s.map_steps, s.ammo, token, costs.capacity,
            costs.reload, actions, s.available, openers, drop_step)
