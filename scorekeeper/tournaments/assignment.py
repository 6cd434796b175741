"""The assignment problem: give each row one column, each column to one row, with the least
total cost. The seating uses it for table numbers (a table is a row, a number a column, the
cost how many at the table sat at that number before)."""

from __future__ import annotations

from collections.abc import Sequence

#: Above any reduced cost the seating's small counts can reach.
_ENDLESS = 1 << 62


def assign(costs: Sequence[Sequence[int]]) -> list[int]:
    """For a square matrix, the column of each row in an assignment of least total cost.

    The Hungarian method in its O(n³) form: rows join one by one, each along the cheapest path
    of reduced costs (``u`` and ``v`` are the potentials of rows and columns, ``owner[j]`` the
    row holding column ``j``, all counted from 1 so that 0 means none).

    >>> assign([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
    [1, 0, 2]
    """
    count = len(costs)
    u, v, owner, way = [0] * (count + 1), [0] * (count + 1), [0] * (count + 1), [0] * (count + 1)
    for row in range(1, count + 1):
        owner[0], free = row, 0
        lowest, used = [_ENDLESS] * (count + 1), [False] * (count + 1)
        while owner[free]:
            used[free] = True
            holder, step, chosen = owner[free], _ENDLESS, 0
            for j in range(1, count + 1):
                if not used[j]:
                    reduced = costs[holder - 1][j - 1] - u[holder] - v[j]
                    if reduced < lowest[j]:
                        lowest[j], way[j] = reduced, free
                    if lowest[j] < step:
                        step, chosen = lowest[j], j
            for j in range(count + 1):
                if used[j]:
                    u[owner[j]] += step
                    v[j] -= step
                else:
                    lowest[j] -= step
            free = chosen
        while free:
            owner[free] = owner[way[free]]
            free = way[free]
    columns = [0] * count
    for j in range(1, count + 1):
        columns[owner[j] - 1] = j - 1
    return columns
