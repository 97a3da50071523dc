// Transport for address = "local": commands run on this machine (inside the
// host's lab network namespace when the profile names one), files are copied.
#pragma once

#include "labgate/transport/transport.h"

namespace labgate::transport {

class LocalTransport : public Transport {
 public:
  explicit LocalTransport(const profile::Host& host);

  const std::string& host_name() const override { return host_.name; }
  std::string describe() const override;
  RunResult run(const std::vector<std::string>& argv, const RunOptions& options = {}) override;
  std::unique_ptr<Process> start(const std::vector<std::string>& argv,
                                 const StartOptions& options = {}) override;
  void upload_data(std::string_view data, const std::string& remote_path, int mode) override;
  std::string read_file(const std::string& remote_path, std::size_t limit = kDefaultOutputLimit) override;
  std::optional<FileInfo> lstat(const std::string& remote_path) override;
  /// "local-<netns>" ("local-host" outside one): every profile naming the same
  /// namespace reaches the same lab host.
  std::string host_identity() override {
    return "local-" + (host_.netns ? *host_.netns : std::string("host"));
  }

 private:
  /// argv, prefixed with `ip netns exec NS` for a lab host.
  std::vector<std::string> full_argv(const std::vector<std::string>& argv) const;

  profile::Host host_;
};

}  // namespace labgate::transport
