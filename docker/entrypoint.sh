#!/bin/sh
# `playground backend` or `playground frontend` (anything else is run as a command).
set -e
case "$1" in
  backend)
    python -c "from backend.settings import get_settings as s; from db.session import upgrade_to_head as u; u(s().resolved_database_url)"
    exec python -m uvicorn backend.main:app --host 0.0.0.0 --port "${PORT:-8000}" ;;
  frontend)
    exec python -m streamlit run app/main.py --server.address 0.0.0.0 --server.port "${PORT:-8501}" \
      --server.headless true --browser.gatherUsageStats false ;;
  *)
    exec "$@" ;;
esac
