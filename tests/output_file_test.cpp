// Writing files without losing data (docs/SECURITY.md; docs/PERFORMANCE.md): one writer in io/ for
// the core and the bench; outputs that are inputs refused; devices, FIFOs and sockets never
// replaced; symbolic links followed; modes kept; no temporary file left by a signal; `-` for
// standard output; failed writes said in one line.

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "io/output_file.h"
#include "test_support.h"

namespace attnprof {
namespace {

namespace fs = std::filesystem;
using testing::fixture;
using testing::run_cli;
using testing::TempFile;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

size_t entries_in(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(OutputFile, ReplacesWholeOrNotAtAll) {
  TempFile file("out.txt", "old");
  {
    Result<OutputFile> out = OutputFile::open(file.path());
    ASSERT_TRUE(out.ok()) << out.error().message;
    ASSERT_TRUE(out->write("new, half"));
    EXPECT_EQ(read_all(file.path()), "old");  // nothing seen before the commit
    // No commit: the destructor drops the temporary file.
  }
  EXPECT_EQ(read_all(file.path()), "old");
  EXPECT_EQ(entries_in(file.dir()), 1u);
  ASSERT_TRUE(write_output_file(file.path(), "new"));
  EXPECT_EQ(read_all(file.path()), "new");
  EXPECT_EQ(entries_in(file.dir()), 1u);
}

TEST(OutputFile, KeepsTheModeOfTheFileItReplaces) {
  TempFile file("private.txt", "old");
  ASSERT_EQ(::chmod(file.path().c_str(), 0600), 0);
  ASSERT_TRUE(write_output_file(file.path(), "new"));
  struct stat info {};
  ASSERT_EQ(::stat(file.path().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0600u);  // 0644 before
  // A new file gets 0666 less the umask, as any program's would.
  const mode_t mask = ::umask(022);
  const std::string fresh = file.dir() + "/fresh.txt";
  ASSERT_TRUE(write_output_file(fresh, "x"));
  ::umask(mask);
  ASSERT_EQ(::stat(fresh.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0644u);
}

TEST(OutputFile, WritesThroughASymbolicLink) {
  TempFile target("target.txt", "old");
  const std::string link = target.dir() + "/link.txt";
  ASSERT_EQ(::symlink("target.txt", link.c_str()), 0);  // relative, as links often are
  ASSERT_TRUE(write_output_file(link, "new"));
  EXPECT_TRUE(fs::is_symlink(link));  // the link stays a link
  EXPECT_EQ(read_all(target.path()), "new");
  // A dangling link creates its target.
  const std::string dangling = target.dir() + "/dangling.txt";
  ASSERT_EQ(::symlink("created.txt", dangling.c_str()), 0);
  ASSERT_TRUE(write_output_file(dangling, "made"));
  EXPECT_TRUE(fs::is_symlink(dangling));
  EXPECT_EQ(read_all(target.dir() + "/created.txt"), "made");
  // A loop of links is one clear line.
  const std::string loop = target.dir() + "/loop";
  ASSERT_EQ(::symlink("loop", loop.c_str()), 0);
  Status looped = write_output_file(loop, "x");
  ASSERT_FALSE(looped);
  EXPECT_NE(looped.error().message.find("symbolic links"), std::string::npos);
}

TEST(OutputFile, WritesIntoDevicesAndFifosAndRefusesSockets) {
  // /dev/null stays a character device (as root, a rename would have replaced it).
  ASSERT_TRUE(write_output_file("/dev/null", "into the void"));
  struct stat info {};
  ASSERT_EQ(::stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));

  TempFile dir("unused");
  const std::string fifo = dir.dir() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = read_all(fifo); });
  EXPECT_TRUE(write_output_file(fifo, "through the fifo"));
  reader.join();
  EXPECT_EQ(received, "through the fifo");
  ASSERT_EQ(::stat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));

  const std::string socket_path = dir.dir() + "/sock";
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socket_path.c_str());
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  Status refused = write_output_file(socket_path, "x");
  ::close(s);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("socket"), std::string::npos) << refused.error().message;
  Status folder = write_output_file(dir.dir(), "x");
  ASSERT_FALSE(folder);
  EXPECT_NE(folder.error().message.find("directory"), std::string::npos);
}

TEST(OutputFile, AFullDiskIsOneLine) {
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  Status full = write_output_file("/dev/full", "x");
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error().message, "cannot write /dev/full: No space left on device");
}

