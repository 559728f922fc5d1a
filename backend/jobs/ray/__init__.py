"""The Ray path (EXECUTOR=ray): each job runs as a Ray task on an existing cluster.

`executor` (RayExecutor) is the backend side: it submits the tasks, drains their progress and stores
their outcomes; `task` is what runs on a Ray worker. Nothing is imported here, so a Ray worker,
which imports `task`, loads only what it needs. Every module uses absolute imports, so `import ray`
inside this package is always the Ray library, never this package.
"""

__all__ = ["executor", "task"]
