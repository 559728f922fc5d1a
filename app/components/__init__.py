"""Shared widgets: every method page is a thin composition of these."""

from app.components.banner import backend_banner
from app.components.history import history_panel
from app.components.jobview import TERMINAL, JobView
from app.components.page import examples, method_page, page_header
from app.components.results import downloads_panel, show_figures, show_metrics

__all__ = ["TERMINAL", "JobView", "backend_banner", "downloads_panel", "examples", "history_panel",
           "method_page", "page_header", "show_figures", "show_metrics"]
