// ByteStream: plain and gzip files, every way a gzip file can be damaged, and the limits. The
// reference for decompressed bytes is the `gzip`
// command itself, so the test does not trust ISA-L to check ISA-L.

#include "io/byte_stream.h"
#include "gzip_file_writer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace attnprof {
namespace {

namespace fs = std::filesystem;

const fs::path kTestData = ATTNPROF_TEST_DATA;
const fs::path kSmallFixture = kTestData / "cuda_graph.json.gz";  // 3 KB -> 31 KB
const fs::path kLargeFixture = kTestData / "train_step.json.gz";  // 48 KB -> 588 KB

struct ReadOutcome {
  std::string data;
  std::optional<Error> error;
};

// Reads until the end or the first failure, `capacity` bytes at a time.
ReadOutcome read_all(ByteStream& stream, size_t capacity) {
  ReadOutcome outcome;
  std::vector<char> buffer(capacity);
  for (;;) {
    Result<size_t> got = stream.read(buffer.data(), capacity);
    if (!got) {
      outcome.error = got.error();
      return outcome;
    }
    if (*got == 0) return outcome;
    EXPECT_LE(*got, capacity);
    outcome.data.append(buffer.data(), *got);
  }
}

ReadOutcome read_file(const fs::path& path, size_t capacity = 1 << 16,
                      const Limits& limits = Limits{}) {
  Result<std::unique_ptr<ByteStream>> stream = ByteStream::open(path.string(), limits);
  if (!stream) return {{}, stream.error()};
  return read_all(**stream, capacity);
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

// What `gzip -dc` makes of a file: the reference the streams are compared against.
std::string gunzip_reference(const fs::path& path) {
  const std::string command = fmt::format("gzip -dc '{}'", path.string());
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr) << command;
  if (pipe == nullptr) return {};
  std::string data;
  char buffer[1 << 16];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) data.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << command;
  return data;
}

