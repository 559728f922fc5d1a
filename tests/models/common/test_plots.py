"""models.common.plots: the theory-vs-simulation figure."""

from __future__ import annotations

import pytest

from models.common.plots import Series, theory_vs_simulation


def test_each_series_gets_a_line_and_markers_in_one_legend_group() -> None:
    fig = theory_vs_simulation(
        [
            Series("a", x=[1, 2, 4], simulation=[1.0, 0.5, 0.25], low=[0.9, 0.4, 0.2], high=[1.1, 0.6, 0.3],
                   theory=[1.0, 0.5, 0.25]),
            Series("b", x=[1, 2], theory=[2.0, 1.0]),
        ],
        title="t", x_title="model size M", y_title="risk", log_x=True, log_y=True,
    )
    assert [t.mode for t in fig.data] == ["lines", "markers", "lines"]
    assert {t.legendgroup for t in fig.data} == {"a", "b"}
    assert fig.data[0].line.color == fig.data[1].marker.color
    assert list(fig.data[1].error_y.array) == pytest.approx([0.1, 0.1, 0.05])
    assert list(fig.data[1].error_y.arrayminus) == pytest.approx([0.1, 0.1, 0.05])
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert fig.layout.xaxis.title.text == "model size M"
