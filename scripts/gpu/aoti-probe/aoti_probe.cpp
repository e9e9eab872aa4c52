// Loads the AOTInductor package that make_package.py wrote, from C++, in one of two ways, and
// compares its output with torch's (docs/CUSTOM_KERNELS.md: can `attnprof bench --custom X.pt2`
// load one?).
//
//   aoti_probe loader DIR   torch::inductor::AOTIModelPackageLoader on DIR/sdpa.pt2, as documented
//   aoti_probe runner DIR   the model's .so from DIR/extracted/ (unzipped by make_package.py)
//                           through AOTIModelContainerRunnerCuda: no package loader, no temporary
//                           folder for torch to extract into and remove
//   aoti_probe reader DIR   the same, the package unzipped here with torch's own archive reader
//                          (caffe2::serialize::PyTorchStreamReader, which wrote it) into
//                           DIR/reader-extracted/: what the bench would do
//
// Prints what it did and the largest difference from torch's output; exit status 0 when it ran.
// Run each mode in its own process: a crash in one must not hide the other's outcome.

#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#include <torch/csrc/inductor/aoti_runner/model_container_runner_cuda.h>
#include <torch/serialize.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<at::Tensor> load_tensors(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const c10::IValue value = torch::pickle_load(bytes);
  std::vector<at::Tensor> tensors;
  if (value.isTuple()) {
    for (const auto& element : value.toTupleRef().elements())
      tensors.push_back(element.toTensor().to(at::kCUDA));
  } else {
    tensors.push_back(value.toTensor().to(at::kCUDA));
  }
  return tensors;
}

// The first .so under `folder`: the compiled model inside the package.
std::string find_model_so(const fs::path& folder) {
  for (const auto& entry : fs::recursive_directory_iterator(folder))
    if (entry.path().extension() == ".so") return entry.path().string();
  return "";
}

// Every record of the archive written under `folder`, as the package lays them out.
void extract_with_torch_reader(const std::string& package, const fs::path& folder) {
  caffe2::serialize::PyTorchStreamReader reader(package);
  for (const std::string& name : reader.getAllRecords()) {
    const auto [data, size] = reader.getRecord(name);
    const fs::path path = folder / name;
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char*>(data.get()), static_cast<std::streamsize>(size));
    std::cout << "reader: " << name << " (" << size << " bytes)" << std::endl;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: aoti_probe loader|runner DIR\n";
    return 2;
  }
  const std::string mode = argv[1];
  const fs::path dir = argv[2];
  std::vector<at::Tensor> inputs = load_tensors((dir / "inputs.pt").string());
  const at::Tensor expected = load_tensors((dir / "expected.pt").string()).at(0);
  std::vector<at::Tensor> outputs;
  if (mode == "loader") {
    std::cout << "loader: AOTIModelPackageLoader(" << (dir / "sdpa.pt2").string() << ")"
              << std::endl;
    torch::inductor::AOTIModelPackageLoader loader((dir / "sdpa.pt2").string());
    std::cout << "loader: constructed" << std::endl;
    outputs = loader.run(inputs);
  } else {
    fs::path extracted = dir / "extracted";
    if (mode == "reader") {
      extracted = dir / "reader-extracted";
      extract_with_torch_reader((dir / "sdpa.pt2").string(), extracted);
    }
    const std::string so = find_model_so(extracted);
    std::cout << "runner: AOTIModelContainerRunnerCuda(" << so << ")" << std::endl;
    torch::inductor::AOTIModelContainerRunnerCuda runner(so, 1, "cuda",
                                                         fs::path(so).parent_path().string());
    std::cout << "runner: constructed" << std::endl;
    outputs = runner.run(inputs);
  }
  const double diff =
      (outputs.at(0).to(at::kFloat) - expected.to(at::kFloat)).abs().max().item<double>();
  std::cout << mode << ": ran; max abs diff from torch's output " << diff << std::endl;
  return 0;
}
