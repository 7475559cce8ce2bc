"""Prints the results version of a faultsweep results file, then /results/<metric> as text: one
line per metric and point, the replicas' values as %.17g (exact for float64), NaN as "nan". Used by
run.sh: a change of the version re-pins every golden file, in the commit that makes it."""
import sys

import h5py


def main(path):
    with h5py.File(path, "r") as f:
        assert f.attrs["filetype"] in (b"faultsweep-results", "faultsweep-results")
        print("results_version", int(f.attrs["results_version"]))
        for metric in sorted(f["results"]):
            if metric == "done":
                continue
            data = f["results"][metric][()]
            for p, row in enumerate(data):
                print(metric, p, " ".join("%.17g" % v for v in row))


if __name__ == "__main__":
    main(sys.argv[1])