std::vector<fs::path> fixtures() {
  std::vector<fs::path> paths;
  for (const fs::directory_entry& entry : fs::directory_iterator(kTestData)) {
    if (entry.path().extension() == ".gz") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// `zero_bytes` zeros in a gzip file: a gzip bomb.
void write_zeros_gzip(const fs::path& path, uint64_t zero_bytes) {
  testing::GzipFileWriter file(path.string());
  ASSERT_TRUE(file.write_repeated('\0', zero_bytes, /*last=*/true));
}

class ByteStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("attnprof_byte_stream_" + std::to_string(getpid()) + "_" + test->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
};

TEST_F(ByteStreamTest, PlainFileIsReadAsIs) {
  const std::string json = R"({"traceEvents": [{"ph": "X", "ts": 1.5}]})";
  write_bytes(dir_ / "trace.json", json);
  Result<std::unique_ptr<ByteStream>> stream =
      ByteStream::open((dir_ / "trace.json").string(), Limits{});
  ASSERT_TRUE(stream.ok()) << stream.error().message;
  EXPECT_FALSE((*stream)->is_gzip());
  EXPECT_EQ((*stream)->path(), (dir_ / "trace.json").string());
  ReadOutcome outcome = read_all(**stream, 4096);
  ASSERT_FALSE(outcome.error) << outcome.error->message;
  EXPECT_EQ(outcome.data, json);
  EXPECT_EQ((*stream)->decompressed_bytes(), json.size());
  EXPECT_EQ((*stream)->compressed_bytes_read(), json.size());
}

TEST_F(ByteStreamTest, GzipFileIsInflated) {
  Result<std::unique_ptr<ByteStream>> stream = ByteStream::open(kLargeFixture.string(), Limits{});
  ASSERT_TRUE(stream.ok()) << stream.error().message;
  EXPECT_TRUE((*stream)->is_gzip());
  ReadOutcome outcome = read_all(**stream, 1 << 16);
  ASSERT_FALSE(outcome.error) << outcome.error->message;
  EXPECT_EQ(outcome.data, gunzip_reference(kLargeFixture));
  EXPECT_EQ((*stream)->decompressed_bytes(), outcome.data.size());
  EXPECT_EQ((*stream)->compressed_bytes_read(), fs::file_size(kLargeFixture));
}

TEST_F(ByteStreamTest, CompressedBytesReadGrowsWithTheOutput) {
  Result<std::unique_ptr<ByteStream>> stream = ByteStream::open(kLargeFixture.string(), Limits{});
  ASSERT_TRUE(stream.ok()) << stream.error().message;
  char buffer[4096];
  uint64_t previous = 0;
  for (;;) {
    Result<size_t> got = (*stream)->read(buffer, sizeof buffer);
    ASSERT_TRUE(got.ok()) << got.error().message;
    if (*got == 0) break;
    EXPECT_GE((*stream)->compressed_bytes_read(), previous);
    EXPECT_LE((*stream)->compressed_bytes_read(), fs::file_size(kLargeFixture));
    previous = (*stream)->compressed_bytes_read();
  }
  EXPECT_EQ(previous, fs::file_size(kLargeFixture));
}

TEST_F(ByteStreamTest, GzipIsDetectedByItsMagicNotItsName) {
  fs::copy_file(kSmallFixture, dir_ / "trace.json");
  Result<std::unique_ptr<ByteStream>> stream =
      ByteStream::open((dir_ / "trace.json").string(), Limits{});
  ASSERT_TRUE(stream.ok()) << stream.error().message;
  EXPECT_TRUE((*stream)->is_gzip());
  ReadOutcome outcome = read_all(**stream, 1 << 16);
  ASSERT_FALSE(outcome.error) << outcome.error->message;
  EXPECT_EQ(outcome.data, gunzip_reference(kSmallFixture));
}

TEST_F(ByteStreamTest, PlainJsonNamedGzIsReadPlain) {
  write_bytes(dir_ / "trace.json.gz", "{}");
  ReadOutcome outcome = read_file(dir_ / "trace.json.gz");
  ASSERT_FALSE(outcome.error) << outcome.error->message;
  EXPECT_EQ(outcome.data, "{}");
}

TEST_F(ByteStreamTest, MultiMemberGzipIsReadWhole) {
  // `cat a.gz b.gz c.gz` is a valid gzip file: gzip -d gives the three contents in order.
  const std::string joined =
      file_bytes(kSmallFixture) + file_bytes(kLargeFixture) + file_bytes(kSmallFixture);
  write_bytes(dir_ / "joined.gz", joined);
  const std::string expected = gunzip_reference(kSmallFixture) + gunzip_reference(kLargeFixture) +
                               gunzip_reference(kSmallFixture);
  ASSERT_EQ(gunzip_reference(dir_ / "joined.gz"), expected);
  for (size_t capacity : {size_t{3}, size_t{4096}, size_t{1} << 20}) {
    ReadOutcome outcome = read_file(dir_ / "joined.gz", capacity);
    ASSERT_FALSE(outcome.error) << outcome.error->message;
    EXPECT_EQ(outcome.data, expected) << "capacity " << capacity;
  }
}

TEST_F(ByteStreamTest, EmptyMemberAndZeroPaddingAreAccepted) {
  // `gzip < /dev/null` writes a 20-byte member with no data; gzip ignores zeros at the end.
  ASSERT_EQ(
      std::system(fmt::format("gzip -c < /dev/null > '{}'", (dir_ / "empty.gz").string()).c_str()),
      0);
  const std::string padded =
      file_bytes(dir_ / "empty.gz") + file_bytes(kSmallFixture) + std::string(3000, '\0');
  write_bytes(dir_ / "padded.gz", padded);
  ReadOutcome outcome = read_file(dir_ / "padded.gz");
  ASSERT_FALSE(outcome.error) << outcome.error->message;
  EXPECT_EQ(outcome.data, gunzip_reference(kSmallFixture));
}

TEST_F(ByteStreamTest, EveryCutOfAGzipFileIsAnError) {
  // A truncated file must never read as a shorter trace. Every cut of the small fixture, and
  // cuts of the large one in its header, through its body, and in its trailer.
  struct Case {
    fs::path fixture;
    std::vector<size_t> cuts;
  };
  const std::string small = file_bytes(kSmallFixture);
  const std::string large = file_bytes(kLargeFixture);
  Case small_case{kSmallFixture, {}};
  for (size_t cut = 1; cut < small.size(); ++cut) small_case.cuts.push_back(cut);
  Case large_case{kLargeFixture, {}};
  for (size_t cut = 1; cut < 40; ++cut) large_case.cuts.push_back(cut);
  for (size_t cut = 40; cut < large.size() - 40; cut += 997) large_case.cuts.push_back(cut);
  for (size_t cut = large.size() - 40; cut < large.size(); ++cut) large_case.cuts.push_back(cut);

  for (const Case& c : {small_case, large_case}) {
    const std::string whole = file_bytes(c.fixture);
    const std::string reference = gunzip_reference(c.fixture);
    for (size_t cut : c.cuts) {
      const fs::path cut_path = dir_ / "cut.json.gz";
      write_bytes(cut_path, std::string_view(whole).substr(0, cut));
      ReadOutcome outcome = read_file(cut_path, 4096);
      ASSERT_TRUE(outcome.error) << c.fixture << " cut at " << cut << " read without error";
      EXPECT_NE(outcome.error->message.find("ends early after " + std::to_string(cut) +
                                            " compressed bytes: the file is truncated"),
                std::string::npos)
          << "cut at " << cut << ": " << outcome.error->message;
      EXPECT_NE(outcome.error->message.find(cut_path.string()), std::string::npos);
      // What came out before the error is a true prefix of the data.
      EXPECT_EQ(outcome.data, reference.substr(0, outcome.data.size())) << "cut at " << cut;
    }
  }
}

TEST_F(ByteStreamTest, FlippedByteInTheDataIsCorrupt) {
  std::string bytes = file_bytes(kLargeFixture);
  bytes[bytes.size() / 2] ^= 0x55;
  write_bytes(dir_ / "flipped.gz", bytes);
  ReadOutcome outcome = read_file(dir_ / "flipped.gz");
  ASSERT_TRUE(outcome.error);
  // A flipped bit either breaks the deflate stream or decodes to other bytes (the CRC catches).
  EXPECT_NE(outcome.error->message.find("is corrupt"), std::string::npos) << outcome.error->message;
  EXPECT_NE(outcome.error->message.find((dir_ / "flipped.gz").string()), std::string::npos);
}

TEST_F(ByteStreamTest, FlippedCrcIsACrcMismatch) {
  std::string bytes = file_bytes(kLargeFixture);
  bytes[bytes.size() - 8] ^= 0x01;  // the trailer: CRC32 (4 bytes), then ISIZE (4 bytes)
  write_bytes(dir_ / "bad_crc.gz", bytes);
  for (size_t capacity : {size_t{1}, size_t{4096}, size_t{1} << 20}) {
    ReadOutcome outcome = read_file(dir_ / "bad_crc.gz", capacity);
    ASSERT_TRUE(outcome.error);
    EXPECT_NE(outcome.error->message.find("CRC32 mismatch"), std::string::npos)
        << outcome.error->message;
    EXPECT_EQ(outcome.error->message.find("length mismatch"), std::string::npos)
        << outcome.error->message;
    EXPECT_NE(outcome.error->message.find("byte offset " + std::to_string(bytes.size() - 8)),
              std::string::npos)
        << outcome.error->message;
  }
}

TEST_F(ByteStreamTest, FlippedLengthIsALengthMismatch) {
  std::string bytes = file_bytes(kLargeFixture);
  bytes[bytes.size() - 2] ^= 0x01;
  write_bytes(dir_ / "bad_size.gz", bytes);
  ReadOutcome outcome = read_file(dir_ / "bad_size.gz");
  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->message.find("length mismatch"), std::string::npos)
      << outcome.error->message;
  EXPECT_EQ(outcome.error->message.find("CRC32 mismatch"), std::string::npos)
      << outcome.error->message;
}

TEST_F(ByteStreamTest, BadTrailerInASecondMemberNamesThatMember) {
  std::string second = file_bytes(kSmallFixture);
  second[second.size() - 5] ^= 0x10;  // the CRC's last byte
  write_bytes(dir_ / "two.gz", file_bytes(kSmallFixture) + second);
  ReadOutcome outcome = read_file(dir_ / "two.gz", 7);
  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->message.find("CRC32 mismatch"), std::string::npos)
      << outcome.error->message;
  EXPECT_NE(outcome.error->message.find("in the trailer of gzip member 2 at byte offset " +
                                        std::to_string(2 * second.size() - 8)),
            std::string::npos)
      << outcome.error->message;
}

