// The disk kinds: kind = "disk_random_read", "disk_random_write" and
// "disk_random_rw", random I/O of block_size on one file created (and removed)
// below the configured directory on the host of `on`, by the disk probe or by
// sysbench fileio. One family, one file: the three share their keys, checks,
// statistics and runner (gate/storage_runner.cc run_disk_case, a helper it calls);
// only disk_random_rw takes read_mix. The keys are read with the shared ones
// (load_test_fields.cc: disk_dir in [defaults.test] is `dir` in a test).
#include <cctype>

#include "labgate/gate/host_runners.h"
#include "labgate/gate/kind_runner.h"
#include "labgate/gate/kinds.h"
#include "labgate/profile/kind_traits.h"
#include "labgate/util/units.h"
#include "profile/reader.h"
#include "profile/test_draft.h"

namespace labgate::kinds {
namespace {

using profile::Stat;
using profile::TestKind;
using profile::Tool;

// --- In a profile ---

// The file stays strictly below the configured directory; O_DIRECT wants whole sectors.
void check_disk_keys(profile::detail::TestDraft& t, const profile::Profile&,
                     profile::detail::Diagnostics& d) {
  profile::TestSpec& s = t.spec;
  profile::DiskParams& k = s.disk;
  if (k.dir.empty()) {
    if (t.where.count("dir")) return;  // written but invalid: reported where it was read
    d.error(s.pos, t.key + ".dir",
            "missing; a disk test writes only below a directory you name: disk_dir = \"/u01/labgate\" in "
            "[defaults.test], or dir = \"...\" in the test");
    return;
  }
  if (k.path.empty()) {
    std::string file = s.name;
    for (char& c : file)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) c = '_';
    k.path = (k.dir == "/" ? "" : k.dir) + "/labgate-" + file + ".dat";
  } else if (k.dir != "/" && !k.path.starts_with(k.dir + "/")) {
    d.error(t.pos_of("path"), t.key_of("path"),
            "\"" + k.path + "\" is not below the configured directory \"" + k.dir +
                "\"; a disk test may only create its file there");
  }
  if (s.kind == TestKind::kDiskRandomRw && (k.read_mix <= 0 || k.read_mix >= 1))
    d.error(t.pos_of("read_mix"), t.key_of("read_mix"),
            "a disk_random_rw test needs reads and writes: between 0% and 100% exclusive (use "
            "disk_random_read or "
            "disk_random_write for one kind only)");
  if (k.block_size < 512 || (k.direct && k.block_size % 512 != 0))
    d.error(t.pos_of("block_size"), t.key_of("block_size"),
            "must be at least 512 bytes" + std::string(k.direct ? " and a multiple of 512 (O_DIRECT)" : "") +
                "; found " + std::to_string(k.block_size));
  else if (k.file_size < k.block_size)
    d.error(t.pos_of("file_size"), t.key_of("file_size"),
            "must hold at least one block of " + std::to_string(k.block_size) + " bytes");
}

bool disk_produces(Tool tool, Stat stat) {
  if (stat == Stat::kMinIops || stat == Stat::kMinThroughput) return true;
  if (tool == Tool::kSysbench)  // min/avg/max and the --percentile=99 line
    return stat == Stat::kP99 || stat == Stat::kMax || stat == Stat::kMean;
  return profile::is_latency(stat);  // the probe's I/O-time histogram
}

profile::KindTraits disk_traits(TestKind kind, const char* name) {
  profile::KindTraits t{
      .kind = kind,
      .name = name,
      .probe = "disk",
      .takes = {"on", "warmup", "interval", "duration"},
      .own = {{"dir", "`dir` is where a disk test may create its file"},
              {"path", "`path` is a disk test's file"},
              {"file_size", "`file_size` is a disk test's file size"},
              {"block_size", "`block_size` is a disk test's I/O size"},
              {"threads", "`threads` is a disk test's parallelism"},
              {"direct", "`direct` sets O_DIRECT for a disk test"}},
      .refuses = {},
      .on_hosts = true,
      .on_many = false,
      .series = true,
      .tool_runs = [](Tool tool) { return tool == Tool::kBuiltin || tool == Tool::kSysbench; },
      .produces = disk_produces,
      .read = nullptr,
      .check_hosts = nullptr,
      .check = check_disk_keys,
  };
  if (kind == TestKind::kDiskRandomRw)
    t.own.push_back({"read_mix", "`read_mix` is the share of reads of a disk_random_rw test"});
  return t;
}

const profile::KindRegistration kDiskReadTraits{disk_traits(TestKind::kDiskRandomRead, "disk_random_read")};
const profile::KindRegistration kDiskWriteTraits{
    disk_traits(TestKind::kDiskRandomWrite, "disk_random_write")};
const profile::KindRegistration kDiskRwTraits{disk_traits(TestKind::kDiskRandomRw, "disk_random_rw")};

#ifndef LABGATE_PROFILE_ONLY  // the profile fuzzer links the profile side only
// --- In a gate run ---

std::string disk_measuring(const profile::TestSpec& t) {
  if (t.tool != Tool::kBuiltin) return "";  // sysbench: its own timing, worded by the tool
  return "random I/O for " + units::format_duration(t.duration) + gate::excluded_warmup(t);
}

gate::KindRunner disk_runner(TestKind kind) {
  return {
      .kind = kind,
      .suite = "Storage",
      .label = "storage",
      .measuring = disk_measuring,
      .expand = gate::cases_on_hosts,  // the one host of `on`
      .run = gate::run_disk_case,
      .watches_counters = false,
      .record_per_peer = false,
  };
}

const gate::RunnerRegistration kDiskReadRunner{disk_runner(TestKind::kDiskRandomRead)};
const gate::RunnerRegistration kDiskWriteRunner{disk_runner(TestKind::kDiskRandomWrite)};
const gate::RunnerRegistration kDiskRwRunner{disk_runner(TestKind::kDiskRandomRw)};

#endif

}  // namespace
}  // namespace labgate::kinds
