// Shared pieces of the transport interface: result descriptions, the
// "must succeed" check, and choosing SSH or local for a host.
#include "labgate/transport/transport.h"

#include <cstdio>
#include <fstream>
#include <iterator>

#include "capture.h"
#include "labgate/transport/shell_quote.h"
#include "labgate/util/excerpt.h"
#include "labgate/util/exit_code.h"
#include "local_transport.h"
#include "ssh_control.h"
#include "ssh_transport.h"

namespace labgate::transport {

std::string RunResult::describe() const {
  if (timed_out) return "timed out after " + format_seconds(duration) + " and was killed";
  if (!signal.empty()) return "killed by SIG" + signal;
  return "exit " + std::to_string(exit_status);
}

std::string format_size(std::size_t bytes) {
  char buf[32];
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) {
    std::snprintf(buf, sizeof buf, "%zu MiB", bytes >> 20);
  } else if (bytes >= 1024 && bytes % 1024 == 0) {
    std::snprintf(buf, sizeof buf, "%zu KiB", bytes >> 10);
  } else {
    std::snprintf(buf, sizeof buf, "%zu bytes", bytes);
  }
  return buf;
}

void require_ok(const RunResult& r, const std::string& host, const std::vector<std::string>& argv) {
  if (r.ok()) return;
  std::string err = r.err;
  // The first few lines say what went wrong; the rest would drown the message.
  std::size_t cut = 0;
  for (int lines = 0; lines < 5 && cut != std::string::npos; ++lines) {
    cut = err.find('\n', cut == 0 && lines == 0 ? 0 : cut + 1);
  }
  if (cut != std::string::npos) err = err.substr(0, cut) + "\n...";
  while (!err.empty() && err.back() == '\n') err.pop_back();
  // A line can still be megabytes of binary garbage: bounded, escaped, readable.
  err = excerpt(err, 2000, /*keep_newlines=*/true);
  throw Failure(ExitCode::kCouldNotRun, "host " + host + ": `" + shell_join(argv) + "` " + r.describe() +
                                            (err.empty() ? "" : ": " + err));
}

namespace {

std::string local_file_for(const std::string& local_path, const std::string& host) {
  std::ifstream in(local_path, std::ios::binary);
  if (!in) throw Failure(ExitCode::kCouldNotRun, "cannot read " + local_path + " to upload it to host " + host);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

void Transport::upload(const std::string& local_path, const std::string& remote_path, int mode) {
  upload_data(local_file_for(local_path, host_name()), remote_path, mode);
}

void Transport::upload_to_private_dir(const std::string& local_path, const std::string& remote_path, int mode) {
  upload_data_to_private_dir(local_file_for(local_path, host_name()), remote_path, mode);
}

std::vector<std::optional<Transport::FileInfo>> Transport::lstat_each(const std::vector<std::string>& remote_paths) {
  std::vector<std::optional<FileInfo>> out;
  for (const std::string& p : remote_paths) out.push_back(lstat(p));
  return out;
}

std::unique_ptr<Transport> make_transport(const profile::Host& host) {
  if (host.address == "local") return std::make_unique<LocalTransport>(host);
  return std::make_unique<SshTransport>(host);
}

}  // namespace labgate::transport
