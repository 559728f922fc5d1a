"""Method Playground model server: FastAPI app, job service, registry and CLI."""

__version__ = "0.1.0"
