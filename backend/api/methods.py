"""GET /api/methods and the examples of one method."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import ValidationError

from backend.api.deps import RegistryDep
from backend.api.schemas import ERROR_RESPONSES, MethodPublic, MethodsPublic, PaperPublic
from backend.registry import RegisteredMethod
from models.common import MethodSpec

router = APIRouter(prefix="/api/methods", tags=["methods"], responses=ERROR_RESPONSES)


def _public(method: RegisteredMethod) -> MethodPublic:
    spec = method.spec
    paper = spec.paper
    return MethodPublic(
        name=spec.name, title=spec.title, nav_title=spec.nav_title or spec.title, section=spec.section, order=spec.order, summary=spec.summary,
        about=spec.about, params_schema=params_schema(spec), has_examples=spec.examples is not None,
        resources=sorted(spec.page_resources()) if spec.page_resources else [],
        paper=PaperPublic(title=paper.title, authors=paper.authors, venue=paper.venue, year=paper.year,
                          url=paper.url, code_url=paper.code_url, citation=paper.citation()),
    )


def params_schema(spec: MethodSpec) -> dict[str, Any]:
    """The params model's JSON schema, with every field's default filled in (pydantic leaves out the
    defaults made by a `default_factory`, yet pages build their widgets from this schema)."""
    schema = spec.params_model.model_json_schema()
    try:
        defaults = spec.params_model().model_dump(mode="json")
    except ValidationError:
        return schema
    for field, prop in schema.get("properties", {}).items():
        if field in defaults and "default" not in prop:
            prop["default"] = defaults[field]
    return schema


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
