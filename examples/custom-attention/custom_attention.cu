// An attention forward written to be read, not to be fast: the example of attnprof's custom-kernel
// ABI (bench/include/attnprof_bench/custom_attention.h, docs/CUSTOM_KERNELS.md).
//
//   attnprof bench --custom build/release/examples/custom-attention/libexample_attention.so
//
// One block holds kQueriesPerBlock queries of one (batch, head), one warp per query. The block
// walks the keys in tiles of 32: it stages the tile's keys and values in shared memory (as
// float), each lane scores one key against its warp's query, and the warp folds the tile's 32
// scores into its running softmax ("online softmax", Milakov & Gimelshein 2018; FlashAttention's
// recurrence): keep the running maximum m, the running sum l of exp(s - m) and the running
// output acc, and rescale l and acc by exp(m_old - m_new) whenever the maximum grows. Each lane
// owns head_dim / 32 of the output's columns. Everything is accumulated in fp32.
//
// What it runs: bf16 and fp16, head_dim up to 128, no mask, causal (aligned to the end) and
// sliding-window masks, grouped-query attention (kv_heads dividing heads), any strides. What it
// refuses, with a reason the bench shows: fp32 and larger head dimensions.
//
// The kernel's name contains "fmha": attnprof classes kernels by name, and that marks it as fused
// attention in the tables, as PyTorch's own fused kernels are.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>

#include "attnprof_bench/custom_attention.h"

