"""The house's layers, as the folders and the imports draw them (docs: architecture).

Each module of ``bg_env`` belongs to the layer of its folder; a module imports only modules
of its own layer or of layers below it, and nothing in ``bg_env`` imports ``agents``. The
layers, lowest first: ``bg_env/rules/`` and ``bg_env/draughts/`` (pure Python, numpy-free
apart from the cube's arrays: the readable truth and the test oracle), ``bg_env/kernels/`` (the same rules
compiled with numba), ``bg_env/game/`` (one state machine over both), and the views above
them (``bg_env/envs/``, ``bg_env/records``, ``bg_env/integrations/``, the top-level
modules, and the deprecated ``bg_env.core`` aliases).
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]

RULES, KERNELS, GAME, ENVS = range(4)
NAMES = ["rules", "kernels", "game", "envs"]
FOLDERS = {"rules": RULES, "draughts": RULES, "kernels": KERNELS, "game": GAME}
"""The layer folders of ``bg_env``; every other module sits above them."""


def layer_of(module: str) -> int:
    """The layer of a dotted module name inside ``bg_env``: its folder's."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in FOLDERS:
        return FOLDERS[parts[1]]
    return ENVS


def modules(package: str = "bg_env"):
    for path in sorted((ROOT / package).rglob("*.py")):
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


def test_the_rules_layer_is_pure_python():
    """The rules import no compiled code: no numba, and nothing from the layers above."""
    offenders = [(name, target) for name, is_pkg, tree in modules()
                 if layer_of(name) == RULES
                 for target in imports(name, is_pkg, tree)
                 if target.split(".")[0] == "numba"]
    assert offenders == []


AGENT_LAYERS = {"agents.config": 0, "agents.processes": 0, "agents.players": 1, "agents": 2,
                "agents.evaluation": 3, "agents.play": 3, "agents.training": 4, "agents.cli": 5}
"""The layers of ``agents``, lowest first: the shared settings and worker processes, the
players, the package's facade (``load_agent``), evaluation and the terminal game, training,
the command. A module is in the layer of its longest prefix here."""


def agent_layer(module: str) -> int:
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in AGENT_LAYERS:
            return AGENT_LAYERS[".".join(parts[:n])]
    raise KeyError(module)


def test_every_agents_import_points_down_or_sideways():
    known = {name for name, _, _ in modules("agents")}
    upward = []
    for name, is_pkg, tree in modules("agents"):
        own = agent_layer(name)
        for target in imports(name, is_pkg, tree):
            if target in known and target != name and agent_layer(target) > own:
                upward.append(f"{name} ({own}) -> {target} ({agent_layer(target)})")
    assert upward == []
    assert {agent_layer(name) for name in known} == set(AGENT_LAYERS.values())
