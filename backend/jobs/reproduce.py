"""`reproduce.py` and `reproduce.ipynb` of one run: re-run it through the library and check it against
its `result.json` (the script is `reproduce_script.py` with the run's method, params and id filled in)."""

from __future__ import annotations

import json
import pprint
import re
import zipfile
from pathlib import Path
from typing import Any

__all__ = ["add_to_export", "notebook_for", "script_for"]

_TEMPLATE = Path(__file__).with_name("reproduce_script.py")
_CONSTANTS = re.compile(r'^METHOD = "toy"\nPARAMS: dict\[str, Any\] = \{\}\nJOB_ID = ""$', re.MULTILINE)


def script_for(method: str, params: dict[str, Any], job_id: str) -> str:
    """The run's reproduce.py: the template with its three constants set (params as a Python literal of JSON)."""
    template = _TEMPLATE.read_text()
    text = json.dumps(params)
    literal = (pprint.pformat(params, indent=4, sort_dicts=True, width=100)
               if "Infinity" not in text and "NaN" not in text else f"json.loads({json.dumps(text)})")
    constants = f"METHOD = {json.dumps(method)}\nPARAMS: dict[str, Any] = {literal}\nJOB_ID = {json.dumps(job_id)}"
    script, count = _CONSTANTS.subn(lambda _m: constants, template, count=1)
    if count != 1:
        raise RuntimeError("reproduce_script.py lost its METHOD/PARAMS/JOB_ID block")
    return script


def notebook_for(method: str, params: dict[str, Any], job_id: str, figure_names: list[str]) -> str:
    """The same steps as reproduce.py in a notebook (written with nbformat), drawing the run's figures."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    cells = [
        new_markdown_cell(f"# Reproduce run `{job_id[:8]}` of `{method}`\n\nThis notebook re-runs the run through the "
                          "Method Playground library (no server) with the same parameters and seed, checks every claim, "
                          "metric and stored value against `result.json` (measured times excluded), and draws the "
                          "figures. Run it beside `reproduce.py` and `result.json` (as `export.zip` unpacks), with the "
                          "project's Python (`make install` in the repository)."),
        new_code_cell("import json\nimport reproduce  # reproduce.py beside this notebook\n\n"
                      "print(reproduce.METHOD, json.dumps(reproduce.PARAMS)[:300])"),
        new_code_cell("run, rerun_json = reproduce.rerun()\nprint(run.verdict)"),
        new_code_cell("stored = json.load(open('result.json'))\n"
                      "difference, skipped = reproduce.check(run, stored)\n"
                      "print('first difference:', difference or 'none: the re-run agrees with result.json')\n"
                      "print('measured times excluded:', skipped)\n"
                      "for claim in rerun_json.get('claims', []):\n"
                      "    print(claim['id'], claim['holds'], claim['ours']['text'])"),
        new_code_cell("for name, figure in run.figures.items():  # " + ", ".join(figure_names)[:200] +
                      "\n    figure.show()"),
    ]
    notebook = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                  "language": "python"}})
    nbformat.validate(notebook)
    return str(nbformat.writes(notebook))


def add_to_export(bundle: zipfile.ZipFile, method: str, params: dict[str, Any], job_id: str,
                  figure_names: list[str]) -> None:
    """Write reproduce.py and reproduce.ipynb into an export bundle."""
    bundle.writestr("reproduce.py", script_for(method, params, job_id))
    bundle.writestr("reproduce.ipynb", notebook_for(method, params, job_id, figure_names))
