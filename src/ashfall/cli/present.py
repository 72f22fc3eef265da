"""Presenters: turn odds and roll results into rich tables, bar charts and JSON-ready dicts.

Rules never format; this module does. It only reads result objects (exact fractions in, strings and
floats out) and never decides anything about the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ashfall.cli.common import shown
from ashfall.core.dice import Face, Roll, Rolled, RolledDice, RolledNeg, RolledOp
from ashfall.core.modifiers import Advantage, Modifier
from ashfall.odds import AttackOdds, DamageStep, DamageStepKind, DeathOdds, SaveOdds, TurnOdds

BAR_WIDTH = 40
MAX_CHART_ROWS = 30

_STEP_TEXT: dict[DamageStepKind, str] = {
    DamageStepKind.MINIMUM: "damage is never below {amount}",
    DamageStepKind.DR: "DR {amount} (minimum 0), before resistance",
    DamageStepKind.RESISTANCE: "resistance: half, rounded down",
    DamageStepKind.VULNERABILITY: "vulnerability: double",
    DamageStepKind.CANCELLED: "resistance and vulnerability cancel",
    DamageStepKind.IMMUNITY: "immunity: no damage",
}

_D20_TEXT: dict[Advantage, str] = {
    Advantage.NORMAL: "1d20",
    Advantage.ADVANTAGE: "2d20, keep the higher (advantage)",
    Advantage.DISADVANTAGE: "2d20, keep the lower (disadvantage)",
}


# ----- numbers -----


def exact(value: Fraction) -> str:
    """A fraction as text: ``3/5``, or ``2`` for a whole number."""
    return str(value)


def pct(value: Fraction) -> str:
    """A probability as a percentage with two decimals."""
    return f"{float(value) * 100:.2f}%"


def dist_floats(dist: Mapping[int, Fraction]) -> dict[str, float]:
    """A distribution with string keys and float probabilities, for JSON."""
    return {str(k): float(v) for k, v in dist.items()}


def dist_exact(dist: Mapping[int, Fraction]) -> dict[str, str]:
    """A distribution with string keys and exact fraction strings, for JSON."""
    return {str(k): exact(v) for k, v in dist.items()}


def _signed(value: int) -> str:
    return f"{value:+d}"


def _modifier_json(m: Modifier) -> dict[str, Any]:
    return {"label": m.label, "value": m.value, "kind": m.kind.value, "rule": m.rule}


def _step_json(step: DamageStep) -> dict[str, Any]:
    return {"step": step.kind.value, "amount": step.amount, "rule": step.rule, "text": step_text(step)}


def step_text(step: DamageStep) -> str:
    """A damage step in words."""
    return _STEP_TEXT[step.kind].format(amount=step.amount)


# ----- charts -----


def _buckets(dist: Mapping[int, Fraction], max_rows: int) -> list[tuple[str, Fraction]]:
    items = sorted(dist.items())
    if len(items) <= max_rows:
        return [(str(k), v) for k, v in items]
    low, high = items[0][0], items[-1][0]
    width = -(-(high - low + 1) // max_rows)
    rows: dict[int, Fraction] = {}
    for k, v in items:
        start = low + (k - low) // width * width
        rows[start] = rows.get(start, Fraction(0)) + v
    return [(f"{s}-{s + width - 1}", v) for s, v in sorted(rows.items())]


def bar_chart(dist: Mapping[int, Fraction], title: str, max_rows: int = MAX_CHART_ROWS) -> Table:
    """A small horizontal bar chart of a damage distribution (long ranges are grouped)."""
    rows = _buckets(dist, max_rows)
    top = max((v for _, v in rows), default=Fraction(1)) or Fraction(1)
    table = Table(title=title, show_header=True, box=None, pad_edge=False)
    table.add_column("damage", justify="right")
    table.add_column("", justify="left")
    table.add_column("chance", justify="right")
    for label, v in rows:
        table.add_row(label, Text("█" * max(round(BAR_WIDTH * v / top), 1 if v else 0), style="cyan"), pct(v))
    return table


# ----- attack -----


def attack_json(odds: AttackOdds, ruleset: str) -> dict[str, Any]:
    """One attack's odds as a JSON-ready dict: floats at the top level, exact strings under ``exact``."""
    return {
        "p_hit": float(odds.p_hit),
        "p_crit": float(odds.p_crit),
        "p_miss": float(odds.p_miss),
        "expected_damage": float(odds.expected_damage),
        "distribution": dist_floats(odds.distribution),
        "exact": {
            "p_hit": exact(odds.p_hit),
            "p_crit": exact(odds.p_crit),
            "p_miss": exact(odds.p_miss),
            "expected_damage": exact(odds.expected_damage),
            "distribution": dist_exact(odds.distribution),
        },
        "attack": {
            "bonus": odds.bonus,
            "total_bonus": odds.total_bonus,
            "dv": odds.dv,
            "advantage": odds.advantage.value,
            "damage": str(odds.damage),
            "crit_damage": str(odds.crit_damage),
        },
        "modifiers": [_modifier_json(m) for m in odds.attack_modifiers.applied],
        "damage_modifiers": [_modifier_json(m) for m in odds.damage_modifiers],
        "damage_steps": [_step_json(s) for s in odds.damage_steps],
        "rules": list(odds.rules),
        "ruleset": ruleset,
    }


