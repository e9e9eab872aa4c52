#include "io/gzip_byte_stream.h"

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "io/stream_limits.h"

namespace attnprof {

namespace {

constexpr uint8_t kGzipMagic0 = 0x1f;
constexpr uint8_t kGzipMagic1 = 0x8b;
// ISA-L counts output in uint32; larger reads are split.
constexpr size_t kMaxBytesPerInflate = size_t{1} << 30;

uint32_t load_le32(const uint8_t* bytes) {
  return uint32_t{bytes[0]} | uint32_t{bytes[1]} << 8 | uint32_t{bytes[2]} << 16 |
         uint32_t{bytes[3]} << 24;
}

const char* deflate_problem(int code) {
  switch (code) {
    case ISAL_INVALID_BLOCK:
      return "bad deflate data (invalid block)";
    case ISAL_INVALID_SYMBOL:
      return "bad deflate data (invalid Huffman symbol)";
    case ISAL_INVALID_LOOKBACK:
      return "bad deflate data (back-reference before the start of the data)";
    case ISAL_INVALID_WRAPPER:
      return "bad gzip header";
    case ISAL_UNSUPPORTED_METHOD:
      return "its gzip header names a compression method other than deflate";
    case ISAL_INCORRECT_CHECKSUM:
      return "header CRC16 mismatch";
    default:
      return "unexpected inflate error";
  }
}

}  // namespace

GzipByteStream::GzipByteStream(PosixFile file, std::string_view head, const Limits& limits)
    : ByteStream(file.path()),
      file_(std::move(file)),
      limits_(limits),
      state_(std::make_unique<inflate_state>()),
      // Not value-initialized: pages are touched only as blocks are read into them.
      input_(new uint8_t[kInputBlockBytes]) {
  isal_inflate_init(state_.get());
  state_->crc_flag = ISAL_GZIP;  // ISA-L parses each header and checks each trailer
  const size_t head_bytes = std::min(head.size(), kInputBlockBytes);
  std::memcpy(input_.get(), head.data(), head_bytes);
  state_->next_in = input_.get();
  state_->avail_in = static_cast<uint32_t>(head_bytes);
}

GzipByteStream::~GzipByteStream() = default;

uint64_t GzipByteStream::compressed_bytes_read() const {
  return file_.bytes_read() - state_->avail_in;
}

Result<size_t> GzipByteStream::read(char* out, size_t capacity) {
  if (failure_) return *failure_;
  if (capacity == 0 || finished_) return size_t{0};

  const size_t wanted = std::min(capacity, kMaxBytesPerInflate);
  state_->next_out = reinterpret_cast<uint8_t*>(out);
  state_->avail_out = static_cast<uint32_t>(wanted);
  Status inflated = inflate_until_full();
  const size_t produced = wanted - state_->avail_out;

  const uint64_t total = decompressed_bytes_ + produced;
  Status within = check_decompressed_size(path(), total, limits_);
  if (within) within = check_gzip_ratio(path(), total, compressed_bytes_read(), limits_);
  if (!within) {
    failure_ = within.take_error();  // over a limit: these bytes are not handed out
    return *failure_;
  }
  if (!inflated) failure_ = inflated.take_error();
  if (produced == 0 && failure_) return *failure_;
  decompressed_bytes_ = total;
  return produced;  // a failure found after some output comes with the next call
}

// Inflates until the caller's buffer is full, the data ends (finished_), or an error.
Status GzipByteStream::inflate_until_full() {
  inflate_state& state = *state_;
  while (state.avail_out > 0) {
    if (state.block_state == ISAL_BLOCK_FINISH) {
      Result<bool> another = start_next_member();
      if (!another) return another.take_error();
      if (!*another) {
        finished_ = true;
        return Status::success();
      }
      continue;
    }
    if (state.avail_in == 0 && !at_eof_) {
      ATTNPROF_RETURN_IF_ERROR(refill());
      continue;
    }
    // A member's gzip header goes to ISA-L whole: given in pieces, ISA-L 2.30 checks a header
    // CRC (FHCRC, RFC 1952) over the last piece only and calls a valid file corrupt
    // (docs/SECURITY.md), and forgets the header's flags between calls (isa-l#224).
    if (state.wrapper_flag == 0 && state.avail_in < kWholeHeaderBytes && !at_eof_) {
      ATTNPROF_RETURN_IF_ERROR(refill());
      continue;
    }
    const uint32_t in_before = state.avail_in;
    const uint32_t out_before = state.avail_out;
    const int code = isal_inflate(&state);
    if (code != ISAL_DECOMP_OK) return inflate_error(code);
    const bool progressed = state.avail_in != in_before || state.avail_out != out_before;
    if (!progressed && state.block_state != ISAL_BLOCK_FINISH) {
      // ISA-L took nothing and gave nothing: it needs input that the file does not have.
      if (at_eof_) return truncated_error();
      ATTNPROF_RETURN_IF_ERROR(refill());
    }
  }
  return Status::success();
}

// Moves the unconsumed input to the front of the buffer and reads the next block after it.
Status GzipByteStream::refill() {
  inflate_state& state = *state_;
  consumed_before_block_ = last_consumed_bytes();
  const size_t remaining = state.avail_in;
  if (remaining == kInputBlockBytes) {
    // Cannot happen: ISA-L buffers partial headers and symbols internally.
    return make_error(ErrorKind::kMalformed,
                      "gzip file '{}': the inflater stalled at compressed byte offset {} with a "
                      "full input buffer; please report this with the file",
                      path(), compressed_bytes_read());
  }
  std::memmove(input_.get(), state.next_in, remaining);
  Result<size_t> got = file_.read(input_.get() + remaining, kInputBlockBytes - remaining);
  if (!got) return got.take_error();
  if (*got == 0) at_eof_ = true;
  state.next_in = input_.get();
  state.avail_in = static_cast<uint32_t>(remaining + *got);
  return Status::success();
}

// After a member's end: true when another member starts, false at the end of the data.
// gzip's own rules: members may follow each other; zeros after the last one are padding.
Result<bool> GzipByteStream::start_next_member() {
  inflate_state& state = *state_;
  for (;;) {
    if (state.avail_in == 0) {
      if (at_eof_) return false;
      ATTNPROF_RETURN_IF_ERROR(refill());
      continue;
    }
    if (in_padding_ || state.next_in[0] == 0) {
      in_padding_ = true;
      while (state.avail_in > 0 && state.next_in[0] == 0) {
        ++state.next_in;
        --state.avail_in;
      }
      if (state.avail_in > 0) return trailing_data_error();
      continue;
    }
    if (state.next_in[0] != kGzipMagic0) return trailing_data_error();
    if (state.avail_in < 2) {
      if (at_eof_) return truncated_error();  // one byte of a next member's magic
      ATTNPROF_RETURN_IF_ERROR(refill());
      continue;
    }
    if (state.next_in[1] != kGzipMagic1) return trailing_data_error();
    isal_inflate_reset(&state);  // keeps crc_flag and the input/output pointers
    ++member_;
    member_offset_ = compressed_bytes_read();
    return true;
  }
}

// The last kTrailerBytes bytes ISA-L consumed: after a trailer check, the trailer itself
// (ISA-L stops right after it, see check_gzip_checksum in igzip_inflate.c).
std::array<uint8_t, GzipByteStream::kTrailerBytes> GzipByteStream::last_consumed_bytes() const {
  std::array<uint8_t, kTrailerBytes> last{};
  const size_t consumed = static_cast<size_t>(state_->next_in - input_.get());
  const size_t from_block = std::min(consumed, kTrailerBytes);
  const size_t from_before = kTrailerBytes - from_block;
  std::copy(consumed_before_block_.end() - from_before, consumed_before_block_.end(), last.begin());
  std::copy(input_.get() + consumed - from_block, input_.get() + consumed,
            last.begin() + from_before);
  return last;
}

Error GzipByteStream::truncated_error() const {
  return make_error(ErrorKind::kTruncated,
                    "gzip file '{}' ends early after {} compressed bytes: the file is truncated "
                    "(an interrupted copy or download, or a profiler that did not finish "
                    "writing); copy it again or record the trace again",
                    path(), file_.bytes_read());
}

Error GzipByteStream::inflate_error(int code) const {
  if (code == ISAL_INCORRECT_CHECKSUM && state_->block_state == ISAL_BLOCK_FINISH) {
    return trailer_error();
  }
  return make_error(ErrorKind::kMalformed,
                    "gzip file '{}' is corrupt: {} in gzip member {} (which starts at byte "
                    "offset {}), near compressed byte offset {}; the file was damaged: copy it "
                    "again, `gzip -t` checks a copy",
                    path(), deflate_problem(code), member_, member_offset_,
                    compressed_bytes_read());
}

Error GzipByteStream::trailer_error() const {
  const std::array<uint8_t, kTrailerBytes> trailer = last_consumed_bytes();
  const uint32_t stored_crc = load_le32(trailer.data());
  const uint32_t stored_size = load_le32(trailer.data() + 4);
  const bool crc_differs = stored_crc != state_->crc;
  const bool size_differs = stored_size != state_->total_out;
  std::string what;
  if (crc_differs) {
    what = fmt::format("CRC32 mismatch (the trailer says {:08x}, the data gives {:08x})",
                       stored_crc, state_->crc);
  }
  if (size_differs) {
    what += fmt::format("{}length mismatch (the trailer says {} bytes mod 2^32, the data gives {})",
                        crc_differs ? " and " : "", stored_size, state_->total_out);
  }
  if (what.empty()) what = "CRC32 or length mismatch";
  return make_error(ErrorKind::kMalformed,
                    "gzip file '{}' is corrupt: {} in the trailer of gzip member {} at byte "
                    "offset {}; the data was damaged: copy the file again, `gzip -t` checks a "
                    "copy",
                    path(), what, member_, compressed_bytes_read() - kTrailerBytes);
}

Error GzipByteStream::trailing_data_error() const {
  return make_error(ErrorKind::kMalformed,
                    "gzip file '{}' has bytes that are not gzip after gzip member {}, at byte "
                    "offset {}: the file was damaged or appended to; `gzip -dc` recovers the "
                    "JSON before them",
                    path(), member_, compressed_bytes_read());
}

}  // namespace attnprof
