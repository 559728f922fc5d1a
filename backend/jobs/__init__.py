"""Job service and executors: the shared machinery here, each executor's own in `embedded/` and `ray/`."""