TEST_F(ByteStreamTest, UnsupportedMethodIsCorrupt) {
  std::string bytes = file_bytes(kSmallFixture);
  bytes[2] = 0x07;  // CM: only 8 (deflate) exists
  write_bytes(dir_ / "method.gz", bytes);
  ReadOutcome outcome = read_file(dir_ / "method.gz");
  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->message.find("is corrupt"), std::string::npos) << outcome.error->message;
  EXPECT_TRUE(outcome.data.empty());
}

TEST_F(ByteStreamTest, TrailingGarbageIsAnError) {
  write_bytes(dir_ / "garbage.gz", file_bytes(kSmallFixture) + "garbage");
  ReadOutcome outcome = read_file(dir_ / "garbage.gz");
  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->message.find("not gzip after gzip member 1, at byte offset " +
                                        std::to_string(fs::file_size(kSmallFixture))),
            std::string::npos)
      << outcome.error->message;
  // All the data came out before the error.
  EXPECT_EQ(outcome.data, gunzip_reference(kSmallFixture));
}

TEST_F(ByteStreamTest, ErrorsAreSticky) {
  write_bytes(dir_ / "cut.gz", file_bytes(kSmallFixture).substr(0, 1000));
  Result<std::unique_ptr<ByteStream>> stream =
      ByteStream::open((dir_ / "cut.gz").string(), Limits{});
  ASSERT_TRUE(stream.ok());
  ReadOutcome outcome = read_all(**stream, 4096);
  ASSERT_TRUE(outcome.error);
  char byte;
  Result<size_t> again = (*stream)->read(&byte, 1);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message, outcome.error->message);
}

