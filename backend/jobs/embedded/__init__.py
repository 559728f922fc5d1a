"""The embedded path (EXECUTOR=embedded, the default): each job runs in a fresh process on this machine.

`executor` (EmbeddedExecutor) takes a process from `pool` (forked from a preloaded forkserver, warm
spares kept ready), hands it the job and lets a `supervisor` watch it to its typed ending; `worker`
is the job process's entry point. Nothing is imported here, so the forkserver and job processes,
which import `worker`, load only what they need.
"""

__all__ = ["executor", "pool", "supervisor", "worker"]
