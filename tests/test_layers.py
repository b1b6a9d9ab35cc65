"""The house's layers, as the imports draw them (docs: README "Layout").

Each module of ``bg_env`` belongs to one layer; a module imports only modules of its own
layer or of layers below it, and nothing in ``bg_env`` imports ``agents``. The layers,
lowest first: the pure rules (readable, numpy-free, the test oracle), the numba kernels
(the same rules compiled), the game (one state machine over both), the envs (views,
encoders, records, integrations). A new module must be placed in :data:`LAYERS`.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]

RULES, KERNELS, GAME, ENVS = range(4)
NAMES = ["rules", "kernels", "game", "envs"]

CORE = {
    RULES: ["actions", "board", "moves", "magriel", "outcome", "position", "svg", "notation",
            "match_id", "cube", "variants"],
    KERNELS: ["move_kernels", "kernel_io", "kernel_cache", "dice_kernels", "mask_kernels",
              "fast", "pubeval_kernels", "batch",
              "batch_opponents", "batch_match", "game_row", "engine",
              "variant_kernels", "variant_search", "variant_turn", "batch_variants", "batch_rules"],
    GAME: ["start", "game", "game_view", "game_cube", "match", "__init__"],
}


def layer_of(module: str) -> int:
    """The layer of a dotted module name inside ``bg_env``."""
    parts = module.split(".")
    if parts[:2] == ["bg_env", "core"] and len(parts) > 2:
        for layer, names in CORE.items():
            if parts[2] in names:
                return layer
        raise AssertionError(f"{module}: not placed in a layer (tests/test_layers.py CORE)")
    if parts[:2] == ["bg_env", "core"]:
        return GAME  # the package's __init__ re-exports the game
    return ENVS


def modules():
    for path in sorted((ROOT / "bg_env").rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        name = ".".join(rel.parts)
        is_pkg = path.name == "__init__.py"
        if is_pkg:
            name = name.rsplit(".", 1)[0]
        yield name, is_pkg, ast.parse(path.read_text(), str(path))


def imports(name: str, is_pkg: bool, tree: ast.AST):
    """Every module ``name`` imports (absolute names), at any depth of its code."""
    package = name if is_pkg else name.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            yield target
            for alias in node.names:  # `from . import x` may name a module
                yield f"{target}.{alias.name}"


def test_bg_env_never_imports_agents():
    offenders = [(name, target) for name, is_pkg, tree in modules()
                 for target in imports(name, is_pkg, tree)
                 if target == "agents" or target.startswith("agents.")]
    assert offenders == []


def test_every_import_points_down_or_sideways():
    known = {name for name, _, _ in modules()}
    upward = []
    for name, is_pkg, tree in modules():
        own = layer_of(name)
        for target in imports(name, is_pkg, tree):
            if target not in known or target == name:
                continue
            if layer_of(target) > own:
                upward.append(f"{name} ({NAMES[own]}) -> {target} ({NAMES[layer_of(target)]})")
    assert upward == []


def test_every_core_module_has_a_layer():
    for path in (ROOT / "bg_env" / "core").iterdir():
        if path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists()):
            layer_of(f"bg_env.core.{path.stem}")
