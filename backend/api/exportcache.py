"""A per-process cache of built `export.zip` archives (issue 45, N7).

A finished run never changes, and building its archive (a zip with every figure rendered to HTML)
costs about 170 ms of CPU; a share link needs no token, so without a cache anyone holding one could
make the server build it again and again. Archives are kept per (job id, finish time), least
recently used first out, within `max_bytes` in all; a deleted run is never served (its route
answers 404 before the cache is asked).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

__all__ = ["ExportCache", "export_cache"]


class ExportCache:
    def __init__(self, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.builds = 0

    def get_or_build(self, key: tuple[str, str], build: Callable[[], bytes]) -> bytes:
        """The archive stored under `key`, else `build()` stored (when it fits) and returned."""
        with self._lock:
            content = self._items.get(key)
            if content is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return content
        content = build()  # outside the lock: two first requests may both build; both get the same bytes
        with self._lock:
            self.builds += 1
            if len(content) <= self.max_bytes // 4 and key not in self._items:
                self._items[key] = content
                self._size += len(content)
                while self._size > self.max_bytes:
                    _old, dropped = self._items.popitem(last=False)
                    self._size -= len(dropped)
        return content

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0


export_cache = ExportCache()
