"""The comparison of a map and reduce's result with the one-process analysis of the same traces."""

import pandas as pd


def same_tables(merged, direct):
    pd.testing.assert_frame_equal(merged.across, direct.across)
    pd.testing.assert_frame_equal(merged.regions, direct.regions)
    # A summary carries no diagnostics or markers: every other column of the traces is the same.
    columns = [c for c in direct.traces.columns if c not in ("warnings", "markers")]
    pd.testing.assert_frame_equal(merged.traces[columns], direct.traces[columns])
    assert merged.errors == direct.errors
    assert merged.error_kinds == direct.error_kinds
