# One image for both services: `backend` (FastAPI model server) or `frontend` (Streamlit).
#   docker build -t method-playground .
#   docker build --build-arg WITH_LEAN=1 -t method-playground:lean .   # adds Lean 4 + Mathlib
FROM python:3.11-slim AS base

ARG WITH_LEAN=0
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    DATA_DIR=/data OMP_NUM_THREADS=1

RUN apt-get update \
 && apt-get install -y --no-install-recommends libxrender1 libxext6 curl git ca-certificates \
 && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 playground
WORKDIR /app

# Dependencies first (cached layer): the CPU build of torch, then the project.
COPY pyproject.toml README.md ./
RUN pip install --index-url https://download.pytorch.org/whl/cpu "torch==2.13.0" \
 && mkdir -p app backend db models && pip install . && pip uninstall -y method-playground

COPY --chown=playground:playground . .
RUN pip install --no-deps -e . && mkdir -p /data && chown playground:playground /data

# Optional Lean 4 toolchain with a prebuilt Mathlib project for the inequality prover's proof check.
# Pinned: Mathlib release tag v4.15.0 with its toolchain leanprover/lean4:v4.15.0 (the golden files in
# tests/models/inequality/golden/ are written for it); bump both together.
ARG MATHLIB_TAG=v4.15.0
ARG LEAN_TOOLCHAIN=leanprover/lean4:v4.15.0
USER playground
ENV PATH=/home/playground/.elan/bin:$PATH LEAN_PROJECT=/home/playground/lean-checker
RUN if [ "$WITH_LEAN" = "1" ]; then \
      curl -sSf https://raw.githubusercontent.com/leanprover/elan/master/elan-init.sh | sh -s -- -y --default-toolchain none \
   && mkdir -p "$LEAN_PROJECT" && printf '%s\n' "$LEAN_TOOLCHAIN" > "$LEAN_PROJECT/lean-toolchain" \
   && printf 'import Lake\nopen Lake DSL\npackage checker\nrequire mathlib from git "https://github.com/leanprover-community/mathlib4.git" @ "%s"\n' "$MATHLIB_TAG" > "$LEAN_PROJECT/lakefile.lean" \
   && cd "$LEAN_PROJECT" && lake update && lake exe cache get && lake build; \
    else echo "Lean toolchain not included (build with --build-arg WITH_LEAN=1)"; fi

VOLUME ["/data"]
EXPOSE 8000 8501
COPY --chown=playground:playground docker/entrypoint.sh /usr/local/bin/playground
ENTRYPOINT ["playground"]
CMD ["backend"]
