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
        shadow, extra = self.shadow(view, free, int(view.job_size[waiting[head]]), own)
        # Only jobs that fit now and end by the shadow time or fit in the extra nodes can
        # start (free and extra only shrink): test those in queue order.
        rest = slice(head + 1, len(waiting))
        ends = view.now + view.job_est_wall[waiting[rest]]
        ok = (sizes[rest] <= free) & ((ends <= shadow) | (sizes[rest] <= extra))
        for pos in (np.flatnonzero(ok) + head + 1).tolist():
            size = int(sizes[pos])
            if size > free:
                continue
            if ends[pos - head - 1] <= shadow:
                free -= size
            elif size <= extra:
                free -= size
                extra -= size
            else:
                continue
            start.append(pos)
            if free == 0:
                break
        return start

    @staticmethod
    def shadow(view, free, need, own):
        """Shadow time (the first time at which `need` nodes are free) and the extra nodes then:
        every release at the shadow time counts, so their order does not matter."""
        times, nodes, _ = view.releases()
        t = np.maximum(np.concatenate((times, [r[0] for r in own])), view.now)
        n = np.concatenate((nodes, [r[1] for r in own]))
        order = np.argsort(t, kind="stable")
        avail = free + np.cumsum(n[order])
        first = int(np.argmax(avail >= need))  # the head fits once any job runs: it exists
        shadow = t[order][first]
        return shadow, free + int(n[t <= shadow].sum()) - need
