"""GET /api/methods and the examples of one method."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from backend.api.deps import RegistryDep
from backend.api.schemas import MethodPublic, MethodsPublic, PaperPublic
from backend.registry import RegisteredMethod

router = APIRouter(prefix="/api/methods", tags=["methods"])


def _public(method: RegisteredMethod) -> MethodPublic:
    spec = method.spec
    paper = spec.paper
    return MethodPublic(
        name=spec.name, title=spec.title, nav_title=spec.nav_title or spec.title, section=spec.section, order=spec.order, summary=spec.summary,
        about=spec.about, params_schema=spec.params_model.model_json_schema(), has_examples=spec.examples is not None,
        resources=sorted(spec.page_resources()) if spec.page_resources else [],
        paper=PaperPublic(title=paper.title, authors=paper.authors, venue=paper.venue, year=paper.year,
                          url=paper.url, code_url=paper.code_url, citation=paper.citation()),
    )


@router.get("", response_model=MethodsPublic, summary="List the methods this server offers")
def list_methods(registry: RegistryDep) -> MethodsPublic:
    data = [_public(method) for method in registry.ordered()]
    return MethodsPublic(data=data, count=len(data))


@router.get("/{name}", response_model=MethodPublic, summary="One method: paper, summary and parameter schema")
def get_method(name: str, registry: RegistryDep) -> MethodPublic:
    method = registry.get(name)
    if method is None:
        raise HTTPException(404, f"unknown method {name!r}")
    return _public(method)


@router.get("/{name}/examples", response_model=dict[str, dict[str, Any]], summary="Named example inputs")
def get_examples(name: str, registry: RegistryDep) -> dict[str, dict[str, Any]]:
    method = registry.get(name)
    if method is None:
        raise HTTPException(404, f"unknown method {name!r}")
    return dict(method.spec.examples()) if method.spec.examples else {}


@router.get("/{name}/resources/{key}", summary="Named data a method's page needs (e.g. the molecule list)")
def get_resource(name: str, key: str, registry: RegistryDep) -> Any:
    method = registry.get(name)
    if method is None:
        raise HTTPException(404, f"unknown method {name!r}")
    resources = dict(method.spec.page_resources()) if method.spec.page_resources else {}
    if key not in resources:
        raise HTTPException(404, f"method {name!r} has no resource {key!r}")
    return resources[key]
