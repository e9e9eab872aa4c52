"""Fixtures shared by the test files of the Dask map and reduce (test_distributed*.py), which
ctest runs as separate tests (python/CMakeLists.txt)."""

import gzip
import json
import os

import pytest

import attnprof

DATA = os.environ["ATTNPROF_TEST_DATA"]
WORLD = 64


@pytest.fixture(scope="session")
def rank_traces(tmp_path_factory):
    """64 ranks of one run, from the two real ranks of tests/data/ranks (alternately), each with
    its own rank in distributedInfo; and one file that is no trace, between them. Each source is
    serialized once and each rank's distributedInfo spliced in front of it, gzipped at level 1:
    dumping and compressing 64 whole documents took seconds."""
    folder = tmp_path_factory.mktemp("ranks")
    sources = []
    for name in ("ddp_rank0.json.gz", "ddp_rank1.json.gz"):
        with gzip.open(os.path.join(DATA, "ranks", name), "rt") as f:
            doc = json.load(f)
        info = doc.pop("distributedInfo")
        sources.append((info, json.dumps(doc)))
    paths = []
    for rank in range(WORLD):
        info, rest = sources[rank % 2]
        head = json.dumps({"distributedInfo": dict(info, rank=rank, world_size=WORLD)})
        path = folder / f"rank_{rank}.json.gz"
        path.write_bytes(gzip.compress((head[:-1] + ", " + rest[1:]).encode(), compresslevel=1))
        paths.append(str(path))
    bad = folder / "rank_bad.json.gz"
    bad.write_bytes(b"this is not a trace")
    paths.insert(WORLD // 2, str(bad))
    return paths


@pytest.fixture(scope="session")
def one_process(rank_traces):
    """The ranks analyzed in this process: what every map and reduce must equal."""
    direct = attnprof.analyze(rank_traces, explain=False)
    assert direct.across is not None and len(direct.traces) == WORLD
    return direct