namespace {

constexpr int kWarpSize = 32;
constexpr int kKeysPerTile = kWarpSize;  // one key per lane when scoring
constexpr int kQueriesPerBlock = 8;      // one warp per query; they share each K/V tile
constexpr int kThreads = kQueriesPerBlock * kWarpSize;
constexpr int kMaxHeadDim = 128;
constexpr int kColumnsPerLane = kMaxHeadDim / kWarpSize;
constexpr unsigned kAllLanes = 0xffffffffu;

// The problem as the kernel reads it: the ABI's arguments, narrowed to what the device needs.
struct Params {
  const void* q;
  const void* k;
  const void* v;
  void* out;
  long long q_strides[4], k_strides[4], v_strides[4], out_strides[4];
  int heads, kv_heads, q_seq, kv_seq, head_dim;
  int mask;  // ATTNPROF_MASK_*
  long long window;
  float scale;
};

__device__ float to_float(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
__device__ float to_float(__half x) {
  return __half2float(x);
}
template <typename T>
__device__ T from_float(float x);
template <>
__device__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16(x);
}
template <>
__device__ __half from_float<__half>(float x) {
  return __float2half(x);
}

__device__ long long offset(const long long strides[4], int b, int h, long long s, int d) {
  return b * strides[0] + h * strides[1] + s * strides[2] + d * strides[3];
}

__device__ float warp_max(float x) {
  for (int step = kWarpSize / 2; step > 0; step /= 2)
    x = fmaxf(x, __shfl_xor_sync(kAllLanes, x, step));
  return x;
}

__device__ float warp_sum(float x) {
  for (int step = kWarpSize / 2; step > 0; step /= 2) x += __shfl_xor_sync(kAllLanes, x, step);
  return x;
}

// Whether the query at sequence position `t` sees key `key` (the ABI's mask kinds).
__device__ bool visible(const Params& p, long long t, long long key) {
  if (p.mask == ATTNPROF_MASK_NONE) return true;
  if (key > t) return false;
  return p.mask != ATTNPROF_MASK_SLIDING_WINDOW || key > t - p.window;
}

template <typename T>
__global__ void __launch_bounds__(kThreads) example_fmha_forward(Params p) {
  // +1 column: lane j reads row j of k_tile, and the padding puts the 32 rows' same column in 32
  // different shared-memory banks.
  __shared__ float k_tile[kKeysPerTile][kMaxHeadDim + 1];
  __shared__ float v_tile[kKeysPerTile][kMaxHeadDim];
  __shared__ float q_rows[kQueriesPerBlock][kMaxHeadDim];

  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  const int b = blockIdx.z, h = blockIdx.y;
  const int kv_h = h / (p.heads / p.kv_heads);  // grouped-query attention: heads share K and V
  const int first_query = blockIdx.x * kQueriesPerBlock;
  const int query = first_query + warp;
  const bool active = query < p.q_seq;  // the last block may have fewer queries than warps
  // Queries are the last q_seq positions of the sequence (the mask is aligned to the end).
  const long long shift = static_cast<long long>(p.kv_seq) - p.q_seq;
  const long long t = query + shift;

  // The block's queries, scaled once here rather than every score.
  const T* q = static_cast<const T*>(p.q);
  for (int d = lane; d < p.head_dim; d += kWarpSize)
    q_rows[warp][d] = active ? to_float(q[offset(p.q_strides, b, h, query, d)]) * p.scale : 0.f;

  // The keys any of the block's queries can see.
  const int last_query = min(first_query + kQueriesPerBlock, p.q_seq) - 1;
  long long key_begin = 0, key_end = p.kv_seq;
  if (p.mask != ATTNPROF_MASK_NONE)
    key_end = min(static_cast<long long>(p.kv_seq), last_query + shift + 1);
  if (p.mask == ATTNPROF_MASK_SLIDING_WINDOW)
    key_begin = max(0LL, static_cast<long long>(first_query) + shift - p.window + 1);

  float m = -INFINITY, l = 0.f;
  float acc[kColumnsPerLane] = {};
  const T* k = static_cast<const T*>(p.k);
  const T* v = static_cast<const T*>(p.v);
  for (long long tile = key_begin; tile < key_end; tile += kKeysPerTile) {
    __syncthreads();  // the previous tile is no longer read
    for (int i = threadIdx.x; i < kKeysPerTile * p.head_dim; i += kThreads) {
      const int row = i / p.head_dim, d = i % p.head_dim;
      const long long key = tile + row;
      const bool in_range = key < key_end;
      k_tile[row][d] = in_range ? to_float(k[offset(p.k_strides, b, kv_h, key, d)]) : 0.f;
      v_tile[row][d] = in_range ? to_float(v[offset(p.v_strides, b, kv_h, key, d)]) : 0.f;
    }
    __syncthreads();
    if (!active) continue;

    // Lane j scores key tile + j.
    const long long key = tile + lane;
    float s = -INFINITY;
    if (key < key_end && visible(p, t, key)) {
      s = 0.f;
      for (int d = 0; d < p.head_dim; ++d) s += q_rows[warp][d] * k_tile[lane][d];
    }
    const float m_new = fmaxf(m, warp_max(s));
    if (m_new == -INFINITY) continue;            // nothing visible yet
    const float correction = __expf(m - m_new);  // exp(-inf) = 0 on the first visible tile
    const float weight = __expf(s - m_new);      // 0 for the masked keys
    l = l * correction + warp_sum(weight);
    m = m_new;

    // acc = acc * correction + sum_j weight_j * v_j, over this lane's columns.
    for (int c = 0; c < kColumnsPerLane; ++c) acc[c] *= correction;
    for (int j = 0; j < kKeysPerTile; ++j) {
      const float w = __shfl_sync(kAllLanes, weight, j);
      for (int c = 0; c < kColumnsPerLane; ++c) {
        const int d = lane + c * kWarpSize;
        if (d < p.head_dim) acc[c] += w * v_tile[j][d];
      }
    }
  }

  if (!active) return;
  T* out = static_cast<T*>(p.out);
  for (int c = 0; c < kColumnsPerLane; ++c) {
    const int d = lane + c * kWarpSize;
    if (d < p.head_dim)
      out[offset(p.out_strides, b, h, query, d)] = from_float<T>(l > 0.f ? acc[c] / l : 0.f);
  }
}

// Writes one line into the caller's buffer and returns `status`.
int32_t say(int32_t status, char* reason, size_t reason_size, const char* text) {
  if (reason && reason_size > 0) std::snprintf(reason, reason_size, "%s", text);
  return status;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int32_t attnprof_custom_attention_abi_version(
    void) {
  return ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION;
}

extern "C" __attribute__((visibility("default"))) int32_t attnprof_custom_attention(
    const attnprof_attention_args* a, char* reason, size_t reason_size) {
  if (a->dtype == ATTNPROF_DTYPE_FP32)
    return say(ATTNPROF_CUSTOM_UNSUPPORTED, reason, reason_size,
               "the example kernel has bf16 and fp16 versions only, no fp32");
  if (a->dtype != ATTNPROF_DTYPE_BF16 && a->dtype != ATTNPROF_DTYPE_FP16)
    return say(ATTNPROF_CUSTOM_UNSUPPORTED, reason, reason_size, "unknown dtype");
  if (a->head_dim < 1 || a->head_dim > kMaxHeadDim)
    return say(ATTNPROF_CUSTOM_UNSUPPORTED, reason, reason_size,
               "the example kernel takes head dimensions up to 128");
  if (a->kv_heads < 1 || a->heads % a->kv_heads != 0)
    return say(ATTNPROF_CUSTOM_UNSUPPORTED, reason, reason_size, "kv_heads must divide heads");
  if (a->mask != ATTNPROF_MASK_NONE && a->mask != ATTNPROF_MASK_CAUSAL &&
      a->mask != ATTNPROF_MASK_SLIDING_WINDOW)
    return say(ATTNPROF_CUSTOM_UNSUPPORTED, reason, reason_size, "unknown mask kind");
  // The grid's y and z dimensions hold heads and batch; x holds the query tiles.
  if (a->heads > 65535 || a->batch > 65535 || a->q_seq > (1LL << 31) - kQueriesPerBlock ||
      a->kv_seq > (1LL << 31) - kKeysPerTile)
    return say(ATTNPROF_CUSTOM_UNSUPPORTED, reason, reason_size,
               "more heads, batch or sequence than the example's grid holds");
  if (a->batch == 0 || a->q_seq == 0) return ATTNPROF_CUSTOM_OK;

  Params p{};
  p.q = a->q;
  p.k = a->k;
  p.v = a->v;
  p.out = a->out;
  for (int i = 0; i < 4; ++i) {
    p.q_strides[i] = a->q_strides[i];
    p.k_strides[i] = a->k_strides[i];
    p.v_strides[i] = a->v_strides[i];
    p.out_strides[i] = a->out_strides[i];
  }
  p.heads = static_cast<int>(a->heads);
  p.kv_heads = static_cast<int>(a->kv_heads);
  p.q_seq = static_cast<int>(a->q_seq);
  p.kv_seq = static_cast<int>(a->kv_seq);
  p.head_dim = static_cast<int>(a->head_dim);
  p.mask = a->mask;
  p.window = a->window;
  p.scale = static_cast<float>(a->scale);

  const dim3 grid(static_cast<unsigned>((a->q_seq + kQueriesPerBlock - 1) / kQueriesPerBlock),
                  static_cast<unsigned>(a->heads), static_cast<unsigned>(a->batch));
  const auto stream = static_cast<cudaStream_t>(a->stream);
  if (a->dtype == ATTNPROF_DTYPE_BF16)
    example_fmha_forward<__nv_bfloat16><<<grid, kThreads, 0, stream>>>(p);
  else
    example_fmha_forward<__half><<<grid, kThreads, 0, stream>>>(p);
  if (const cudaError_t error = cudaGetLastError(); error != cudaSuccess)
    return say(ATTNPROF_CUSTOM_ERROR, reason, reason_size, cudaGetErrorString(error));
  return ATTNPROF_CUSTOM_OK;
}
