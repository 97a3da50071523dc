"""Percentiles from a probe's `labgate-hist-1` JSON histogram, computed exactly as
lg_hist_percentile (harness/src/stats/hist_core.c) does: nearest rank, the
highest value equivalent to that rank's counter, clamped to the exact min/max."""
import math

SUB_BUCKET_BITS = 11
HALF = 1 << (SUB_BUCKET_BITS - 1)


def highest_at(index):
    """Largest value sharing counter `index` (lg_hist_highest_at)."""
    if index < 2 * HALF:  # bucket 0: values below 2048 ns are exact
        return index
    bucket = (index >> (SUB_BUCKET_BITS - 1)) - 1
    sub = index - (bucket << (SUB_BUCKET_BITS - 1))
    return (sub << bucket) + (1 << bucket) - 1


def percentile(h, p):
    if h.get("format") != "labgate-hist-1" or h.get("sub_bucket_bits") != SUB_BUCKET_BITS:
        raise ValueError(f"not a labgate-hist-1 histogram with {SUB_BUCKET_BITS} sub-bucket bits")
    total = h["total"]
    if total == 0:
        return 0
    exact = p / 100.0 * total
    rank = max(1, math.ceil(exact - 1e-9 * exact))
    counts = h["counts"]
    seen = 0
    for i in range(0, len(counts), 2):
        seen += counts[i + 1]
        if seen >= rank:
            return min(max(highest_at(counts[i]), h["min"]), h["max"])
    return h["max"]
