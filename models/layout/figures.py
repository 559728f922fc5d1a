"""Figures: 3D boxes with names and front faces, top-down floor plans with yaw arrows, conflicts, loss."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from models.layout.relations import clearance_zone
from models.layout.result import PoseOut, Result, kind_colours
from models.layout.scene import DEFAULT_CLEARANCE, Obj, Room

__all__ = ["figures", "spread_labels"]

_BAD = "#D62728"


def _corners(pose: PoseOut, box: Obj) -> list[tuple[float, float]]:
    t = math.radians(pose.yaw)
    r, f = (math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))
    out = []
    for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        u, v = su * box.width / 2, sv * box.depth / 2
        out.append((pose.x + u * r[0] + v * f[0], pose.y + u * r[1] + v * f[1]))
    return out


def _colours(result: Result) -> dict[str, str]:
    """One colour per object kind ('nightstand_a' and 'nightstand_b' share one)."""
    return kind_colours([b.name for b in result.boxes])


def spread_labels(points: list[tuple[float, float]], min_gap: float, step: float) -> list[tuple[float, float]]:
    """Return label positions moved down (in steps of `step`) until no two are closer than `min_gap`."""
    placed: list[tuple[float, float]] = []
    for x, y in points:
        ly = y
        for _ in range(12):
            if all(math.hypot(x - px, ly - py) >= min_gap for px, py in placed):
                break
            ly -= step
        placed.append((x, ly))
    return placed


def _zones(result: Result, layout: dict[str, PoseOut]) -> list[tuple[str, list[tuple[float, float]], str]]:
    """(label, corners, colour) of the door/window zones and of the clearance zones of the layout."""
    out: list[tuple[str, list[tuple[float, float]], str]] = []
    for opening in result.openings:
        x0, y0, x1, y1 = opening.zone(result.room)
        colour = "#8C564B" if opening.kind == "door" else "#1F77B4"
        out.append((f"{opening.name} ({opening.kind})", [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], colour))
    sizes = {b.name: b for b in result.boxes}
    for rel in result.relations:
        if rel.type == "clearance" and rel.a in layout and not rel.dropped:
            pose, box = layout[rel.a], sizes[rel.a]
            zone = clearance_zone(np.array([pose.x, pose.y, pose.z, pose.yaw]), np.array([box.width, box.depth, box.height]),
                                  rel.distance if rel.distance is not None else DEFAULT_CLEARANCE)
            out.append((f"walkway of {rel.a}", [(float(p[0]), float(p[1])) for p in zone], "#2CA02C"))
    return out


def _room_outline(room: Room) -> go.Scatter:
    return go.Scatter(x=[0, room.width, room.width, 0, 0], y=[0, 0, room.depth, room.depth, 0], mode="lines",
                      line=dict(color="black", width=3), name="walls", hoverinfo="skip")


def _floor_plan(result: Result, layout: dict[str, PoseOut], title: str, flagged: set[str]) -> go.Figure:
    fig = go.Figure()
    fig.add_trace(_room_outline(result.room))
    for label, pts, zone_colour in _zones(result, layout):
        fig.add_trace(go.Scatter(x=[p[0] for p in pts] + [pts[0][0]], y=[p[1] for p in pts] + [pts[0][1]], fill="toself",
                                 mode="lines", line=dict(color=zone_colour, dash="dash", width=1), fillcolor=zone_colour,
                                 opacity=0.18, name=label, hovertemplate=f"{label}: keep free<extra></extra>", showlegend=False))
    colour = _colours(result)
    ordered = sorted(result.boxes, key=lambda b: layout[b.name].z)  # stacked objects drawn on top
    labels = spread_labels([(layout[b.name].x, layout[b.name].y) for b in ordered],
                           min_gap=0.05 * max(result.room.width, result.room.depth) + 0.1, step=0.2)
    for box, (lx, ly) in zip(ordered, labels, strict=True):
        pose = layout[box.name]
        pts = _corners(pose, box)
        xs, ys = [p[0] for p in pts] + [pts[0][0]], [p[1] for p in pts] + [pts[0][1]]
        bad = box.name in flagged
        fig.add_trace(go.Scatter(
            x=xs, y=ys, fill="toself", mode="lines", fillcolor=colour[box.name], opacity=0.55 if pose.z == 0 else 0.85,
            line=dict(color=_BAD if bad else "#333", width=3 if bad else 1), name=box.name,
            hovertemplate=(f"{box.name}<br>x=%{{customdata[0]:.2f}} m, y=%{{customdata[1]:.2f}} m<br>"
                           f"yaw={pose.yaw:.0f} deg, z={pose.z:.2f} m<extra></extra>"),
            customdata=[[pose.x, pose.y]] * len(xs), showlegend=False))
        t = math.radians(pose.yaw)
        reach = 0.5 * box.depth + 0.15
        fig.add_annotation(x=pose.x - reach * math.sin(t), y=pose.y + reach * math.cos(t), ax=pose.x, ay=pose.y,
                           xref="x", yref="y", axref="x", ayref="y", showarrow=True, arrowhead=2, arrowwidth=1.5,
                           arrowcolor="#222", text="")
        fig.add_annotation(x=lx, y=ly, text=box.name.replace("_", " "), showarrow=False, font=dict(size=10, color=_BAD if bad else "#111"),
                           bgcolor="rgba(255,255,255,0.6)")
    room = result.room
    fig.update_layout(title=title, xaxis_title="x (m), west to east", yaxis_title="y (m), south to north",
                      height=480, margin=dict(l=40, r=20, t=60, b=40), showlegend=False)  # the walls are plain
    # the room's own extent on both axes; equal scale shrinks the plot area instead of stretching an axis
    fig.update_xaxes(range=[-0.3, room.width + 0.3])
    fig.update_yaxes(range=[-0.3, room.depth + 0.3], scaleanchor="x", scaleratio=1, constrain="domain")
    return fig


def _box_mesh(pose: PoseOut, box: Obj, colour: str) -> list[go.BaseTraceType]:
    pts = _corners(pose, box)
    z0, z1 = pose.z, pose.z + box.height
    xs = [p[0] for p in pts] * 2
    ys = [p[1] for p in pts] * 2
    zs = [z0] * 4 + [z1] * 4
    # 12 triangles of a box whose bottom corners are 0..3 and top corners 4..7 (counter-clockwise)
    i = [0, 0, 4, 4, 0, 0, 1, 1, 2, 2, 3, 3]
    j = [1, 2, 5, 6, 1, 5, 2, 6, 3, 7, 0, 4]
    k = [2, 3, 6, 7, 5, 4, 6, 5, 7, 6, 4, 7]
    body = go.Mesh3d(x=xs, y=ys, z=zs, i=i, j=j, k=k, color=colour, opacity=0.75, name=box.name,
                     hovertext=f"{box.name} (yaw {pose.yaw:.0f} deg)", hoverinfo="text", flatshading=True)
    # front face: corners 2, 3 (at +depth/2), bottom and top, slightly pushed out
    t = math.radians(pose.yaw)
    push = (-0.01 * math.sin(t), 0.01 * math.cos(t))
    fx = [pts[3][0] + push[0], pts[2][0] + push[0], pts[2][0] + push[0], pts[3][0] + push[0]]
    fy = [pts[3][1] + push[1], pts[2][1] + push[1], pts[2][1] + push[1], pts[3][1] + push[1]]
    front = go.Mesh3d(x=fx, y=fy, z=[z0, z0, z1, z1], i=[0, 0], j=[1, 2], k=[2, 3], color="#111", opacity=0.9,
                      hoverinfo="skip", name=f"{box.name} front")
    return [body, front]


def _edges(pose: PoseOut, box: Obj) -> go.Scatter3d:
    """Red wireframe of a box that violates something."""
    pts = _corners(pose, box)
    z0, z1 = pose.z, pose.z + box.height
    xs: list[float | None] = []
    ys: list[float | None] = []
    zs: list[float | None] = []
    for z in (z0, z1):
        for k in range(5):
            xs.append(pts[k % 4][0])
            ys.append(pts[k % 4][1])
            zs.append(z)
        xs.append(None)
        ys.append(None)
        zs.append(None)
    for p in pts:
        xs += [p[0], p[0], None]
        ys += [p[1], p[1], None]
        zs += [z0, z1, None]
    return go.Scatter3d(x=xs, y=ys, z=zs, mode="lines", line=dict(color=_BAD, width=5), hoverinfo="skip",
                        name=f"{box.name} violation")


def _scene_3d(result: Result, flagged: set[str]) -> go.Figure:
    colour = _colours(result)
    room = result.room
    traces: list[go.BaseTraceType] = [go.Mesh3d(
        x=[0, room.width, room.width, 0], y=[0, 0, room.depth, room.depth], z=[0, 0, 0, 0], i=[0, 0], j=[1, 2], k=[2, 3],
        color="#DDDDDD", opacity=0.6, hoverinfo="skip", name="floor")]
    for label, pts, zone_colour in _zones(result, result.layout):
        traces.append(go.Mesh3d(x=[p[0] for p in pts], y=[p[1] for p in pts], z=[0.005] * 4, i=[0, 0], j=[1, 2], k=[2, 3],
                                color=zone_colour, opacity=0.35, hovertext=f"{label}: keep free", hoverinfo="text", name=label))
    for box in result.boxes:
        traces += _box_mesh(result.layout[box.name], box, colour[box.name])
        if box.name in flagged:
            traces.append(_edges(result.layout[box.name], box))
    # labels above each box; labels of boxes close together are lifted in turn so they do not overlap
    tops = sorted(result.boxes, key=lambda b: result.layout[b.name].z + b.height)
    label_z: dict[str, float] = {}
    for box in tops:
        pose = result.layout[box.name]
        z = pose.z + box.height + 0.12
        for other in label_z:
            p = result.layout[other]
            if math.hypot(p.x - pose.x, p.y - pose.y) < 0.6 and abs(label_z[other] - z) < 0.18:
                z = label_z[other] + 0.18
        label_z[box.name] = z
    # names as scene annotations: drawn over the scene, never hidden or cut by a neighbouring mesh
    names = [dict(x=result.layout[b.name].x, y=result.layout[b.name].y, z=label_z[b.name],
                  text=b.name.replace("_", " "), showarrow=False, bgcolor="rgba(255,255,255,0.7)",
                  font=dict(color=_BAD if b.name in flagged else "#111", size=11)) for b in result.boxes]
    top = max([room.height] + [z + 0.15 for z in label_z.values()])
    span = max(room.width, room.depth)
    fig = go.Figure(traces)
    fig.update_layout(
        title="3D layout (dark face = front; colour = kind of object; red = violation; tinted floor = keep free)",
        showlegend=False, height=640,
        scene=dict(xaxis=dict(title="x (m), west to east", range=[-0.2, room.width + 0.2]),
                   yaxis=dict(title="y (m), south to north", range=[-0.2, room.depth + 0.2]),
                   zaxis=dict(title="z (m)", range=[0, top]), aspectmode="manual",
                   aspectratio=dict(x=(room.width + 0.4) / span, y=(room.depth + 0.4) / span, z=top / span),
                   camera=dict(eye=dict(x=1.6, y=-1.85, z=1.35)), annotations=names),
        margin=dict(l=0, r=0, t=50, b=0))
    return fig


def _loss_figure(loss: list[float]) -> go.Figure:
    """The loss on a log axis; steps where it is exactly 0 (every residual met) are drawn at a floor
    a decade below the smallest positive value and marked."""
    positive = [v for v in loss if v > 0]
    floor = min(positive) / 10 if positive else 1e-6
    shown = [v if v > 0 else floor for v in loss]
    fig = go.Figure(go.Scatter(y=shown, mode="lines", name="loss"))
    zeros = [k for k, v in enumerate(loss) if v <= 0]
    if zeros:
        fig.add_trace(go.Scatter(x=zeros, y=[floor] * len(zeros), mode="markers", marker=dict(color="#2CA02C", size=7),
                                 name="loss = 0 (drawn at the floor)"))
    fig.update_layout(title="Optimisation loss (stage 1 relations, then stage 2 with physics)",
                      xaxis_title="step (subsampled)", yaxis_title="total residual (m), log scale", yaxis_type="log")
    return fig


def _conflict_graph(result: Result) -> go.Figure:
    names = [b.name for b in result.boxes]
    nodes = names + [f"{w} wall" for w in ("north", "east", "south", "west")]
    pos = {n: (math.cos(2 * math.pi * i / len(nodes)), math.sin(2 * math.pi * i / len(nodes))) for i, n in enumerate(nodes)}
    fig = go.Figure()
    in_conflict = {k for c in result.conflicts for k in c}
    for rel in result.relations:
        target = rel.b if rel.b is not None else f"{rel.wall} wall"
        (x0, y0), (x1, y1) = pos[rel.a], pos[target]
        bad = rel.index in in_conflict
        fig.add_trace(go.Scatter(x=[x0, x1], y=[y0, y1], mode="lines", hoverinfo="text", text=rel.sentence,
                                 line=dict(color=_BAD if bad else "#BBBBBB", width=3 if bad else 1), showlegend=False))
        if bad:
            fig.add_annotation(x=(x0 + x1) / 2, y=(y0 + y1) / 2, text=f"[{rel.index + 1}] {rel.type}", showarrow=False,
                               font=dict(color=_BAD, size=11), bgcolor="rgba(255,255,255,0.8)")
    fig.add_trace(go.Scatter(x=[pos[n][0] for n in nodes], y=[pos[n][1] for n in nodes], mode="markers+text",
                             text=nodes, textposition="top center", marker=dict(size=12, color="#4C78A8"), showlegend=False))
    fig.update_layout(title="Relations (grey) and the minimal conflicting sets (red, with relation index)",
                      xaxis=dict(visible=False), yaxis=dict(visible=False, scaleanchor="x"), height=560)
    return fig


def _infeasible_plan(result: Result) -> go.Figure:
    centre = {b.name: PoseOut(x=result.room.width / 2, y=result.room.depth / 2, z=0.0, yaw=b.yaw or 0.0)
              for b in result.boxes}
    shown = Result(status="infeasible", room=result.room, boxes=[b for b in result.boxes if b.name in result.objects])
    fig = _floor_plan(shown, centre, "Objects at fault drawn at the room centre (yaw 0) against the walls", set(result.objects))
    return fig


def figures(result: Result) -> dict[str, go.Figure]:
    """Return the page's figures for a result (which ones depends on the status)."""
    if result.status == "contradiction":
        return {"conflict_graph": _conflict_graph(result)}
    if result.status == "infeasible":
        return {"infeasible_plan": _infeasible_plan(result)} if result.objects else {}
    violated = {r.a for r in result.relations if r.satisfied is False} | {n for pair in result.collisions for n in pair}
    violated |= set(result.out_of_room) | {o for _, o in result.blocked}
    figs = {
        "scene_3d": _scene_3d(result, violated),
        "floor_plan": _floor_plan(result, result.layout, "Floor plan (arrows: facing direction; red outline: a violation)", violated),
        "imagined_plan": _floor_plan(result, result.initial_layout, "Imagined start, before optimisation", set()),
    }
    if result.loss:
        figs["loss"] = _loss_figure(result.loss)
    if result.ablations:
        labels = [a.variant for a in result.ablations]
        fig = go.Figure([
            go.Bar(name="collisions", x=labels, y=[a.collision_count for a in result.ablations]),
            go.Bar(name="out of room", x=labels, y=[a.out_of_room_count for a in result.ablations]),
            go.Bar(name="relations violated", x=labels, y=[a.relations_violated for a in result.ablations]),
        ])
        fig.update_layout(title="Ablations on the same scene, optimiser only (lower is better)", barmode="group",
                          yaxis_title="count")
        figs["ablations"] = fig
    return figs
