""""Use via API": ready-to-copy Python (playground_client), curl and command-line snippets for a run's exact
params. On a shared instance they read the token from `$PLAYGROUND_TOKEN`: never the viewer's own token."""

from __future__ import annotations

import json
import os
import pprint
import shlex
from typing import Any

import streamlit as st

from app import client

__all__ = ["api_snippets", "public_api_url", "use_via_api"]

TOKEN_VARIABLE = "PLAYGROUND_TOKEN"


def public_api_url() -> str:
    """The model server's URL as a reader's own machine reaches it: PUBLIC_API_URL, else BACKEND_URL."""
    return (os.environ.get("PUBLIC_API_URL") or client.backend_url()).rstrip("/")


def _literal(params: dict[str, Any]) -> str:
    text = json.dumps(params)
    if "Infinity" in text or "NaN" in text:
        return f"json.loads({text!r})"
    return pprint.pformat(params, indent=4, sort_dicts=True, width=100)


def api_snippets(method: str, params: dict[str, Any], url: str, shared: bool, job_id: str = "") -> dict[str, str]:
    """{"Python", "curl", "Command line"}: this run's method and params as code. This function is never given
    a token: in shared mode the snippets read it from the environment variable PLAYGROUND_TOKEN."""
    body = json.dumps({"method": method, "params": params}, sort_keys=True)
    token_arg = f', token=os.environ["{TOKEN_VARIABLE}"]' if shared else ""
    literal = _literal(params)
    modules = [name for name, used in (("json", literal.startswith("json.")), ("os", shared)) if used]
    imports = "".join(f"import {name}\n" for name in modules) + ("\n" if modules else "")
    python = (f"{imports}from playground_client import Client  # `make install` in the repository installs it\n\n"
              f"client = Client({url!r}{token_arg})\n"
              f"run = client.run({method!r}, {literal})\n"
              "print(run.status, run.verdict)\n"
              "for claim in run.claims:\n"
              "    print(claim['id'], claim['holds'], claim['ours']['text'])\n"
              "run.download('out')  # every artifact and export.zip (with reproduce.py)\n")
    auth = f' -H "Authorization: Bearer ${TOKEN_VARIABLE}"' if shared else ""
    curl = (f"# submit; the answer is {{\"id\": ...}}\n"
            f"curl -s -X POST {shlex.quote(url + '/api/jobs')} -H 'Content-Type: application/json'{auth} \\\n"
            f"     -d {shlex.quote(body)}\n"
            f"# poll until \"status\" is succeeded, then read \"result\" and \"verdict\"\n"
            f"curl -s{auth} {shlex.quote(url + '/api/jobs/')}$JOB_ID\n")
    if job_id:
        curl += (f"# this run's check script: re-runs it through the library and compares with its result.json\n"
                 f"curl -s{auth} -o reproduce.py {shlex.quote(f'{url}/api/jobs/{job_id}/reproduce.py')}\n"
                 f"python reproduce.py --fetch {shlex.quote(url)}\n")
    command = ("# no server: run the method through the library (in the repository, after `make install`)\n"
               f".venv/bin/python -m backend.cli run {shlex.quote(method)} --params {shlex.quote(json.dumps(params, sort_keys=True))} --out out/\n")
    return {"Python": python, "curl": curl, "Command line": command}


def use_via_api(method: str, params: dict[str, Any], job_id: str, shared: bool) -> None:
    """The "Use via API" expander of a finished run."""
    with st.expander("Use via API: this run as code", expanded=False):
        if shared:
            st.caption(f"Set `{TOKEN_VARIABLE}` to a token of yours first (the sidebar's token, or one from "
                       "`POST /api/sessions`); the snippets never contain one.")
        snippets = api_snippets(method, params, public_api_url(), shared, job_id)
        for tab, (name, code) in zip(st.tabs(list(snippets)), snippets.items(), strict=True):
            with tab:
                st.code(code, language={"Python": "python"}.get(name, "bash"))