TEST_F(ByteStreamTest, MissingFileIsAnError) {
  const fs::path missing = dir_ / "no_such_trace.json.gz";
  const ReadOutcome outcome = read_file(missing);
  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->message.find(missing.string()), std::string::npos);
  EXPECT_NE(outcome.error->message.find("no such file"), std::string::npos)
      << outcome.error->message;
}

TEST_F(ByteStreamTest, DirectoryIsAnError) {
  ReadOutcome outcome = read_file(dir_);
  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->message.find("is a directory"), std::string::npos)
      << outcome.error->message;
  EXPECT_NE(outcome.error->message.find(dir_.string()), std::string::npos);
}

TEST_F(ByteStreamTest, UnreadableFileIsAnError) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads any file";
  write_bytes(dir_ / "secret.json", "{}");
  fs::permissions(dir_ / "secret.json", fs::perms::none);
  ReadOutcome outcome = read_file(dir_ / "secret.json");
  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->message.find("permission denied"), std::string::npos)
      << outcome.error->message;
}

TEST_F(ByteStreamTest, EmptyFileReadsNothingWithoutError) {
  // The JSON reader, not the stream, says that an empty file is no trace.
  write_bytes(dir_ / "empty.json", "");
  const ReadOutcome outcome = read_file(dir_ / "empty.json");
  EXPECT_FALSE(outcome.error) << outcome.error->message;
  EXPECT_TRUE(outcome.data.empty());
}

TEST_F(ByteStreamTest, OneByteOfGzipMagicIsATruncatedGzip) {
  write_bytes(dir_ / "one.gz", "\x1f");
  ReadOutcome outcome = read_file(dir_ / "one.gz");
  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->message.find("the file is truncated"), std::string::npos)
      << outcome.error->message;
}

TEST_F(ByteStreamTest, DecompressedSizeLimitStopsTheRead) {
  Limits limits;
  limits.max_decompressed_bytes = 10000;
  write_bytes(dir_ / "plain.json", gunzip_reference(kSmallFixture));
  for (const fs::path& path : {kSmallFixture, dir_ / "plain.json"}) {
    const ReadOutcome outcome = read_file(path, 4096, limits);
    ASSERT_TRUE(outcome.error) << path;
    EXPECT_NE(outcome.error->message.find("--max-json-bytes"), std::string::npos)
        << outcome.error->message;
    EXPECT_NE(outcome.error->message.find(path.string()), std::string::npos);
    EXPECT_LE(outcome.data.size(), limits.max_decompressed_bytes);
  }
  limits.max_decompressed_bytes = gunzip_reference(kSmallFixture).size();  // exactly at it
  EXPECT_FALSE(read_file(kSmallFixture, 4096, limits).error);
}

