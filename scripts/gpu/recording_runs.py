"""Many recordings in one device call, each allowed to fail or run out of time on its own: a
failure costs only that recording (its traceback goes to the log, its error text to the status
list), and a slow compile is cut off by its time budget rather than eating the whole call.
Shared by record_models.py, record_graphs.py and record_comm.py (scripts/gpu/record-models.sh)."""
import gc
import json
import signal
import statistics
import time
import traceback

import torch


class OutOfTime(Exception):
    pass


def _out_of_time(signum, frame):
    raise OutOfTime("ran past its time budget")


class Recordings:
    """Runs named recordings under one overall deadline; `status` keeps what became of each."""

    def __init__(self, total_budget_s):
        self.deadline = time.monotonic() + total_budget_s
        self.status = []

    def run(self, name, budget_s, fn, *args):
        left = self.deadline - time.monotonic()
        if left < 5:
            self.status.append({"name": name, "status": "skipped",
                                "error": "the script's overall time budget was spent"})
            print(f"-- {name}: skipped (no time left)", flush=True)
            return None
        budget = max(1, int(min(budget_s, left)))
        print(f"-- {name} (budget {budget} s)", flush=True)
        signal.signal(signal.SIGALRM, _out_of_time)
        signal.alarm(budget)
        start = time.monotonic()
        entry = {"name": name}
        value = None
        try:
            value = fn(*args)
            signal.alarm(0)
            entry["status"] = "ok"
        except Exception as e:  # one recording's failure must not stop the others
            signal.alarm(0)
            traceback.print_exc()
            entry["status"] = "failed"
            entry["error"] = error_text(e)
        entry["seconds"] = round(time.monotonic() - start, 1)
        print(f"-- {name}: {entry['status']} in {entry['seconds']} s", flush=True)
        self.status.append(entry)
        settle()
        return value

    def write(self, path):
        with open(path, "w") as f:
            json.dump(self.status, f, indent=1)


def error_text(e):
    """The exception as one short text: its type and the first lines of its message."""
    lines = str(e).strip().splitlines()
    return f"{type(e).__name__}: " + " | ".join(lines[:4])[:600]


def settle():
    """Frees what a finished (or failed) recording left on the GPU before the next one."""
    try:
        gc.collect()
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
    except Exception as e:
        print("settle:", error_text(e), flush=True)


def median_ms(step, repeats=10, warmup=3):
    """Median, min and max of `repeats` unprofiled calls of `step`, timed with CUDA events on the
    current stream, after `warmup` calls."""
    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        begin = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        begin.record()
        step()
        end.record()
        end.synchronize()
        times.append(begin.elapsed_time(end))
    return {"median_ms": round(statistics.median(times), 4), "min_ms": round(min(times), 4),
            "max_ms": round(max(times), 4), "repeats": repeats}
