#!/bin/sh
# `playground backend` or `playground frontend` (anything else is run as a command).
set -e
case "$1" in
  backend)
    exec python -m backend.serve --host 0.0.0.0 --port "${PORT:-8000}" ;;
  frontend)
    exec python -m streamlit run app/main.py --server.address 0.0.0.0 --server.port "${PORT:-8501}" \
      --server.headless true --browser.gatherUsageStats false ;;
  *)
    exec "$@" ;;
esac
