"""``ashfall odds attack|turn|save|death-saves``: exact odds from :mod:`ashfall.odds`, printed by presenters.

A thin adapter: options become arguments of the odds functions. ``--resist/--vulnerable/--immune TYPE``
apply when TYPE matches the damage's type (``"1d10+3 slashing"``); a damage expression without a type
matches any TYPE, so ``--resist fire`` on a bare ``1d10+3`` applies.
"""

from typing import TYPE_CHECKING, Annotated

import typer

from ashfall.cli.common import JsonOption, RulesetOption, out, print_json, ruleset, user_errors

if TYPE_CHECKING:
    from ashfall.core.modifiers import Advantage
    from ashfall.odds import AttackSpec

# The odds modules (icepool) and their presenters are imported inside each command: `ashfall --help` and the
# other commands start without them.

odds_app = typer.Typer(help="Exact odds (icepool): attacks, turns, saves, death saves.", no_args_is_help=True)

Bonus = Annotated[int, typer.Option(help="Attack bonus before MAP and Power Strike.")]
Dv = Annotated[int, typer.Option("--dv", help="Target Defense Value.")]
Damage = Annotated[str, typer.Option(help='Damage on a hit, e.g. "1d10+3" or "1d10+3 slashing".')]
AdvFlag = Annotated[bool, typer.Option("--advantage", help="Roll 2d20, keep the higher (G-21).")]
DisFlag = Annotated[bool, typer.Option("--disadvantage", help="Roll 2d20, keep the lower; both flags cancel (G-21).")]
Dr = Annotated[int, typer.Option("--dr", help="Target Damage Reduction (applied before resistance, DR-3).")]
Resist = Annotated[list[str] | None, typer.Option(
    "--resist", help="Target resists this damage type (repeatable); untyped damage counts as any type.")]
Vulnerable = Annotated[list[str] | None, typer.Option("--vulnerable", help="Target is vulnerable to this type.")]
Immune = Annotated[list[str] | None, typer.Option("--immune", help="Target is immune to this type.")]


def _advantage(advantage: bool, disadvantage: bool) -> "Advantage":
    from ashfall.core.modifiers import adv, dis, resolve_advantage
    from ashfall.core.rule_ids import rule

    g21 = rule("G-21")
    sources = [adv(g21, "--advantage")] * advantage + [dis(g21, "--disadvantage")] * disadvantage
    return resolve_advantage(sources)


def _spec(bonus: int, dv: int, damage: str, advantage: "Advantage", dr: int, resist: list[str] | None,
          vulnerable: list[str] | None, immune: list[str] | None) -> "AttackSpec":
    from ashfall.core.dice import parse
    from ashfall.odds import AttackSpec, applies_to

    expr = parse(damage)
    return AttackSpec(
        bonus=bonus, dv=dv, damage=expr, advantage=advantage, dr=dr,
        resist=applies_to(expr.tag, resist or ()), vulnerable=applies_to(expr.tag, vulnerable or ()),
        immune=applies_to(expr.tag, immune or ()),
    )


@odds_app.command("attack")
def attack_command(
    bonus: Bonus,
    dv: Dv,
    damage: Damage,
    advantage: AdvFlag = False,
    disadvantage: DisFlag = False,
    attack_number: Annotated[int, typer.Option(help="1st, 2nd or 3rd attack roll this turn (MAP-1).")] = 1,
    power_strike: Annotated[bool, typer.Option("--power-strike", help="Power Strike: -2 to hit, +4 damage.")] = False,
    dr: Dr = 0,
    resist: Resist = None,
    vulnerable: Vulnerable = None,
    immune: Immune = None,
    ruleset_name: RulesetOption = "ashfall-2",
    as_json: JsonOption = False,
) -> None:
    """Hit, crit and damage odds of one attack against a DV."""
    from ashfall.cli import present
    from ashfall.odds import attack_odds

    with user_errors():
        rs = ruleset(ruleset_name)
        spec = _spec(bonus, dv, damage, _advantage(advantage, disadvantage), dr, resist, vulnerable, immune)
        odds = attack_odds(
            spec.bonus, spec.dv, spec.damage, ruleset=rs, advantage=spec.advantage, attack_number=attack_number,
            power_strike=power_strike, dr=spec.dr, resist=spec.resist, vulnerable=spec.vulnerable,
            immune=spec.immune,
        )
    if as_json:
        print_json(present.attack_json(odds, rs.name))
    else:
        present.render_attack(out(), odds)


