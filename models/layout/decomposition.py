"""Invariant spatial decomposition: clusters of an anchor and its dependants (egocentric, on_top_of)."""

from __future__ import annotations

from dataclasses import dataclass, field

from models.layout.scene import EGOCENTRIC, Relation, Scene

__all__ = ["Cluster", "Decomposition", "decompose"]


@dataclass
class Cluster:
    """One anchor and its members; `parent[m] = (object, relation index)` ties a member to the object
    it was stated relative to (members are laid out in the anchor's frame, parents first)."""

    anchor: int
    members: list[int] = field(default_factory=list)
    parent: dict[int, tuple[int, int]] = field(default_factory=dict)

    @property
    def objects(self) -> list[int]:
        return [self.anchor, *self.members]


@dataclass
class Decomposition:
    """Clusters and, for each object, the index of the cluster that holds it."""

    clusters: list[Cluster]
    owner: list[int]

    def anchor_of(self, obj: int) -> int:
        return self.clusters[self.owner[obj]].anchor


def decompose(scene: Scene, relations: list[Relation], enabled: bool = True) -> Decomposition:
    """Group objects around anchors, as R^3L's invariant spatial decomposition ("units").

    Each object takes as parent the reference of its first on_top_of relation, else of its first
    egocentric relation, unless a wall pins it (then it stays an anchor of its own) or the link would
    close a loop. Roots are anchors; every other object joins its root's cluster. With `enabled`
    false (the "no decomposition" ablation) every object is its own cluster.
    """
    n = len(scene.objects)
    index = scene.index()
    parent: dict[int, tuple[int, int]] = {}
    if enabled:
        on_wall = {index[r.a] for r in relations if r.type == "against_wall"}
        for wanted in ("on_top_of", "egocentric"):
            for k, rel in enumerate(relations):
                is_kind = rel.type == "on_top_of" if wanted == "on_top_of" else rel.type in EGOCENTRIC
                if not is_kind or rel.b is None:
                    continue
                a, b = index[rel.a], index[rel.b]
                if a in parent or (wanted == "egocentric" and a in on_wall):
                    continue
                node, loop = b, False
                while node in parent:
                    node = parent[node][0]
                    if node == a:
                        loop = True
                        break
                if not loop and b != a:
                    parent[a] = (b, k)

    clusters: list[Cluster] = []
    owner = [-1] * n
    for i in range(n):
        if i not in parent:
            owner[i] = len(clusters)
            clusters.append(Cluster(anchor=i))
    # breadth-first from each anchor so parents are laid out before their children
    children: dict[int, list[int]] = {}
    for m, (p, _) in sorted(parent.items()):
        children.setdefault(p, []).append(m)
    for cluster in clusters:
        queue = list(children.get(cluster.anchor, []))
        while queue:
            m = queue.pop(0)
            cluster.members.append(m)
            cluster.parent[m] = parent[m]
            owner[m] = owner[cluster.anchor]
            queue.extend(children.get(m, []))
    return Decomposition(clusters=clusters, owner=owner)
