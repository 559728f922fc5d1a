"""Scoring a run: detection rates against the true drift events, and Avalanche's stream metrics.

Detection: a drift event (client k reaching its next concept at local round d) counts as found when the
detector flags it at local round d or d + 1 (rounds it scored). Every other scored client-round is a
negative: the concept is unchanged, though the batch is fresh and the class prior may have shifted.
Stream metrics: experience j ends at the last server round before at least half of the clients reached
concept j + 1 (the final experience at the last round); R[j, i] is the global model's accuracy on concept
i then, average accuracy = mean_i R[J-1, i], forgetting = mean_{j < J-1} R[j, j] - R[J-1, j] (Avalanche).
"""

from __future__ import annotations

import numpy as np

from models.rc_fcl.concepts import ClientPlan
from models.rc_fcl.detector import wilson_interval
from models.rc_fcl.federation import MethodTrace
from models.rc_fcl.result import Detection

__all__ = ["DETECTION_DELAY", "detection_rates", "experience_ends", "image_metrics", "local_clocks", "stream_metrics",
           "truth_map"]

DETECTION_DELAY = 2  # local rounds a detector may take to flag a drift


def local_clocks(participates: np.ndarray) -> np.ndarray:
    """rounds x clients: each client's local round (rounds it trained before) at each server round."""
    return np.cumsum(participates, axis=0) - participates


def _is_event_round(plan: ClientPlan, local_round: int) -> bool:
    return any(d <= local_round < d + DETECTION_DELAY for d in plan.drift_at)


def truth_map(plans: list[ClientPlan], participates: np.ndarray) -> list[list[bool | None]]:
    """rounds x clients: True within DETECTION_DELAY local rounds of a drift, False otherwise, None: absent."""
    clocks = local_clocks(participates)
    return [[_is_event_round(plans[k], int(clocks[r, k])) if participates[r, k] else None
             for k in range(participates.shape[1])] for r in range(participates.shape[0])]


def detection_rates(trace: MethodTrace, plans: list[ClientPlan], participates: np.ndarray) -> Detection:
    clocks = local_clocks(participates)
    found: dict[tuple[int, int], bool] = {}
    negatives = false_positives = 0
    for r, row in enumerate(trace.detected):
        for k, flag in enumerate(row):
            if flag is None:
                continue
            local = int(clocks[r, k])
            event = next((d for d in plans[k].drift_at if d <= local < d + DETECTION_DELAY), None)
            if event is None:
                negatives += 1
                false_positives += int(flag)
            else:
                found[(k, event)] = found.get((k, event), False) or flag
    events, hits = len(found), sum(found.values())
    tpr_ci, fpr_ci = wilson_interval(hits, events), wilson_interval(false_positives, negatives)
    return Detection(events=events, detected_events=hits, true_positive_rate=hits / events if events else None,
                     tpr_interval=list(tpr_ci), negatives=negatives, false_positives=false_positives,
                     false_positive_rate=false_positives / negatives if negatives else None,
                     fpr_interval=list(fpr_ci))


def experience_ends(plans: list[ClientPlan], participates: np.ndarray, concepts: int) -> list[int]:
    """The server round ending each experience that the majority reached (the last round ends the stream)."""
    clocks = local_clocks(participates)
    rounds = participates.shape[0]
    ends: list[int] = []
    for j in range(1, concepts):
        at = [r for r in range(rounds)
              if sum(plans[k].stage(int(clocks[r, k])) >= j for k in range(len(plans))) * 2 >= len(plans)]
        if not at or at[0] == 0:
            break
        ends.append(at[0] - 1)
    return [*ends, rounds - 1]


def stream_metrics(trace: MethodTrace, ends: list[int]) -> tuple[list[list[float]], float, float | None]:
    """(R over the experiences reached, average accuracy, forgetting or None with a single experience)."""
    matrix = [trace.concept_accuracy[e][: len(ends)] for e in ends]
    last = matrix[-1]
    average = float(np.mean(last))
    if len(ends) < 2:
        return matrix, average, None
    forgetting = float(np.mean([matrix[j][j] - last[j] for j in range(len(ends) - 1)]))
    return matrix, average, forgetting


def image_metrics(trace: MethodTrace, ends: list[int]) -> tuple[np.ndarray, np.ndarray | None]:
    """Per test image (in points): its average accuracy over the concepts reached at the last round, and its
    forgetting, mean_{j < J-1} (correct at the end of j - correct at the end) on concept j. Their means over
    the images are `stream_metrics`' average accuracy and forgetting (x 100)."""
    last = trace.correct[ends[-1]][: len(ends)]
    average = 100.0 * np.mean(last, axis=0)
    if len(ends) < 2:
        return average, None
    drops = [trace.correct[ends[j]][j] - last[j] for j in range(len(ends) - 1)]
    return average, 100.0 * np.mean(drops, axis=0)