def _breakdown(odds: AttackOdds) -> Table:
    table = Table(title="Attack breakdown", show_lines=False)
    table.add_column("step")
    table.add_column("value", justify="right")
    table.add_column("rule")
    table.add_row("d20", _D20_TEXT[odds.advantage], "G-21" if odds.advantage is not Advantage.NORMAL else "")
    table.add_row("attack bonus", _signed(odds.bonus), "")
    for m in odds.attack_modifiers.applied:
        table.add_row(m.label, _signed(m.value), m.rule)
    table.add_row("total bonus", _signed(odds.total_bonus), "")
    table.add_row("hit", f"total ≥ DV {odds.dv}", "ATK-4")
    if "CRIT-1" in odds.rules:
        table.add_row("natural 20", "hits and crits", "CRIT-1")
    if "CRIT-3" in odds.rules:
        table.add_row("natural 1", "misses", "CRIT-3")
    for m in odds.damage_modifiers:
        table.add_row(f"{m.label} damage", _signed(m.value), m.rule)
    table.add_row("damage on a hit", str(odds.damage), "")
    table.add_row("damage on a crit", str(odds.crit_damage), "CRIT-2, G-40")
    for step in odds.damage_steps:
        table.add_row("damage", step_text(step), step.rule)
    if "DR-3" in odds.rules:
        table.add_row("order", "DR before resistance/vulnerability", "DR-3")
    return table


def _summary(rows: Sequence[tuple[str, Fraction, bool]], title: str) -> Table:
    table = Table(title=title)
    table.add_column("")
    table.add_column("exact", justify="right")
    table.add_column("value", justify="right")
    for label, value, is_prob in rows:
        table.add_row(label, exact(value), pct(value) if is_prob else f"{float(value):.4g}")
    return table


def render_attack(console: Console, odds: AttackOdds) -> None:
    """Print the breakdown, the headline odds and the damage chart of one attack."""
    console.print(_breakdown(odds))
    console.print(_summary([("P(hit)", odds.p_hit, True), ("P(crit)", odds.p_crit, True),
                            ("P(miss)", odds.p_miss, True), ("expected damage", odds.expected_damage, False)],
                           "Odds"))
    console.print(bar_chart(odds.distribution, "Damage dealt (a miss is 0)"))


# ----- turn -----


def turn_json(odds: TurnOdds, ruleset: str) -> dict[str, Any]:
    """A turn's odds as a JSON-ready dict."""
    attacks = [
        {"label": spec.label, "rule": spec.rule, "attack_number": spec.attack_number, **attack_json(o, ruleset)}
        for spec, o in zip(odds.specs, odds.attacks, strict=True)
    ]
    out: dict[str, Any] = {
        "expected_damage": float(odds.expected_damage),
        "target_hp": odds.target_hp,
        "p_drop": float(odds.p_drop) if odds.p_drop is not None else None,
        "distribution": dist_floats(odds.distribution),
        "exact": {
            "expected_damage": exact(odds.expected_damage),
            "p_drop": exact(odds.p_drop) if odds.p_drop is not None else None,
            "distribution": dist_exact(odds.distribution),
        },
        "attacks": attacks,
        "rules": list(odds.rules),
        "ruleset": ruleset,
    }
    return out


def render_turn(console: Console, odds: TurnOdds) -> None:
    """Print each attack's line, the turn's totals and its damage chart."""
    table = Table(title="Attacks this turn")
    for col in ("#", "attack", "bonus", "modifiers", "P(hit)", "P(crit)", "expected"):
        table.add_column(col, justify="left" if col in ("attack", "modifiers") else "right")
    for spec, o in zip(odds.specs, odds.attacks, strict=True):
        mods = ", ".join(f"{m.label} {_signed(m.value)} ({m.rule})" for m in o.attack_modifiers.applied)
        table.add_row(str(spec.attack_number), f"{spec.label} ({spec.rule})", _signed(o.total_bonus), mods or "—",
                      pct(o.p_hit), pct(o.p_crit), f"{float(o.expected_damage):.3f}")
    console.print(table)
    rows: list[tuple[str, Fraction, bool]] = [("expected total damage", odds.expected_damage, False)]
    if odds.p_drop is not None:
        rows.append((f"P(total ≥ {odds.target_hp} HP: drops to 0, DEATH-1)", odds.p_drop, True))
    console.print(_summary(rows, "Turn"))
    console.print(bar_chart(odds.distribution, "Total damage this turn"))
    console.print(Text(f"rules: {', '.join(odds.rules)}", style="dim"))