TEST(OutputFile, ReportRefusesToReplaceItsInput) {
  TempFile trace("t.json", read_all(fixture("odd/two_ranks.json")));
  const std::string before = read_all(trace.path());
  auto r = run_cli("report " + trace.path() + " -o " + trace.path());
  EXPECT_EQ(r.exit_code, 2);  // 0 before, with the trace replaced by HTML
  EXPECT_NE(r.output.find("over an input of the command"), std::string::npos) << r.output;
  EXPECT_EQ(read_all(trace.path()), before);
  // Through a symbolic link too.
  const std::string link = trace.dir() + "/link.html";
  ASSERT_EQ(::symlink(trace.path().c_str(), link.c_str()), 0);
  EXPECT_EQ(run_cli("report " + trace.path() + " -o " + link).exit_code, 2);
  EXPECT_EQ(read_all(trace.path()), before);
}

TEST(OutputFile, DashIsStandardOutputAndStandardInput) {
  auto report = run_cli("report " + fixture("odd/two_ranks.json") + " --format md -o -");
  EXPECT_EQ(report.exit_code, 0) << report.output;
  EXPECT_EQ(report.output.rfind("# attnprof report", 0), 0u) << report.output;
  auto from_stdin = testing::run_command("gzip -dc " + fixture("study_naive.json.gz") + " | " +
                                         ATTNPROF_CLI + " analyze --format json -");
  EXPECT_EQ(from_stdin.exit_code, 0) << from_stdin.output.substr(0, 500);
  EXPECT_NE(from_stdin.output.find("\"regions\""), std::string::npos);
  auto gzip_stdin = testing::run_command(std::string(ATTNPROF_CLI) + " analyze - < " +
                                         fixture("study_naive.json.gz"));
  EXPECT_EQ(gzip_stdin.exit_code, 0) << gzip_stdin.output.substr(0, 500);
}

TEST(OutputFile, FailedWritesOfCommandsAreOneLineAndABrokenPipeIsQuiet) {
  const std::string trace = fixture("study_naive.json.gz");
  if (::access("/dev/full", W_OK) == 0) {
    auto full = testing::run_command("{ " + std::string(ATTNPROF_CLI) + " analyze " + trace +
                                     " 2>&1 >/dev/full; }");
    EXPECT_EQ(full.exit_code, 2);
    EXPECT_EQ(full.output,
              "attnprof: cannot write to standard output: No space left on device\n");  // was ""
  }
  auto closed =
      testing::run_command("{ " + std::string(ATTNPROF_CLI) + " analyze " + trace + " 2>&1 >&-; }");
  EXPECT_EQ(closed.exit_code, 2);
  EXPECT_EQ(closed.output, "attnprof: cannot write to standard output: Bad file descriptor\n");
  // `| head -c 1` closes the pipe early: nothing on stderr.
  auto piped = testing::run_command(
      "sh -c '" + std::string(ATTNPROF_CLI) + " analyze --format json " + trace +
      " 2>/tmp/attnprof_pipe_err_$$ | head -c 1 >/dev/null; "
      "cat /tmp/attnprof_pipe_err_$$; rm -f /tmp/attnprof_pipe_err_$$'");
  EXPECT_EQ(piped.output, "");
}

// The child writes half a file and is stopped by `signal_number`; the old file must stay whole and
// alone in its folder. With a named temporary, the folder must have held it mid-write (else the
// test would not be testing the handler).
void expect_signal_leaves_nothing(TemporaryFile temporary, int signal_number) {
  TempFile file("out.txt", "old");
  int seen[2];
  ASSERT_EQ(::pipe(seen), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(seen[0]);
    Result<OutputFile> out = OutputFile::open(file.path(), temporary);
    if (!out) ::_exit(3);
    (void)out->write("half");
    const char entries = static_cast<char>('0' + entries_in(file.dir()));
    (void)!::write(seen[1], &entries, 1);
    ::raise(signal_number);  // as if the user stopped it mid-write
    ::_exit(4);
  }
  ::close(seen[1]);
  char entries = 0;
  ASSERT_EQ(::read(seen[0], &entries, 1), 1);
  ::close(seen[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;  // died by the signal, as before
  EXPECT_EQ(WTERMSIG(status), signal_number);
  if (temporary == TemporaryFile::kNamed) {
    EXPECT_EQ(entries, '2');
  }
  EXPECT_EQ(read_all(file.path()), "old");
  EXPECT_EQ(entries_in(file.dir()), 1u);  // no temporary file beside it
}

TEST(OutputFile, ASignalLeavesNoTemporaryFile) {
  expect_signal_leaves_nothing(TemporaryFile::kUnnamedWhereSupported, SIGTERM);
}

// Where the file system has no O_TMPFILE the temporary has a name, which the signal handler
// removes before the process dies.
TEST(OutputFile, ASignalRemovesANamedTemporaryFile) {
  for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
    SCOPED_TRACE(signal_number);
    expect_signal_leaves_nothing(TemporaryFile::kNamed, signal_number);
  }
}

}  // namespace
}  // namespace attnprof
