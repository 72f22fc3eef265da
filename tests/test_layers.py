"""The layers hold: every module imports only its own layer or lower ones, and nothing imports in a circle.

Top-level layers, lowest first: ``core, files`` <- ``ruleset, content, grid`` <- ``rules`` <- ``engine, odds``
<- ``ai, encounters, explain, kernel`` <- ``sim`` <- ``cli, web``. A rule family (``ashfall.families.<family>``) is a
vertical slice whose layers are modules, read from the module's name: ``rules``/``rules_*`` sit at the rules layer
(pure rules: no engine code, no AI), ``engine``/``engine_*`` and ``moves``/``moves_*`` at the engine layer
(no AI), ``ai``/``ai_*`` at the AI layer. Family packages import nothing, so importing a family's pure rules
never loads its engine part. Imports are read from the source, nothing is imported to check them: for the
layers every import counts (top-level, function-local and type-checking ones); an import cycle is one that
loading the modules would run into (top-level imports).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("core", "files"),
    ("ruleset", "content", "grid"),
    ("rules",),
    ("engine", "odds"),
    ("ai", "encounters", "explain", "kernel"),
    ("sim",),
    ("cli", "web"),
)
"""Top-level packages by layer, lowest first: a module may import its own layer or a lower one."""
RANK = {package: i for i, layer in enumerate(LAYERS) for package in layer}
FAMILY_LAYERS = {"rules": "rules", "engine": "engine", "moves": "engine", "ai": "ai"}
"""A family module's layer, by the first word of its name."""
FAMILIES = "families"


@dataclass(frozen=True, slots=True)
class Import:
    """One import of an Ashfall module: who imports what, where, and how."""

    source: str
    target: str
    line: int
    kind: str  # "top", "local" (inside a function) or "typing" (under TYPE_CHECKING)


