"""FCFS with EASY backfilling (Lifka 1995; the built-in queue "easy", in Python).

Jobs start in queue order while they fit. The first that does not gets a reservation at the
shadow time, the earliest estimated time at which enough nodes are free; the nodes free then
beyond its need are the extra nodes. A later job starts now if it fits and either ends (by its
estimate) by the shadow time or uses only extra nodes: it never delays the reservation.
"""
import numpy as np

import faultsweep_policy as fp


class Easy(fp.QueuePolicy):
    def select(self, view):
        free = view.free_nodes
        waiting, sizes = view.waiting, view.sizes
        start, own = [], []  # own: (end time, nodes) of the jobs started here
        head = 0
        while head < len(waiting):  # the queue-order prefix
            job = int(waiting[head])
            size = view.start_size(job, free)
            if size <= 0:
                break
            free -= size
            start.append(head)
            own.append((view.now + view.est_wall_at(job, size), size))
            head += 1
        if head == len(waiting) or free == 0:
            return start
        shadow, extra = self.shadow(view, free, int(view.job_size[waiting[head]]), sorted(own))
        est = view.job_est_wall
        for pos in np.flatnonzero(sizes[head + 1:] <= free) + head + 1:
            job, size = int(waiting[pos]), int(sizes[pos])
            if size > free:
                continue
            if view.now + est[job] <= shadow:
                free -= size
            elif size <= extra:
                free -= size
                extra -= size
            else:
                continue
            start.append(int(pos))
            if free == 0:
                break
        return start

    @staticmethod
    def shadow(view, free, need, own):
        """Shadow time and extra nodes: every release at the shadow time counts."""
        times, nodes, _ = view.releases()
        releases = sorted([(max(float(t), view.now), int(n)) for t, n in zip(times, nodes)] +
                          [(max(t, view.now), n) for t, n in own], key=lambda r: r[0])
        avail, shadow = free, float("inf")
        for at, n in releases:
            if avail >= need and at > shadow:
                break
            avail += n
            if avail >= need and shadow == float("inf"):
                shadow = at
        return shadow, avail - need
