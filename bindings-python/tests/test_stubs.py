"""The hand-written stubs (skilldeck/__init__.pyi, skilldeck/_native.pyi) declare exactly the
runtime API: module names, class members and parameter names."""

from __future__ import annotations

import ast
import inspect
import types
from pathlib import Path
from typing import Dict, Set

import skilldeck
from skilldeck import _native

STUB = Path(skilldeck.__file__).with_name("__init__.pyi")
NATIVE_STUB = Path(skilldeck.__file__).with_name("_native.pyi")


def _stub_tree(path: Path = STUB) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _public(name: str) -> bool:
    return not name.startswith("_")


def _stub_module_names() -> Set[str]:
    names: Set[str] = set()
    for node in _stub_tree().body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom) and node.module in ("_errors", "_native", "_run"):
            names.update(alias.asname or alias.name for alias in node.names)
    return {n for n in names if _public(n)} | {"__version__"}


def _stub_classes() -> Dict[str, Set[str]]:
    classes: Dict[str, Set[str]] = {}
    for node in _stub_tree(NATIVE_STUB).body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {
                item.name for item in node.body if isinstance(item, ast.FunctionDef)
            }
    return classes


def _stub_defaults(func: ast.FunctionDef) -> Dict[str, object]:
    """Keyword arguments built from a stub function's literal default values."""
    args = func.args
    positional = [a for a in args.args if a.arg not in ("self", "cls")]
    values: Dict[str, object] = {}
    for arg, default in zip(positional[len(positional) - len(args.defaults) :], args.defaults):
        values[arg.arg] = ast.literal_eval(default)
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        if default is not None:
            values[arg.arg] = ast.literal_eval(default)
    return values


def test_stub_file_and_marker_ship_with_the_package():
    assert STUB.is_file() and NATIVE_STUB.is_file()
    assert STUB.with_name("py.typed").is_file()


def test_module_names_match():
    runtime = {
        name
        for name in dir(skilldeck)
        if (_public(name) or name == "__version__")
        and not isinstance(getattr(skilldeck, name), types.ModuleType)
    }
    stub = _stub_module_names()
    assert runtime - stub == set(), "in the module but missing from the stubs"
    assert stub - runtime == set(), "in the stubs but missing from the module"
    assert set(skilldeck.__all__) == runtime - {"__version__"}


def test_native_module_names_match():
    runtime = {n for n in dir(_native) if not n.startswith("__")} | {"__all__"}
    stub = set()
    for node in _stub_tree(NATIVE_STUB).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            stub.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            stub.add(node.target.id)
    stub = {n for n in stub if not (n.startswith("_") and not n.startswith("_compat_"))}
    stub.add("__all__")
    assert runtime == stub


def test_class_members_match():
    for cls_name, stub_members in _stub_classes().items():
        cls = getattr(_native, cls_name)
        runtime_public = {n for n in dir(cls) if _public(n)}
        stub_public = {n for n in stub_members if _public(n)}
        assert runtime_public == stub_public, cls_name
        for dunder in stub_members - stub_public - {"__new__"}:
            assert dunder in vars(cls), f"{cls_name}.{dunder} declared but not defined"


def test_function_signatures_match():
    tree = _stub_tree(NATIVE_STUB)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            runtime = inspect.signature(getattr(_native, node.name))
            stub_params = [a.arg for a in node.args.args + node.args.kwonlyargs]
            if node.args.kwarg is not None:
                stub_params.append(node.args.kwarg.arg)
            assert list(runtime.parameters) == stub_params, node.name
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in ("Deck", "PermissionRules"):
            cls = getattr(_native, node.name)
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.decorator_list:
                    target = cls if item.name == "__new__" else getattr(cls, item.name)
                    stub_params = [
                        a.arg
                        for a in item.args.args + item.args.kwonlyargs
                        if a.arg not in ("self", "cls")
                    ]
                    try:
                        runtime = inspect.signature(target)
                    except ValueError:
                        # abi3 builds on CPython < 3.10 carry no class signature: check
                        # instead that the constructor takes every stub default by name.
                        assert item.name == "__new__", f"{node.name}.{item.name}"
                        target(**_stub_defaults(item))
                        continue
                    runtime_params = [p for p in runtime.parameters if p != "self"]
                    assert runtime_params == stub_params, f"{node.name}.{item.name}"
