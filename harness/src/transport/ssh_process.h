// A long-running command started over SSH (a probe server): its own process
// group on the host, stopped over a second channel, output kept as it arrives.
#pragma once

#include <memory>
#include <optional>

#include "labgate/transport/transport.h"
#include "ssh_connection.h"
#include "ssh_exec.h"

namespace labgate::transport {

class SshProcess : public Process {
 public:
  /// Takes over a started exec; waits (connect timeout) for its process-group id.
  SshProcess(std::shared_ptr<SshConnection> conn, std::unique_ptr<SshExec> exec);
  ~SshProcess() override;

  std::optional<RunResult> wait(Nanos timeout) override;
  bool wait_for_output(std::string_view needle, Nanos timeout) override;
  RunResult stop(Nanos grace) override;
  std::string stdout_so_far() override;
  long pgid() const override { return pgid_; }
  const std::string& command() const override { return command_; }

 private:
  // Pumps until EOF, `needle` or `until`; finishes result_ at EOF. Takes the
  // connection's lock itself and lets go of it while waiting.
  bool pump_until(std::chrono::steady_clock::time_point until, std::string_view needle = {});
  void finish();

  std::shared_ptr<SshConnection> conn_;
  std::unique_ptr<SshExec> exec_;
  std::string command_;
  long pgid_ = 0;
  std::chrono::steady_clock::time_point started_;
  std::optional<RunResult> result_;
};

}  // namespace labgate::transport
