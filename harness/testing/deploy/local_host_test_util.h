// For deployment tests on this machine: the echo probe built next to the test
// binaries, and a host whose probe_dir is a fresh private directory under /tmp.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

#include "labgate/profile/profile.h"

namespace labgate::deploy::testing {

// <build>/probes/echo, beside <build>/tests/<binary>.
inline std::string echo_probe_path() {
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "probes" / "echo")
      .string();
}

// Host "l" reached locally, its probe_dir made from `tmpl` (mkdtemp's
// XXXXXX template); empty probe_dir when it could not be made.
inline profile::Host local_host_with_new_probe_dir(std::string tmpl) {
  profile::Host h;
  h.name = "l";
  h.address = "local";
  if (mkdtemp(tmpl.data())) h.ssh.probe_dir = tmpl;
  return h;
}

}  // namespace labgate::deploy::testing
