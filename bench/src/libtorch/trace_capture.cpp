#include "libtorch/trace_capture.h"

#include <ATen/record_function.h>
#include <torch/csrc/autograd/profiler_kineto.h>

#include <memory>
#include <set>

#include "libtorch/device_sync.h"

namespace attnprof::bench {
namespace {

namespace profiler = torch::autograd::profiler;
namespace profiler_impl = torch::profiler::impl;

// The profiler between enable and disable; disables it on the way out of an exception too, so a
// failed variant does not leave it recording the next one.
class ProfilerSession {
 public:
  explicit ProfilerSession(DeviceKind device) {
    const profiler_impl::ProfilerConfig config(profiler_impl::ProfilerState::KINETO,
                                               /*report_input_shapes=*/true,
                                               /*profile_memory=*/false, /*with_stack=*/false,
                                               /*with_flops=*/false, /*with_modules=*/false);
    std::set<profiler_impl::ActivityType> activities{profiler_impl::ActivityType::CPU};
    if (device == DeviceKind::kCuda) activities.insert(profiler_impl::ActivityType::CUDA);
    profiler::prepareProfiler(config, activities);
    profiler::enableProfiler(config, activities);
    active_ = true;
  }
  ~ProfilerSession() {
    if (!active_) return;
    try {
      profiler::disableProfiler();
    } catch (...) {  // already unwinding from the error that matters
    }
  }
  ProfilerSession(const ProfilerSession&) = delete;
  ProfilerSession& operator=(const ProfilerSession&) = delete;

  std::unique_ptr<profiler::ProfilerResult> stop() {
    active_ = false;
    return profiler::disableProfiler();
  }

 private:
  bool active_ = false;
};

}  // namespace

void record_trace(const AttentionCall& call, const std::vector<InputSet>& inputs, int iterations,
                  const std::string& json_path) {
  const DeviceKind device = call.problem().device;
  ProfilerSession session(device);
  {
    RECORD_USER_SCOPE("warmup");
    call.run(inputs.front());
  }
  synchronize(device);
  for (int i = 0; i < iterations; ++i) {
    const InputSet& in = inputs[(i + 1) % inputs.size()];
    at::Tensor out;
    {
      RECORD_USER_SCOPE("forward");
      out = call.forward(in);
    }
    if (call.has_backward()) {
      RECORD_USER_SCOPE("backward");
      call.backward(out, in);
    }
    synchronize(device);
  }
  session.stop()->save(json_path);
}

}  // namespace attnprof::bench
