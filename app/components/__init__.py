"""The page kit: every method page is a thin composition of these."""

from app.components.banner import backend_banner
from app.components.controls import (
           KitInputError,
           apply_params,
           field_columns,
           param_widget,
           pending_input_errors,
           report_input_error,
)
from app.components.examples import CUSTOM, example_picker
from app.components.history import history_panel, verdict_of
from app.components.identity import access, ensure_token, owner_id, token_sidebar
from app.components.jobview import JobView
from app.components.page import method_page, page_header, show_job
from app.components.results import (
           claims_table,
           downloads_panel,
           metric_cards,
           show_figures,
           show_metrics,
           verdict_banner,
)
from app.components.schema import examples, field_schema, method_info, methods, param_key, resource
from app.components.status import TERMINAL, JobStatus
from app.components.tables import edit_table, format_number, mark, show_tables, table

__all__ = ["CUSTOM", "TERMINAL", "JobStatus", "claims_table", "format_number", "access", "ensure_token", "token_sidebar", "JobView", "KitInputError", "apply_params", "backend_banner", "downloads_panel", "edit_table",
           "example_picker", "field_columns", "show_tables", "examples", "field_schema", "history_panel", "mark", "method_info", "method_page", "metric_cards",
           "methods", "owner_id", "page_header", "param_key", "param_widget", "pending_input_errors", "report_input_error", "resource",
           "show_figures", "show_job", "show_metrics", "table", "verdict_banner", "verdict_of"]
