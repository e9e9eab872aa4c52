/* The C ABI of `attnprof bench --custom LIBRARY.so`: what a shared library exports so that the
 * bench profiles its attention kernel beside PyTorch's (docs/CUSTOM_KERNELS.md has a worked
 * example; examples/custom-attention/ is one such library).
 *
 * Plain C, no CUDA header: a library written in CUDA C++, Triton-generated C, CUTLASS or anything
 * else that can export two C functions fits. The bench owns every buffer; the library only reads
 * q, k and v and writes out, on the stream it is given.
 *
 * A library exports both functions below with C linkage:
 *
 *   int32_t attnprof_custom_attention_abi_version(void);
 *       returns ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION as the library saw it when it was built;
 *       the bench refuses a library built for another version (exit code 2, one line).
 *
 *   int32_t attnprof_custom_attention(const attnprof_attention_args* args,
 *                                     char* reason, size_t reason_size);
 *       enqueues one forward attention on args->stream and returns ATTNPROF_CUSTOM_OK, or
 *       returns ATTNPROF_CUSTOM_UNSUPPORTED when it cannot run this problem (a dtype, a head
 *       dimension or a mask it has no kernel for) and ATTNPROF_CUSTOM_ERROR when a launch failed,
 *       having written one line saying why into `reason` (NUL-terminated, at most reason_size
 *       bytes with the NUL). The bench shows an unsupported row with that reason and goes on.
 *
 * The call must be asynchronous, as PyTorch's own kernels are: launch on args->stream and return
 * without synchronizing, so that CUDA events around the call time the GPU's work. It is called
 * many times on the same shapes (warm-up, correctness, timing, the trace); scratch memory a
 * kernel needs is best allocated once and kept, since an allocation per call is timed too.
 */
#ifndef ATTNPROF_BENCH_CUSTOM_ATTENTION_H
#define ATTNPROF_BENCH_CUSTOM_ATTENTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised whenever attnprof_attention_args or the meaning of a field changes. */
#define ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION 1

/* What attnprof_custom_attention returns. */
#define ATTNPROF_CUSTOM_OK 0
#define ATTNPROF_CUSTOM_UNSUPPORTED 1 /* cannot run this problem; `reason` says why */
#define ATTNPROF_CUSTOM_ERROR 2       /* tried and failed (a launch error); `reason` says why */

/* The element type of q, k, v and out. */
#define ATTNPROF_DTYPE_BF16 0
#define ATTNPROF_DTYPE_FP16 1
#define ATTNPROF_DTYPE_FP32 2

/* Which keys each query sees. Queries are the LAST q_seq positions of a sequence of kv_seq:
 * query i sits at position t = i + kv_seq - q_seq (a decode step, q_seq = 1, is at the end).
 *   NONE:           every key.
 *   CAUSAL:         keys 0..t (the mask aligned to the end). `--mask explicit` arrives as CAUSAL
 *                   too: it is the same pattern, handed to SDPA as a boolean tensor.
 *   SLIDING_WINDOW: the `window` keys ending at t: max(0, t - window + 1)..t. */
#define ATTNPROF_MASK_NONE 0
#define ATTNPROF_MASK_CAUSAL 1
#define ATTNPROF_MASK_SLIDING_WINDOW 2

typedef struct attnprof_attention_args {
  /* Device pointers on the current CUDA device. Shapes, in the order of the strides:
   *   q, out: (batch, heads, q_seq, head_dim)
   *   k, v:   (batch, kv_heads, kv_seq, head_dim) */
  const void* q;
  const void* k;
  const void* v;
  void* out;
  /* Strides in elements (not bytes) for (batch, head, sequence, dim); the bench's tensors are
   * contiguous today (dim stride 1), but a kernel should read these rather than assume it. */
  int64_t q_strides[4];
  int64_t k_strides[4];
  int64_t v_strides[4];
  int64_t out_strides[4];
  int64_t batch;
  int64_t heads;    /* query heads */
  int64_t kv_heads; /* heads of k and v; divides heads: query head h reads kv head h / (heads /
                       kv_heads) (grouped-query attention; 1 is multi-query) */
  int64_t q_seq;
  int64_t kv_seq;
  int64_t head_dim;
  int32_t dtype;  /* ATTNPROF_DTYPE_* */
  int32_t mask;   /* ATTNPROF_MASK_* */
  int64_t window; /* keys per query with ATTNPROF_MASK_SLIDING_WINDOW; 0 otherwise */
  double scale;   /* multiplies q·kᵀ before the softmax: 1/sqrt(head_dim) */
  void* stream;   /* the cudaStream_t (CUstream) to launch on */
  int32_t device; /* the CUDA device ordinal the pointers live on (current when called) */
} attnprof_attention_args;

typedef int32_t (*attnprof_custom_attention_abi_version_fn)(void);
typedef int32_t (*attnprof_custom_attention_fn)(const attnprof_attention_args* args, char* reason,
                                                size_t reason_size);

/* The two symbols the bench looks up with dlsym. */
#define ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION_SYMBOL "attnprof_custom_attention_abi_version"
#define ATTNPROF_CUSTOM_ATTENTION_SYMBOL "attnprof_custom_attention"

#ifdef __cplusplus
}
#endif

#endif /* ATTNPROF_BENCH_CUSTOM_ATTENTION_H */
