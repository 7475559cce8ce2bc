"""A first-fit allocator that walks the nodes one by one in pure Python (stop_python.toml):
slow on purpose, so that a stop signal most often lands inside a policy's call."""
import faultsweep_policy as fp


class WalkFirstFit(fp.Allocator):
    def allocate(self, view, count):
        free = view.free.tolist()
        out = []
        for node in range(view.nodes):
            if free[node]:
                out.append(node)
                if len(out) == count:
                    break
        return out
