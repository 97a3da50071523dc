// Atomic, error-reporting file writes for the results folder.
#include "labgate/results/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "labgate/util/exit_code.h"

namespace labgate::results {

namespace {

[[noreturn]] void write_error(const std::string& what, int err) {
  throw Failure(ExitCode::kCouldNotRun, "cannot write results file " + what + ": " + std::strerror(err));
}

// Closes the descriptor on every path; a close error is a write error on NFS.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release_and_close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

}  // namespace

void write_all(int fd, std::string_view content, const std::string& what) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      write_error(what, errno);
    }
    if (n == 0) write_error(what, ENOSPC);
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  const std::string dir = path.parent_path().empty() ? std::string(".") : path.parent_path().string();
  Fd dfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dfd.get() < 0) write_error(path.string(), errno);
  write_file_atomic_at(dfd.get(), path.filename().string(), content, path.string());
}

void write_file_atomic_at(int dirfd, const std::string& relative, std::string_view content,
                          const std::string& shown) {
  const std::size_t slash = relative.rfind('/');
  const std::string parent = slash == std::string::npos ? "." : relative.substr(0, slash);
  const std::string name = slash == std::string::npos ? relative : relative.substr(slash + 1);
  // Unique per process and call, so concurrent writers of one file never share a temp.
  static std::atomic<unsigned> counter{0};
  const std::string temp = (slash == std::string::npos ? "" : parent + "/") + "." + name + ".tmp." +
                           std::to_string(::getpid()) + "." + std::to_string(++counter);
  Fd fd(::openat(dirfd, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (fd.get() < 0) write_error(shown, errno);
  try {
    write_all(fd.get(), content, shown);
    if (::fsync(fd.get()) != 0) write_error(shown, errno);
    if (fd.release_and_close() != 0) write_error(shown, errno);
    if (::renameat(dirfd, temp.c_str(), dirfd, relative.c_str()) != 0) write_error(shown, errno);
  } catch (...) {
    ::unlinkat(dirfd, temp.c_str(), 0);  // never leave a half-written temp behind
    throw;
  }
  // Make the rename itself durable; a failure here loses nothing already readable.
  Fd pfd(::openat(dirfd, parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (pfd.get() >= 0) ::fsync(pfd.get());
}

std::string read_file_at(int dirfd, const std::string& relative, const std::string& shown) {
  Fd fd(::openat(dirfd, relative.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0)
    throw Failure(ExitCode::kUsageError, "cannot read " + shown + ": " + std::strerror(errno));
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Failure(ExitCode::kUsageError, "cannot read " + shown + ": " + std::strerror(errno));
    if (n == 0) return out;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Failure(ExitCode::kUsageError, "cannot read " + path.string() + ": " + std::strerror(errno));
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) throw Failure(ExitCode::kUsageError, "cannot read " + path.string() + ": read error");
  return out.str();
}

}  // namespace labgate::results
