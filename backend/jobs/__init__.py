"""Job service and executors."""
