"""A page for the test-only toy method, built on the page kit exactly like a real page."""

from app.components import example_picker, method_page, param_widget

NAME = "toy"


def controls() -> dict:
    example_picker(NAME)
    behaviour = param_widget(NAME, "behaviour", options=["ok", "fail", "sleep", "reject"])
    steps = param_widget(NAME, "steps")
    memory = param_widget(NAME, "memory_mb", widget="number")
    return {"behaviour": behaviour, "steps": steps, "step_s": 0.05 if behaviour == "sleep" else 0.0, "memory_mb": memory}


method_page(NAME, controls=controls)
