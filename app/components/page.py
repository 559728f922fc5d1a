"""method_page: title and citation, controls, Run with live progress, results, downloads, history."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import streamlit as st

from app import client
from app.components.banner import backend_banner
from app.components.history import history_panel
from app.components.jobview import JobView
from app.components.results import downloads_panel, show_figures, show_metrics

__all__ = ["examples", "method_page", "page_header"]

POLL_SECONDS = 0.7


def _owner() -> str:
    if "owner" not in st.session_state:
        st.session_state["owner"] = uuid.uuid4().hex[:16]
    return str(st.session_state["owner"])


@st.cache_data(ttl=30, show_spinner=False)
def _method_info(name: str) -> dict[str, Any]:
    return client.method(name)


@st.cache_data(ttl=300, show_spinner=False)
def examples(name: str) -> dict[str, dict[str, Any]]:
    """The method's named example inputs, from the model server (empty when it is down)."""
    try:
        return client.examples(name)
    except (client.BackendUnavailable, client.BackendError):
        return {}


def page_header(name: str) -> dict[str, Any] | None:
    """Title, citation, summary and the About expander; None (with a banner) when the server is down."""
    try:
        info = _method_info(name)
    except client.BackendUnavailable as exc:
        st.title(name.replace("_", " ").capitalize())
        backend_banner(str(exc))
        return None
    except client.BackendError as exc:
        st.title(name.replace("_", " ").capitalize())
        st.error(f"This method is not available on the model server: {exc.detail}")
        return None
    paper = info["paper"]
    st.title(info["title"])
    link = f" · [paper]({paper['url']})" if paper.get("url") else ""
    code = f" · [code]({paper['code_url']})" if paper.get("code_url") else ""
    st.caption(f"{paper['citation']}{link}{code}")
    st.markdown(info["summary"])
    if info.get("about"):
        with st.expander("About the method"):
            st.markdown(info["about"])
    return info


def _load_job(job_id: str, full: bool) -> JobView | None:
    try:
        return JobView.from_api(client.job(job_id, full=full))
    except client.BackendError as exc:
        if exc.status_code == 404:
            return None
        raise


@st.fragment(run_every=POLL_SECONDS)
def _live_progress(job_id: str) -> None:
    """Polls the job; when it ends, reruns the whole page so the result shows."""
    try:
        job = _load_job(job_id, full=False)
    except client.BackendUnavailable as exc:
        backend_banner(str(exc))
        return
    if job is None or job.done:
        st.rerun(scope="app")
        return
    label = "Queued, waiting for a worker…" if job.status == "queued" else (job.message or "Running…")
    st.progress(min(max(job.progress, 0.0), 1.0), text=f"{label} ({job.progress:.0%})")
    if st.button("Cancel", key=f"cancel-{job_id}"):
        client.cancel(job_id)
        st.toast("Cancellation requested")


def _show_outcome(job: JobView, render: Callable[[JobView], None] | None) -> None:
    if job.status == "succeeded":
        st.success(f"Finished: run `{job.id[:8]}`")
        if render is not None:
            render(job)
        else:
            show_metrics(job)
            show_figures(job)
        downloads_panel(job)
    elif job.status == "failed":
        st.error(f"The run failed: {job.error}")
    elif job.status == "timed_out":
        st.error(f"{job.error}. Try smaller settings.")
    elif job.status == "cancelled":
        st.warning("The run was cancelled.")


def method_page(
    name: str,
    *,
    controls: Callable[[], dict[str, Any]],
    render: Callable[[JobView], None] | None = None,
    form: bool = True,
) -> None:
    """The whole page of one method: header, controls + Run, live progress, result, downloads, history."""
    info = page_header(name)
    if info is None:
        return
    state_key = f"job:{name}"
    submitted = False
    if form:
        with st.form(f"params-{name}"):
            params = controls()
            submitted = st.form_submit_button("Run", type="primary")
    else:
        params = controls()
        submitted = st.button("Run", type="primary", key=f"run-{name}")
    if submitted:
        try:
            st.session_state[state_key] = client.submit(name, params, owner=_owner())
        except client.BackendError as exc:
            st.error(f"The parameters were not accepted: {exc.detail}")
        except client.BackendUnavailable as exc:
            backend_banner(str(exc))
            return
    job_id = st.session_state.get(state_key)
    if job_id:
        try:
            job = _load_job(job_id, full=False)
        except client.BackendUnavailable as exc:
            backend_banner(str(exc))
            return
        if job is None:
            st.session_state.pop(state_key, None)
        elif not job.done:
            _live_progress(job_id)
        else:
            full = _load_job(job_id, full=True)
            if full is not None:
                _show_outcome(full, render)
    history_panel(name, state_key, _owner())
