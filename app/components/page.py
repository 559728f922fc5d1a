"""method_page: header, controls and Run, the run being shown (by id), its verdict and results, history.

A run is addressed by its id: the page shows exactly the job whose id it holds, the URL carries it
(`?job=<id>`, shareable), and opening such a URL restores the run's inputs into the controls.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import streamlit as st

from app import client
from app.components.banner import backend_banner
from app.components.compare import compare_panel
from app.components.controls import (
    apply_params,
    clear_input_errors,
    keep_controls,
    pending_input_errors,
    restore_controls,
    unchanged_example,
)
from app.components.examples import draw_example_picker
from app.components.history import history_panel
from app.components.identity import access, ensure_token, owner_id
from app.components.jobview import JobView
from app.components.plain import plain
from app.components.results import claims_table, downloads_panel, show_figures, show_metrics, verdict_banner
from app.components.schema import method_info
from app.components.snippets import use_via_api
from app.components.status import JobStatus
from app.components.sweep import sweep_panel

__all__ = ["method_page", "page_header", "show_job"]

# What a URL may carry: a job id is a UUID, a share link `secrets.token_urlsafe(32)`. Anything else is
# refused before it is shown or sent to the model server (a `?job=` value is never echoed).
JOB_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # no markdown or code-span character can pass
SHARE_LINK = re.compile(r"[A-Za-z0-9_-]{16,128}")

POLL_SECONDS = 0.7


def page_header(name: str) -> dict[str, Any] | None:
    """Title, citation, summary and the About expander; None (with a banner) when the server is down."""
    try:
        info = method_info(name)
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
            st.markdown(cite(paper))
    return info


def cite(paper: dict[str, Any]) -> str:
    """The citation block of the About expander: title, every author, venue and the paper's link."""
    link = f" [{paper['url']}]({paper['url']})" if paper.get("url") else ""
    code = f" · code: [{paper['code_url']}]({paper['code_url']})" if paper.get("code_url") else ""
    return f"**Cite.** {paper['authors']}. *{paper['title']}*. {paper['venue']}.{link}{code}"


def _load_job(job_id: str, full: bool) -> JobView | None:
    try:
        return JobView.from_api(client.job(job_id, full=full))
    except client.BackendError as exc:
        if exc.status_code in (404, 422):
            return None
        raise


def show_job(name: str, job_id: str | None, *, restore_inputs: bool) -> None:
    """Make `job_id` the run this page shows (None: none); the URL follows; optionally restore its inputs."""
    state_key = f"job:{name}"
    if job_id is None:
        st.session_state.pop(state_key, None)
        st.query_params.pop("job", None)
        return
    st.session_state[state_key] = job_id
    st.session_state[f"linked:{name}"] = job_id
    st.query_params["job"] = job_id
    if restore_inputs:
        job = _load_job(job_id, full=False)
        if job is not None and job.method == name:
            apply_params(name, job.params)


_FINISHED = "_kit_finished_jobs"
_FINISHED_KEPT = 4


def _finished_job(job_id: str) -> JobView | None:
    """A finished job with its figures, fetched and decoded once per session (a finished job never changes),
    so a rerun of the page (a click, a download) does not fetch and decode every figure again."""
    kept: dict[str, JobView] = st.session_state.setdefault(_FINISHED, {})
    if job_id not in kept:
        job = _load_job(job_id, full=True)
        if job is None or not job.done:
            return job
        while len(kept) >= _FINISHED_KEPT:
            kept.pop(next(iter(kept)))
        kept[job_id] = job
    return kept[job_id]


def _follow_permalink(name: str) -> None:
    """`?job=<id>` in the URL opens that run and restores its inputs (once per id)."""
    linked = st.query_params.get("job")
    if not linked or linked == st.session_state.get(f"linked:{name}"):
        return
    st.session_state[f"linked:{name}"] = linked
    job = _load_job(str(linked), full=False) if JOB_ID.fullmatch(str(linked)) else None
    if job is None or job.method != name:
        shown = f"run `{str(linked)[:36]}`" if JOB_ID.fullmatch(str(linked)) else "run with this link's id"
        st.warning(f"There is no {shown} of this method (the link may be wrong or the run deleted).")
        st.session_state.pop(f"job:{name}", None)
        return
    st.session_state[f"job:{name}"] = job.id
    apply_params(name, job.params)


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
    label = job.queued_text() if job.status == JobStatus.QUEUED else (job.message or "Running…")
    st.progress(min(max(job.progress, 0.0), 1.0), text=f"Run `{job.id[:8]}`: {label} ({job.progress:.0%})")
    if st.button("Cancel", key=f"cancel-{job_id}"):
        try:
            client.cancel(job_id)
        except client.BackendUnavailable as exc:
            backend_banner(str(exc))
        except client.BackendError as exc:  # e.g. the run ended meanwhile (409) or is not ours (404)
            st.toast(f"Could not cancel: {exc.detail}")
        else:
            st.toast("Cancellation requested")