@odds_app.command("turn")
def turn_command(
    bonus: Bonus,
    dv: Dv,
    damage: Damage,
    attacks: Annotated[
        int | None, typer.Option(help="That many Strikes at 0/-3/-6 (MAP-1); the default is one per action.")
    ] = None,
    power_strike_then_strike: Annotated[
        bool, typer.Option("--power-strike-then-strike", help="Power Strike at MAP 0, then a Strike at -3 (G-41).")
    ] = False,
    all_out: Annotated[bool, typer.Option("--all-out", help="All-Out Attack: 3 attacks at 0/-3/-6 (MAA-7).")] = False,
    hp: Annotated[int | None, typer.Option("--hp", help="Target HP: also give the chance to drop it.")] = None,
    advantage: AdvFlag = False,
    disadvantage: DisFlag = False,
    dr: Dr = 0,
    resist: Resist = None,
    vulnerable: Vulnerable = None,
    immune: Immune = None,
    ruleset_name: RulesetOption = "ashfall-2",
    as_json: JsonOption = False,
) -> None:
    """Total damage odds of a turn of attacks (and the chance to drop a target with --hp)."""
    from ashfall.cli import present
    from ashfall.odds import all_out_attack, strikes, turn_odds
    from ashfall.odds import power_strike_then_strike as power_strike_turn

    with user_errors():
        if (attacks is not None) + power_strike_then_strike + all_out > 1:
            raise ValueError("choose one of --attacks, --power-strike-then-strike and --all-out")
        rs = ruleset(ruleset_name)
        base = _spec(bonus, dv, damage, _advantage(advantage, disadvantage), dr, resist, vulnerable, immune)
        if power_strike_then_strike:
            specs = power_strike_turn(base)
        elif all_out:
            specs = all_out_attack(base, ruleset=rs)
        else:
            specs = strikes(base, attacks, ruleset=rs)
        odds = turn_odds(specs, hp, ruleset=rs)
    if as_json:
        print_json(present.turn_json(odds, rs.name))
    else:
        present.render_turn(out(), odds)



@odds_app.command("save")
def save_command(
    bonus: Annotated[int, typer.Option(help="Save bonus.")],
    dc: Annotated[int, typer.Option("--dc", help="DC to meet or exceed.")],
    advantage: AdvFlag = False,
    disadvantage: DisFlag = False,
    ruleset_name: RulesetOption = "ashfall-2",
    as_json: JsonOption = False,
) -> None:
    """Chance that a save meets or exceeds a DC (no automatic natural 20/1: G-44)."""
    from ashfall.cli import present
    from ashfall.odds import save_odds

    with user_errors():
        odds = save_odds(bonus, dc, _advantage(advantage, disadvantage), ruleset=ruleset(ruleset_name))
    if as_json:
        print_json(present.save_json(odds))
    else:
        present.render_save(out(), odds)


@odds_app.command("death-saves")
def death_saves_command(
    successes: Annotated[int, typer.Option(help="Successes already marked.")] = 0,
    failures: Annotated[int, typer.Option(help="Failures already marked.")] = 0,
    ruleset_name: RulesetOption = "ashfall-2",
    as_json: JsonOption = False,
) -> None:
    """Chance that death saves end stabilized, dead or revived by a natural 20."""
    from ashfall.cli import present
    from ashfall.odds import death_save_odds

    with user_errors():
        odds = death_save_odds(successes, failures, ruleset(ruleset_name))
    if as_json:
        print_json(present.death_json(odds))
    else:
        present.render_death(out(), odds)
