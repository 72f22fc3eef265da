"""``ashfall validate`` (encounter and content files, several at once) and ``ashfall schema`` (JSON Schema for editors).

``validate FILE…`` checks encounter files (or folders of them); ``validate --content FILE…`` checks content
files on their own: their schema, ids and every reference, against the shipped library (a shipped content file
is checked against the rest of the library, so its own ids do not clash with themselves). Each problem names
the file, the field path and the line; the exit code is 1 if any file has a problem.

``schema encounter|content|ruleset`` prints the JSON Schema generated from the models
(:mod:`ashfall.encounters.json_schema`). The loaders and pydantic models are imported when a command runs.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ashfall.cli.common import AllowDirOption, json_text, shown

if TYPE_CHECKING:
    from ashfall.content.library import Library

EXIT_PROBLEMS = 1
"""Exit code when a file has problems (as ``validate_command``)."""

def validate_command(
    paths: Annotated[list[Path], typer.Argument(help="Encounter files or folders of them (content files with "
                                                     "--content).")],
    content: Annotated[bool, typer.Option("--content", help="The files are content files: check each alone.")] = False,
    allow_dir: AllowDirOption = None,
) -> None:
    """Check encounter (or, with --content, content) files; problems name the file, field path and line."""
    code = 0
    for path in paths:
        one, lines = validate_content(path) if content else _validate_encounter(path, allow_dir or ())
        for line in lines:
            typer.echo(shown(line))
        code = max(code, one)
    raise typer.Exit(code)


def _validate_encounter(path: Path, allow_dirs: list[Path] | tuple[Path, ...]) -> tuple[int, list[str]]:
    from ashfall.encounters import validate_command as check  # the loader only when validating

    return check(path, allow_dirs)


def validate_content(path: Path) -> tuple[int, list[str]]:
    """Check one content file (or folder of them) alone: the exit code and the lines to print."""
    from ashfall.content.library import Library
    from ashfall.content.loader import content_files, library_root, load_content_files
    from ashfall.files.yaml_marks import InputError

    shipped = [p.resolve() for p in content_files(library_root())]
    mine = {p.resolve() for p in (content_files(path) if path.is_dir() else [path])}
    try:
        base = load_content_files([p for p in shipped if p not in mine], Library()) if mine & set(shipped) else None
        fragment = load_content_files([path], base)
    except InputError as error:
        lines = [str(p) for p in error.problems]
        count = len(error.problems)
        return EXIT_PROBLEMS, [*lines, f"{count} problem{'s' if count != 1 else ''} found"]
    return 0, [f"{path}: ok: {_counts(fragment)}"]


def _counts(library: "Library") -> str:
    parts = [(len(library.creature_map), "creature"), (len(library.weapon_map), "weapon"),
             (len(library.armor_map), "armor"), (len(library.shield_map), "shield"),
             (len(library.object_map), "object")]
    return ", ".join(f"{n} {name}{'s' if n != 1 and name != 'armor' else ''}" for n, name in parts if n) or "empty"


def schema_command(
    kind: Annotated[str, typer.Argument(help="encounter, content or ruleset (a house-rule file).")],
) -> None:
    """Print the JSON Schema of a kind of file, for editors (e.g. VS Code's YAML extension: yaml.schemas)."""
    from ashfall.cli.common import user_errors
    from ashfall.encounters.json_schema import json_schema

    with user_errors():
        schema = json_schema(kind)
    typer.echo(json_text(schema))


def register(app: typer.Typer) -> None:
    """Add ``validate`` and ``schema`` to a typer app."""
    app.command("validate")(validate_command)
    app.command("schema")(schema_command)