def module_name(path: Path) -> str:
    """The dotted module of a file under ``src``."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def _targets(node: ast.Import | ast.ImportFrom, source: str, is_package: bool) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names if a.name.split(".")[0] == "ashfall")
        return
    if node.level:
        base = source.split(".") if is_package else source.split(".")[:-1]
        module = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    if module.split(".")[0] != "ashfall":
        return
    for alias in node.names:
        sub = f"{module}.{alias.name}"
        yield sub if sub in MODULES else module


def imports_of(source: str, path: Path) -> list[Import]:
    """Every Ashfall import in one module, with its kind."""
    found: list[Import] = []
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            child_kind = kind
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                child_kind = "local"
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for stmt in child.body:
                    visit(ast.Module(body=[stmt], type_ignores=[]), "typing")
                for stmt in child.orelse:
                    visit(ast.Module(body=[stmt], type_ignores=[]), kind)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.extend(Import(source, t, child.lineno, child_kind) for t in _targets(child, source, is_package))
            else:
                visit(child, child_kind)

    visit(ast.parse(path.read_text()), "top")
    return found


ALL_IMPORTS = [imp for name, path in MODULES.items() for imp in imports_of(name, path)]


def family_of(module: str) -> str | None:
    """The family a module belongs to, or None outside the families."""
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[1] == FAMILIES else None


def layer_of(module: str) -> str | None:
    """The layer a module sits at (a top-level package's name, or a family module's layer); None if unknown.

    The root package and the family packages themselves have no layer: they import nothing.
    """
    parts = module.split(".")
    if len(parts) < 2 or (parts[1] == FAMILIES and len(parts) <= 3):
        return None
    if parts[1] == FAMILIES:
        return FAMILY_LAYERS.get(parts[3].split("_")[0])
    return parts[1] if parts[1] in RANK else None


def layer_violations(imports: Iterable[Import]) -> list[str]:
    """Imports of a higher layer than the importer's."""
    bad = []
    for imp in imports:
        mine, theirs = layer_of(imp.source), layer_of(imp.target)
        if mine is None or theirs is None:
            continue
        if RANK[theirs] > RANK[mine]:
            bad.append(f"{imp.source} ({mine}) imports {imp.target} ({theirs}), line {imp.line} [{imp.kind}]")
    return bad


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def connect(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(set(edges) | {w for ws in edges.values() for w in ws}):
        if node not in index:
            connect(node)
    return found


def module_graph(imports: Iterable[Import]) -> dict[str, set[str]]:
    """Module -> the modules it imports when it loads (not inside functions, not for type checking only).

    Importing ``a.b.c`` first runs the packages ``a`` and ``a.b``: those count too, unless they are the importer's
    own packages (already loading when it runs). A family module that imports ``ashfall.engine.events`` while the
    ``ashfall.engine`` package imports that family is a cycle: imported first, the family module fails.
    """
    edges: dict[str, set[str]] = defaultdict(set)
    for imp in imports:
        if imp.kind != "top":
            continue
        parts = imp.target.split(".")
        packages = [".".join(parts[:n]) for n in range(2, len(parts))]
        for target in [p for p in packages if p in MODULES] + [imp.target]:
            if imp.source != target and not imp.source.startswith(target + "."):
                edges[imp.source].add(target)
    return edges


def slice_graph(imports: Iterable[Import]) -> dict[str, set[str]]:
    """``family:layer`` -> the other families' slices it imports."""
    edges: dict[str, set[str]] = defaultdict(set)
    for imp in imports:
        mine, theirs = family_of(imp.source), family_of(imp.target)
        if mine and theirs and mine != theirs:
            edges[f"{mine}:{layer_of(imp.source)}"].add(f"{theirs}:{layer_of(imp.target)}")
    return edges


# ----- the checks on the source tree -----


def test_layers__every_module_sits_at_a_known_layer() -> None:
    unknown = [m for m in MODULES if m != "ashfall" and layer_of(m) is None
               and not (m.split(".")[1] == FAMILIES and len(m.split(".")) <= 3)]
    assert unknown == [], "modules at no layer (a new top-level package, or a family module not named by layer):\n" \
        + "\n".join(unknown)


def test_layers__modules_import_only_their_own_layer_or_lower_ones() -> None:
    bad = layer_violations(ALL_IMPORTS)
    assert bad == [], "imports of a higher layer:\n" + "\n".join(bad)


def test_families__pure_rules_import_no_engine_code_and_the_engine_part_no_ai() -> None:
    bad = layer_violations(i for i in ALL_IMPORTS if family_of(i.source))
    assert bad == [], "family modules importing above their layer:\n" + "\n".join(bad)


def test_families__family_packages_import_nothing() -> None:
    packages = [m for m in MODULES if m.split(".")[1:2] == [FAMILIES] and len(m.split(".")) <= 3]
    assert f"ashfall.{FAMILIES}" in packages
    heavy = [f"{i.source} imports {i.target}" for i in ALL_IMPORTS if i.source in packages]
    assert heavy == [], "family packages must import nothing, so their pure rules load alone:\n" + "\n".join(heavy)


def test_imports__no_module_is_imported_by_a_string() -> None:
    found = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                called = ast.unparse(node.func)
                if called.endswith(("import_module", "__import__", "spec_from_file_location")):
                    found.append(f"{name}:{node.lineno} {called}(...)")
    assert found == [], "string imports hide dependencies from mypy and from this test:\n" + "\n".join(found)


def test_imports__no_two_modules_import_each_other_when_they_load() -> None:
    assert cycles(module_graph(ALL_IMPORTS)) == []


def test_families__no_two_family_slices_depend_on_each_other() -> None:
    assert cycles(slice_graph(ALL_IMPORTS)) == []


CORE_ENGINE_EXEMPT = frozenset({"ashfall.engine", "ashfall.engine.family_intents", "ashfall.engine.catalog"})
"""The engine modules that may name families: the public API re-exports their intents (served on first use from
``family_intents``), and the catalog is the one place that lists the shipped families."""
HOOK_SIGNATURES = frozenset({
    ("ashfall.engine.rulebook", "ashfall.families.attacks.engine"),
    ("ashfall.engine.rulebook", "ashfall.families.attacks.engine_area"),
    ("ashfall.engine.rulebook", "ashfall.families.hazards.engine_kit"),
    ("ashfall.engine.rulebook", "ashfall.families.movement.moves"),
    ("ashfall.engine.rulebook", "ashfall.families.objects.engine"),
    ("ashfall.engine.rulebook", "ashfall.families.senses.engine"),
})
"""Type-checking-only imports of the hook signatures the rulebook's draft methods are annotated with (some name
family types: AttackMode, AttackExtra, ObjectHarm). Never loaded at run time, so the core calls no family through
them; moving these signatures into the core is the remaining step."""


def core_engine_family_imports(imports: Iterable[Import]) -> list[str]:
    """Imports of a family module by a core engine module (every ``ashfall.engine`` module but the exempt ones)."""
    return [f"{i.source} imports {i.target}, line {i.line} [{i.kind}]" for i in imports
            if (i.source == "ashfall.engine" or i.source.startswith("ashfall.engine."))
            and i.source not in CORE_ENGINE_EXEMPT and family_of(i.target) is not None
            and not (i.kind == "typing" and (i.source, i.target) in HOOK_SIGNATURES)]


def test_core_engine__imports_no_family_module() -> None:
    # The core (turns, action economy, event application, reaction offering, harm, state) names no family: what a
    # family adds it installs as a rulebook hook, and the vocabulary the core stores lives in core/ or rules/.
    bad = core_engine_family_imports(ALL_IMPORTS)
    assert bad == [], "core engine modules importing a family (install a hook, or move the vocabulary down):\n" \
        + "\n".join(bad)


# ----- the checker itself catches what it must -----


def _imp(source: str, target: str) -> Import:
    return Import(source, target, 1, "top")


def test_checker__flags_pure_rules_importing_engine_and_engine_importing_ai() -> None:
    bad = layer_violations([
        _imp("ashfall.families.underwater.rules", "ashfall.families.underwater.engine"),
        _imp("ashfall.families.underwater.engine", "ashfall.families.underwater.ai"),
        _imp("ashfall.families.underwater.rules_breath", "ashfall.engine.state"),
        _imp("ashfall.rules.checks", "ashfall.families.attacks.moves_strike"),
        _imp("ashfall.sim.runner", "ashfall.cli.app"),
    ])
    assert len(bad) == 5


def test_checker__allows_lower_layers_and_other_families_rules() -> None:
    assert layer_violations([
        _imp("ashfall.families.underwater.rules", "ashfall.rules.damage"),
        _imp("ashfall.families.underwater.engine", "ashfall.families.underwater.rules"),
        _imp("ashfall.families.hazards.ai", "ashfall.ai.turn"),
        _imp("ashfall.sim.setups", "ashfall.ai"),
        _imp("ashfall.ai.turn", "ashfall.encounters.spec"),
    ]) == []


def test_checker__finds_a_cycle_through_three_modules_and_slices() -> None:
    graph = module_graph([_imp("ashfall.a", "ashfall.b"), _imp("ashfall.b", "ashfall.c"),
                          _imp("ashfall.c", "ashfall.a"), _imp("ashfall.c", "ashfall.d")])
    assert cycles(graph) == [["ashfall.a", "ashfall.b", "ashfall.c"]]
    slices = slice_graph([_imp("ashfall.families.spells.moves", "ashfall.families.psionics.moves"),
                          _imp("ashfall.families.psionics.moves", "ashfall.families.spells.moves"),
                          _imp("ashfall.families.psionics.rules", "ashfall.families.spells.rules")])
    assert cycles(slices) == [["psionics:engine", "spells:engine"]]


def test_checker__reads_layers_from_family_module_names() -> None:
    assert [layer_of(m) for m in ("ashfall.families.hazards.rules_fire", "ashfall.families.hazards.engine_gas",
                                  "ashfall.families.hazards.moves", "ashfall.families.hazards.ai",
                                  "ashfall.families.hazards.helpers", "ashfall.families.hazards")] == [
        "rules", "engine", "engine", "ai", None, None]


def test_checker__flags_a_core_engine_module_importing_a_family() -> None:
    assert len(core_engine_family_imports([
        _imp("ashfall.engine.turns", "ashfall.families.dying.rules"),
        Import("ashfall.engine.reactions", "ashfall.families.morale.engine", 1, "local"),
        Import("ashfall.engine.state", "ashfall.families.morale.rules", 1, "typing"),
    ])) == 3
    assert core_engine_family_imports([
        _imp("ashfall.engine.catalog", "ashfall.families.dying.moves"),
        _imp("ashfall.engine", "ashfall.families.attacks.moves_strike"),
        _imp("ashfall.families.dying.engine", "ashfall.engine.turns"),
        Import("ashfall.engine.rulebook", "ashfall.families.senses.engine", 1, "typing"),
    ]) == []


def test_encounters__the_building_names_it_serves_on_first_read_are_the_building_modules() -> None:
    import ashfall.encounters as encounters
    from ashfall.encounters import building

    listed = {imp.target for imp in ALL_IMPORTS if imp.source == "ashfall.encounters" and imp.kind == "typing"}
    assert listed == {"ashfall.encounters.building"}
    for name in ("BuildInfo", "ControllerFactory", "SideInfo", "build"):
        assert getattr(encounters, name) is getattr(building, name)
        assert name in encounters.__all__
