"""Packages plain causal SDPA with AOTInductor and tries to load it back in Python (docs/CUSTOM_KERNELS.md).

  python3 make_package.py OUT_DIR

Writes OUT_DIR/sdpa.pt2 (torch._inductor.aoti_compile_and_package of a module that calls
scaled_dot_product_attention, bf16, shape 1x2x128x64) and OUT_DIR/inputs.pt, OUT_DIR/expected.pt
(its inputs and torch's own output) for aoti_probe.cpp, and OUT_DIR/extracted/ (the package's files,
unzipped here so that C++ can load the model's .so without torch's package loader). Then loads the
package with torch._inductor.aoti_load_package in a child process, which on the H200 machine
crashed (SIGSEGV), and prints the child's exit status.
"""

import os
import subprocess
import sys
import time
import zipfile

import torch

SHAPE = (1, 2, 128, 64)


class CausalSdpa(torch.nn.Module):
    def forward(self, q, k, v):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)


def load_in_python(package, out_dir):
    """The package loaded and run by torch itself, in a child: a crash must not end this script."""
    code = (
        "import sys, torch\n"
        "m = torch._inductor.aoti_load_package(sys.argv[1])\n"
        "q, k, v = (t.cuda() for t in torch.load(sys.argv[2]))\n"
        "out = m(q, k, v)\n"
        "ref = torch.load(sys.argv[3]).cuda()\n"
        "print('python load: max abs diff', (out - ref).abs().max().item())\n"
   )
    child = subprocess.run(
        [sys.executable, "-c", code, package, os.path.join(out_dir, "inputs.pt"),
         os.path.join(out_dir, "expected.pt")],
        capture_output=True, text=True)
    print(child.stdout.strip())
    print("python load: exit status", child.returncode,
          "(SIGSEGV)" if child.returncode == -11 else "")
    if child.returncode != 0:
        print("python load stderr (tail):", "\n".join(child.stderr.strip().splitlines()[-8:]))


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name())
    q, k, v = (torch.randn(SHAPE, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    # On the CPU: the C++ probe reads them with torch::pickle_load and moves them to the GPU.
    torch.save(tuple(t.cpu() for t in (q, k, v)), os.path.join(out_dir, "inputs.pt"))
    torch.save(CausalSdpa()(q, k, v).cpu(), os.path.join(out_dir, "expected.pt"))
    start = time.time()
    exported = torch.export.export(CausalSdpa(), (q, k, v))
    package = torch._inductor.aoti_compile_and_package(
        exported, package_path=os.path.join(out_dir, "sdpa.pt2"))
    print(f"packaged {package} in {time.time() - start:.1f} s")
    with zipfile.ZipFile(package) as archive:
        names = archive.namelist()
        archive.extractall(os.path.join(out_dir, "extracted"))
    print("package files:", " ".join(n for n in names if not n.endswith("/")))
    load_in_python(package, out_dir)


if __name__ == "__main__":
    main()
