"""Method name -> MethodSpec: discovers every package under models/ that exposes SPEC."""

from __future__ import annotations

import importlib
import logging
import pkgutil
from collections.abc import Iterable
from dataclasses import dataclass

import models
from models.common import MethodSpec

__all__ = ["Registry", "RegisteredMethod", "discover"]

log = logging.getLogger(__name__)
_SKIP = {"common"}


@dataclass(frozen=True)
class RegisteredMethod:
    """A method spec and the module it came from (the worker process imports it by that name)."""

    spec: MethodSpec
    module: str


class Registry:
    """The methods this server offers, by name, in page order."""

    def __init__(self, methods: Iterable[RegisteredMethod]) -> None:
        self._methods: dict[str, RegisteredMethod] = {}
        for method in methods:
            if method.spec.name in self._methods:
                raise ValueError(f"two methods are named {method.spec.name!r}")
            self._methods[method.spec.name] = method

    def get(self, name: str) -> RegisteredMethod | None:
        return self._methods.get(name)

    def names(self) -> list[str]:
        return [m.spec.name for m in self.ordered()]

    def ordered(self) -> list[RegisteredMethod]:
        return sorted(self._methods.values(), key=lambda m: (m.spec.section != "Core demos", m.spec.section,
                                                              m.spec.order, m.spec.name))

    def __len__(self) -> int:
        return len(self._methods)


def load_spec(module_name: str) -> MethodSpec:
    """Import `module_name` and return its SPEC."""
    module = importlib.import_module(module_name)
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, MethodSpec):
        raise TypeError(f"{module_name} has no SPEC of type MethodSpec")
    return spec


def discover(extra_modules: Iterable[str] = ()) -> Registry:
    """Find `models.<pkg>.SPEC` for each method package, plus the named extra modules.

    A method package that fails to import is logged and left off the site rather than taking the
    whole server down: a broken method must not hide the working ones.
    """
    found: list[RegisteredMethod] = []
    for info in pkgutil.iter_modules(models.__path__):
        if not info.ispkg or info.name in _SKIP or info.name.startswith("_"):
            continue
        module_name = f"models.{info.name}"
        try:
            found.append(RegisteredMethod(load_spec(module_name), module_name))
        except Exception:  # noqa: BLE001 - reported in the log, the other methods still load
            log.exception("method package %s could not be loaded", module_name)
    for module_name in extra_modules:
        found.append(RegisteredMethod(load_spec(module_name), module_name))
    return Registry(found)