# ----- saves and death saves -----


def save_json(odds: SaveOdds) -> dict[str, Any]:
    """A save's odds as a JSON-ready dict."""
    return {
        "p_success": float(odds.p_success),
        "p_failure": float(odds.p_failure),
        "exact": {"p_success": exact(odds.p_success), "p_failure": exact(odds.p_failure)},
        "bonus": odds.bonus,
        "dc": odds.dc,
        "advantage": odds.advantage.value,
        "natural_20_and_1_automatic": odds.natural_rules,
        "rules": list(odds.rules),
    }


def render_save(console: Console, odds: SaveOdds) -> None:
    """Print a save's odds."""
    note = "natural 20/1 are automatic" if odds.natural_rules else "no automatic natural 20/1 (G-44)"
    console.print(f"{_D20_TEXT[odds.advantage]} {_signed(odds.bonus)} vs DC {odds.dc}, meet or exceed (G-45); {note}")
    console.print(_summary([("P(success)", odds.p_success, True), ("P(failure)", odds.p_failure, True)], "Save"))


def death_json(odds: DeathOdds) -> dict[str, Any]:
    """Death-save odds as a JSON-ready dict."""
    return {
        "p_stabilized": float(odds.p_stabilized),
        "p_dead": float(odds.p_dead),
        "p_revived": float(odds.p_revived),
        "expected_saves": float(odds.expected_saves),
        "exact": {
            "p_stabilized": exact(odds.p_stabilized),
            "p_dead": exact(odds.p_dead),
            "p_revived": exact(odds.p_revived),
            "expected_saves": exact(odds.expected_saves),
        },
        "successes": odds.successes,
        "failures": odds.failures,
        "rules": list(odds.rules),
    }


def render_death(console: Console, odds: DeathOdds) -> None:
    """Print death-save odds."""
    console.print(f"From {odds.successes} success(es) and {odds.failures} failure(s):")
    console.print(_summary([
        ("stabilized (DEATH-3)", odds.p_stabilized, True),
        ("dead (DEATH-3)", odds.p_dead, True),
        ("revived by a natural 20 (DEATH-7)", odds.p_revived, True),
        ("expected saves still to roll", odds.expected_saves, False),
    ], "Death saves"))
    console.print(Text(f"rules: {', '.join(odds.rules)}", style="dim"))


# ----- rolls and rules -----


def _terms(node: Rolled) -> list[RolledDice]:
    if isinstance(node, RolledDice):
        return [node]
    if isinstance(node, RolledOp):
        return _terms(node.left) + _terms(node.right)
    if isinstance(node, RolledNeg):
        return _terms(node.value)
    return []


def _face_json(f: Face) -> dict[str, Any]:
    return {"sides": f.sides, "value": f.value, "kept": f.kept, "exploded": f.exploded}


def roll_json(result: Roll, seed: int) -> dict[str, Any]:
    """A roll as a JSON-ready dict with every face, kept and dropped."""
    return {
        "expression": str(result.expr),
        "seed": seed,
        "total": result.total,
        "terms": [{"dice": str(t.dice), "total": t.total, "faces": [_face_json(f) for f in t.faces]}
                  for t in _terms(result.tree)],
        "faces": [_face_json(f) for f in result.faces],
    }


def _face_text(f: Face) -> Text:
    label = f"{f.value}{'!' if f.exploded else ''}"
    return Text(label, style="bold") if f.kept else Text(f"({label})", style="dim strike")


def render_roll(console: Console, result: Roll, seed: int) -> None:
    """Print every die term with its faces (dropped in parentheses), the total and the seed to replay it."""
    console.print(Text(shown(f"{result.expr}"), style="bold"))
    any_dropped = False
    for term in _terms(result.tree):
        line = Text(f"  {term.dice}: ")
        line.append_text(Text(" ").join(_face_text(f) for f in term.faces))
        line.append(f"  = {term.total}")
        any_dropped = any_dropped or any(not f.kept for f in term.faces)
        console.print(line)
    console.print(Text(f"total: {result.total}", style="bold green"))
    if any_dropped:
        console.print(Text("(n) = dropped or rerolled away, n! = exploded", style="dim"))
    console.print(Text(f"seed: {seed}  (replay with --seed {seed})", style="dim"))