def _show_outcome(job: JobView, render: Callable[[JobView], None] | None) -> None:
    """The verdict first (in its colour), then a small status line, results and downloads."""
    if job.status == JobStatus.SUCCEEDED:
        verdict_banner(job)
        seconds = f" in {job.seconds:.1f} s" if job.seconds is not None else ""
        st.caption(f"Finished: run `{job.id[:8]}`{seconds} · started {job.created_at[:19].replace('T', ' ')} UTC · "
                   f"[permalink](?job={job.id})")
        claims_table(job)
        if render is not None:
            render(job)
        else:
            show_metrics(job)
            show_figures(job)
        downloads_panel(job)
        _share_button(job)
        use_via_api(job.method, job.params, job.id, shared=access().get("access_mode") == "shared")
    elif job.status == JobStatus.FAILED:
        st.error(f"The run `{job.id[:8]}` failed: {plain(job.error)}")
    elif job.status == JobStatus.TIMED_OUT:
        st.error(f"Run `{job.id[:8]}`: {plain(job.error)}. Try smaller settings.")
    elif job.status == JobStatus.CANCELLED:
        st.warning(f"The run `{job.id[:8]}` was cancelled.")


def _shared_view(name: str, link: str, render: Callable[[JobView], None] | None) -> None:
    """A run opened through a read-only share link: its verdict, results and downloads, nothing else."""
    if not SHARE_LINK.fullmatch(link):
        st.error("This share link does not exist or was revoked.")
        return
    try:
        job = JobView.from_api(client.shared_job(link))
    except client.BackendError:
        st.error("This share link does not exist or was revoked.")
        return
    if job.method != name:
        st.error("This share link belongs to another method's page.")
        return
    job.share_link = link
    st.info(f"A shared, read-only run `{job.id[:8]}` ({plain(job.summary)}).")
    _show_outcome(job, render)


def _share_button(job: JobView) -> None:
    if access().get("access_mode") != "shared" or job.share_link:
        return
    if st.button("Share a read-only link", key=f"share-{job.id}"):
        try:
            created = client.share(job.id)
        except client.BackendError as exc:
            st.error(f"Not shared: {exc.detail}")
            return
        st.code(created["url"] or f"?share={created['link']}", language=None)
        st.caption("Anyone with this link sees this run's result and downloads, nothing else.")


def method_page(
    name: str,
    *,
    controls: Callable[[], dict[str, Any]],
    render: Callable[[JobView], None] | None = None,
    form: bool = True,
) -> None:
    """The whole page of one method: header, controls + Run, live progress, verdict and result, history."""
    ensure_token()
    info = page_header(name)
    if info is None:
        return
    state_key = f"job:{name}"
    clear_input_errors()
    share = st.query_params.get("share")
    if share:
        _shared_view(name, str(share)[:256], render)
        return
    try:
        _follow_permalink(name)
        current_id = st.session_state.get(state_key)
        current = _load_job(current_id, full=False) if current_id else None
    except client.BackendUnavailable as exc:
        backend_banner(str(exc))
        return
    running = current is not None and not current.done
    restore_controls(name, current.params if current is not None else None)
    draw_example_picker(name)
    if form:
        with st.form(f"params-{name}"):
            params = controls()
            _input_summary()
            submitted = st.form_submit_button("Run", type="primary", disabled=running,
                                              help="A run is in progress: Cancel it or wait" if running else None)
    else:
        params = controls()
        _input_summary()
        submitted = st.button("Run", type="primary", key=f"run-{name}", disabled=running)
    keep_controls(name)
    if submitted:
        current = _submit(name, params, current)
        if current is not None and not current.done:
            st.rerun()  # draw Run again, disabled while this run is active
    if current is not None:
        if not current.done:
            _live_progress(current.id)
        else:
            full = _finished_job(current.id)
            if full is not None:
                _show_outcome(full, render)
    sweep_panel(name, info.get("params_schema") or {}, params)
    compare_panel(name)
    history_panel(name, on_select=lambda job_id: show_job(name, job_id, restore_inputs=True), owner=owner_id())


def _input_summary() -> None:
    """One line above Run naming every control whose value cannot be run (each is also marked at its control)."""
    errors = pending_input_errors()
    if errors:
        st.error(f"Fix {len(errors)} input{'s' if len(errors) > 1 else ''} before running: " + "; ".join(errors))


def _submit(name: str, params: dict[str, Any], current: JobView | None) -> JobView | None:
    """Submit the controls' params; on success the new run is the one shown, on refusal none is."""
    if pending_input_errors():
        st.error("Not submitted: fix the inputs marked above.")
        return current
    if current is not None and not current.done:
        st.warning(f"Run `{current.id[:8]}` is still in progress: Cancel it or wait for it.")
        return current
    try:
        job_id = client.submit(name, params, owner=owner_id(), example=unchanged_example(name, params))
    except client.BackendError as exc:
        show_job(name, None, restore_inputs=False)
        st.error(f"Not run: {exc.detail}")
        return None
    except client.BackendUnavailable as exc:
        backend_banner(str(exc))
        return None
    show_job(name, job_id, restore_inputs=False)
    return _load_job(job_id, full=False)