TEST_F(ByteStreamTest, GzipBombIsStoppedByTheRatioLimit) {
  // 200 MiB of zeros: ISA-L level 1 packs them ~985:1, just under the default limit of 1000,
  // so the test sets its own.
  const fs::path bomb = dir_ / "bomb.json.gz";
  write_zeros_gzip(bomb, uint64_t{200} << 20);
  Limits limits;
  limits.max_gzip_ratio = 500;
  {
    Result<std::unique_ptr<ByteStream>> stream = ByteStream::open(bomb.string(), limits);
    ASSERT_TRUE(stream.ok());
    std::vector<char> buffer(1 << 20);
    uint64_t total = 0;
    std::optional<Error> error;
    for (;;) {
      Result<size_t> got = (*stream)->read(buffer.data(), buffer.size());
      if (!got) {
        error = got.error();
        break;
      }
      if (*got == 0) break;
      total += *got;
    }
    ASSERT_TRUE(error) << "the bomb went off: " << total << " bytes";
    EXPECT_NE(error->message.find("--max-gzip-ratio"), std::string::npos) << error->message;
    EXPECT_NE(error->message.find("gzip bomb"), std::string::npos) << error->message;
    // Judged once more than 64 MiB came out, and not much later.
    EXPECT_GE(total, uint64_t{63} << 20);
    EXPECT_LE(total, uint64_t{70} << 20);
  }
}

TEST_F(ByteStreamTest, SmallFileThatCompressesWellIsNotABomb) {
  // The ratio is only judged past 64 MiB of output: 32 MiB of zeros is fine at any ratio.
  const fs::path zeros = dir_ / "zeros.gz";
  write_zeros_gzip(zeros, uint64_t{32} << 20);
  Limits limits;
  limits.max_gzip_ratio = 2;
  ReadOutcome outcome = read_file(zeros, 1 << 20, limits);
  EXPECT_FALSE(outcome.error) << outcome.error->message;
  EXPECT_EQ(outcome.data.size(), uint64_t{32} << 20);
}

TEST_F(ByteStreamTest, EveryFixtureGivesTheBytesGzipGives) {
  std::vector<fs::path> paths = fixtures();
  ASSERT_FALSE(paths.empty()) << "no fixtures in " << kTestData;
  write_bytes(dir_ / "plain.json", gunzip_reference(kLargeFixture));
  paths.push_back(dir_ / "plain.json");
  for (const fs::path& path : paths) {
    const ReadOutcome reference = read_file(path, 1 << 20);
    ASSERT_FALSE(reference.error) << reference.error->message;
    if (path.extension() == ".gz") {
      EXPECT_TRUE(reference.data == gunzip_reference(path)) << path;
    }
    const ReadOutcome small = read_file(path, 4093);
    ASSERT_FALSE(small.error) << small.error->message;
    EXPECT_TRUE(small.data == reference.data) << path;
  }
}

TEST_F(ByteStreamTest, TinyReadsWork) {
  const std::string reference = gunzip_reference(kSmallFixture);
  write_bytes(dir_ / "plain.json", reference);
  for (size_t capacity = 1; capacity <= 7; ++capacity) {
    for (const fs::path& path : {kSmallFixture, dir_ / "plain.json"}) {
      ReadOutcome direct = read_file(path, capacity);
      ASSERT_FALSE(direct.error) << direct.error->message;
      EXPECT_TRUE(direct.data == reference) << path << " capacity " << capacity;
    }
  }
  // The large fixture a byte at a time: ISA-L's internal output buffer at its smallest.
  ReadOutcome one_by_one = read_file(kLargeFixture, 1);
  ASSERT_FALSE(one_by_one.error) << one_by_one.error->message;
  EXPECT_TRUE(one_by_one.data == gunzip_reference(kLargeFixture));
}

}  // namespace
}  // namespace attnprof
