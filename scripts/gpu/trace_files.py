"""Writing a torch.profiler trace the way attnprof's recordings keep them: Kineto's chrome trace,
gzipped (level 9) beside where it was exported, the plain JSON removed. Shared by
record_fixtures.py, record_foreign.py and record_flex.py."""
import gzip
import os
import shutil


def save_trace(prof, out_dir, name):
    """Exports `prof` as OUT_DIR/NAME.json.gz and returns that path."""
    raw = os.path.join(out_dir, name + ".json")
    prof.export_chrome_trace(raw)
    with open(raw, "rb") as src, gzip.open(raw + ".gz", "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    size = os.path.getsize(raw)
    os.remove(raw)
    print(f"{name}: {size} bytes json, {os.path.getsize(raw + '.gz')} gz", flush=True)
    return raw + ".gz"
