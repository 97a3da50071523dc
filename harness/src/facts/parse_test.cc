// Tests for parse_facts: a well-formed snapshot, and every way a bad one fails.
#include "labgate/facts/parse.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::facts {
namespace {

using ::testing::HasSubstr;

constexpr const char* kSnapshot = R"j({
  "schema": "labgate.facts/1", "probe": "facts 0.1.0", "root": "/",
  "hostname": {"value": "b", "source": "/proc/sys/kernel/hostname"},
  "os": {"redhat_release": {"value": "Red Hat Enterprise Linux Server release 5.8 (Tikanga)", "source": "/etc/redhat-release"},
         "pretty_name": {"value": null, "source": "/etc/os-release", "error": "No such file or directory", "missing": true},
         "id": {"value": null, "source": "/etc/os-release", "missing": true, "error": "No such file or directory"},
         "version_id": {"value": null, "source": "/etc/os-release", "missing": true, "error": "x"}},
  "kernel": {"release": {"value": "2.6.18-308.el5", "source": "/proc/sys/kernel/osrelease"},
             "version": {"value": "#1 SMP", "source": "/proc/sys/kernel/version"},
             "cmdline": {"value": "ro quiet", "source": "/proc/cmdline"}},
  "boot": {"loader": {"value": "grub-legacy", "source": "/boot/grub/grub.conf"},
           "default_entry": {"value": 0, "source": "/boot/grub/grub.conf:4"},
           "default_title": {"value": "RHEL", "source": "/boot/grub/grub.conf:8"},
           "kernel_image": {"value": "/vmlinuz", "source": "/boot/grub/grub.conf:10"},
           "kernel_args": {"value": "ro quiet", "source": "/boot/grub/grub.conf:10"}},
  "sysctl": {"net.ipv4.tcp_sack": {"value": "1", "source": "/proc/sys/net/ipv4/tcp_sack"},
             "net.nope": {"value": null, "source": "/proc/sys/net/nope", "error": "No such file or directory", "missing": true}},
  "modules": {"loaded_list": {"value": ["tg3", "ext3"], "source": "/proc/modules"},
              "items": {"tg3": {"loaded": {"value": true, "source": "/proc/modules"},
                                "version": {"value": "3.119", "source": "/sys/module/tg3/version"},
                                "parameters": {}, "configured": {"tg3_disable_eee": {"value": "1", "source": "/etc/modprobe.conf:9"}}}}},
  "interfaces": {"eth1": {"exists": {"value": true, "source": "/proc/net/dev"},
                          "driver": {"value": "tg3", "source": "ioctl SIOCETHTOOL ETHTOOL_GDRVINFO eth1"},
                          "coalesce": {"rx_usecs": {"value": 20, "source": "ioctl SIOCETHTOOL ETHTOOL_GCOALESCE eth1"},
                                       "adaptive_rx": {"value": false, "source": "ioctl SIOCETHTOOL ETHTOOL_GCOALESCE eth1"}},
                          "channels": {"combined": {"value": null, "source": "ioctl SIOCETHTOOL ETHTOOL_GCHANNELS eth1", "error": "Not supported"}},
                          "numa_node": {"value": -1, "source": "/sys/class/net/eth1/device/numa_node"},
                          "irqs": {"value": ["98"], "source": "/proc/interrupts"},
                          "irq_affinity": {"98": {"value": "0-15", "source": "/proc/irq/98/smp_affinity", "note": "from the hex mask"}},
                          "irq_managed": {"98": {"value": null, "source": "/sys/kernel/debug/irq/irqs/98", "error": "No such file or directory", "missing": true}},
                          "mtu": {"value": 1500, "source": "ioctl SIOCGIFMTU eth1"},
                          "link": {"value": "up", "source": "ioctl SIOCGIFFLAGS eth1", "note": "flags: UP RUNNING"}}},
  "services": {"init": {"value": "sysv", "source": "/proc/1/stat"},
               "default_runlevel": {"value": 3, "source": "/etc/inittab:5"},
               "units": {"acpid": {"kind": "sysv", "installed": {"value": true, "source": "/etc/rc.d/init.d/acpid"},
                                   "runlevels": {"value": ["off", "off", "on", "on", "on", "on", null],
                                                 "links": [null, null, "/etc/rc.d/rc2.d/S44acpid", null, null, null, null],
                                                 "source": "/etc/rc.d/rc[0-6].d"},
                                   "running": {"value": true, "source": "/var/lock/subsys/acpid"}},
                         "cups": {"kind": "systemd", "unit": "cups.service",
                                  "unit_file": {"value": "/etc/systemd/system/cups.service", "source": "/etc/systemd/system/cups.service"},
                                  "enabled": {"value": "masked", "source": "/etc/systemd/system/cups.service"},
                                  "running": {"value": false, "source": "/proc"}}}},
  "processes": {"truncated": false, "list": [{"pid": 1, "comm": "init", "argv0": "init", "source": "/proc/1/stat"}]},
  "cpu": {"hyperthreading": {"value": false, "source": "/proc/cpuinfo", "note": "siblings 8, cpu cores 8 per package"},
          "governors": {"cpu0": {"value": "performance", "source": "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"}},
          "cpufreq": {"value": true, "source": "/sys/devices/system/cpu/cpu*/cpufreq"}},
  "added_by_a_newer_probe": {"whatever": [1, 2, 3]}
})j";

TEST(ParseFacts, ReadsEveryFamilyWithSources) {
  const Facts f = parse_facts(kSnapshot, "host b");
  EXPECT_EQ(f.schema, "labgate.facts/1");
  EXPECT_EQ(*f.os.release().value, "Red Hat Enterprise Linux Server release 5.8 (Tikanga)");
  EXPECT_TRUE(f.os.pretty_name.missing);
  EXPECT_EQ(*f.kernel.release.value, "2.6.18-308.el5");
  EXPECT_EQ(*f.boot.default_entry.value, 0);
  EXPECT_EQ(f.boot.kernel_args.source, "/boot/grub/grub.conf:10");
  EXPECT_EQ(*f.sysctl.at("net.ipv4.tcp_sack").value, "1");
  EXPECT_EQ(f.sysctl.at("net.ipv4.tcp_sack").source, "/proc/sys/net/ipv4/tcp_sack");
  EXPECT_FALSE(f.sysctl.at("net.nope").value);
  EXPECT_TRUE(f.sysctl.at("net.nope").missing);
  EXPECT_THAT(*f.loaded_modules.value, ::testing::ElementsAre("tg3", "ext3"));
  EXPECT_EQ(*f.modules.at("tg3").version.value, "3.119");
  EXPECT_EQ(f.modules.at("tg3").configured.at("tg3_disable_eee").source, "/etc/modprobe.conf:9");
  EXPECT_EQ(*f.interfaces.at("eth1").mtu.value, 1500);
  EXPECT_EQ(f.interfaces.at("eth1").link.note, "flags: UP RUNNING");
  const InterfaceFacts& eth1 = f.interfaces.at("eth1");
  EXPECT_EQ(*eth1.coalesce.at("rx_usecs").value, "20");  // numbers and switches read as text alike
  EXPECT_EQ(*eth1.coalesce.at("adaptive_rx").value, "off");
  EXPECT_FALSE(eth1.channels.at("combined").value);
  EXPECT_EQ(eth1.channels.at("combined").error, "Not supported");
  EXPECT_EQ(*eth1.numa_node.value, -1);
  EXPECT_EQ(*eth1.irq_affinity.at("98").value, "0-15");
  EXPECT_TRUE(eth1.irq_managed.at("98").missing);
  EXPECT_EQ(eth1.settings("ring")->size(), 0u);
  EXPECT_EQ(eth1.settings("nope"), nullptr);
  // A member the probe did not write reads as "not in the snapshot", not as a value.
  EXPECT_FALSE(f.interfaces.at("eth1").firmware_version.value);
  EXPECT_EQ(f.interfaces.at("eth1").firmware_version.error, "not in the snapshot");
  const ServiceFacts& acpid = f.services.units.at("acpid");
  EXPECT_EQ(acpid.kind, "sysv");
  EXPECT_EQ(*(*acpid.runlevels.value)[2], "on");
  EXPECT_FALSE((*acpid.runlevels.value)[6]);
  EXPECT_EQ(*acpid.links[2], "/etc/rc.d/rc2.d/S44acpid");
  EXPECT_EQ(*f.services.units.at("cups").enabled.value, "masked");
  EXPECT_EQ(f.services.units.at("cups").unit, "cups.service");
  ASSERT_EQ(f.processes.size(), 1u);
  EXPECT_EQ(f.processes[0].comm, "init");
  EXPECT_EQ(*f.cpu.governors.at("cpu0").value, "performance");
  EXPECT_TRUE(f.has("cpu"));
  EXPECT_FALSE(f.cpu.model.value);
}

TEST(ParseFacts, MissingSectionsAreAbsentNotErrors) {
  const Facts f = parse_facts(R"({"schema": "labgate.facts/1", "probe": "facts", "root": "/"})", "host a");
  EXPECT_FALSE(f.has("sysctl"));
  EXPECT_TRUE(f.sysctl.empty());
  EXPECT_FALSE(f.kernel.release.value);
}

void expect_error(const std::string& json, const std::string& part) {
  try {
    parse_facts(json, "host b");
    FAIL() << "accepted: " << json.substr(0, 200);
  } catch (const FactsError& e) {
    EXPECT_THAT(e.what(), HasSubstr("facts from host b: "));
    EXPECT_THAT(e.what(), HasSubstr(part));
  }
}

TEST(ParseFacts, WrongTypesNameTheField) {
  const std::string head = R"({"schema": "labgate.facts/1", "probe": "facts", "root": "/", )";
  expect_error(
      head + R"("sysctl": {"net.ipv4.tcp_sack": {"value": 1, "source": "/proc/sys/net/ipv4/tcp_sack"}}})",
      "field sysctl.net.ipv4.tcp_sack.value: expected a string or null, got number");
  expect_error(head + R"("sysctl": {"k": {"value": "1"}}})", "field sysctl.k.source: missing");
  expect_error(head + R"("sysctl": {"k": {"source": "/x"}}})", "field sysctl.k.value: missing");
  expect_error(head + R"("sysctl": [1, 2]})", "field sysctl: expected an object, got array");
  expect_error(head + R"("interfaces": {"eth1": {"mtu": {"value": "1500", "source": "x"}}}})",
               "field interfaces.eth1.mtu.value: expected an integer or null, got string");
  expect_error(head + R"("services": {"units": {"x": {"kind": "upstart"}}}})",
               "field services.units.x.kind: unknown kind");
  expect_error(
      head + R"("services": {"units": {"x": {"kind": "sysv", "running": {"value": true, "source": "/"},
                       "runlevels": {"value": ["on"], "source": "/"}}}}})",
      "expected 7 runlevels, got 1");
  expect_error(head + R"("modules": {"loaded_list": {"value": ["tg3", 7], "source": "/proc/modules"}}})",
               "field modules.loaded_list.value[1]: expected a string, got number");
  expect_error(head + R"("processes": {"list": [{"comm": "init", "source": "/proc/1/stat"}]}})",
               "field processes.list[0].pid: expected an integer");
  expect_error(head + R"("cpu": {"cpufreq": {"value": "yes", "source": "x", "missing": 1}}})",
               "field cpu.cpufreq.missing: expected a boolean");
}

TEST(ParseFacts, GarbageIsRefusedClearly) {
  expect_error("", "not valid JSON");
  expect_error("facts: --sysctl: invalid name", "not valid JSON");
  expect_error("\x01\x02\xff\xfe", "not valid JSON");
  // The bytes the JSON parser quotes come back escaped, never raw.
  expect_error("\x8c\x01\xff\xfe", "last read: '\\x8c'");
  expect_error(R"j({"schema": "labgate.facts/1", "probe": "f", "root": "/", "hostname": {"value": "a)j",
               "not valid JSON");
  expect_error("[1, 2, 3]", "the top level is a array");
  expect_error(R"({"probe": "facts"})", "field schema: missing");
  expect_error(R"({"schema": "labgate.facts/2", "probe": "f", "root": "/"})", "does not match this labgate");
  expect_error(std::string(100000, '['), "nested deeper than 64 levels");
  // Brackets inside strings do not count as nesting.
  EXPECT_NO_THROW(parse_facts(
      R"({"schema": "labgate.facts/1", "probe": ")" + std::string(1000, '[') + R"(", "root": "/"})",
      "host b"));
}

TEST(ParseFacts, OversizedInputIsRefusedBeforeParsing) {
  const std::string big(kMaxSnapshotBytes + 1, ' ');
  expect_error(big, "exceeds the limit of 16777216 bytes");
}

}  // namespace
}  // namespace labgate::facts

namespace labgate::facts {
namespace {

// A sysctl only root may read, as the probe reports it when run as `euid`.
std::string unreadable_sysctl(int euid) {
  return R"j({"schema": "labgate.facts/1", "probe": "facts 0.1.0", "root": "/", "euid": )j" +
         std::to_string(euid) + R"j(,
    "sysctl": {"kernel.secret": {"value": null, "source": "/proc/sys/kernel/secret", "error": "Permission denied"}}})j";
}

TEST(ParseFacts, APermissionRefusalAsNonRootSaysTheFactNeedsRoot) {
  const Facts f = parse_facts(unreadable_sysctl(1001), "host a");
  const Text& t = f.sysctl.at("kernel.secret");
  EXPECT_FALSE(t.value);
  EXPECT_FALSE(t.missing);  // not checkable, never "absent" (and never passed)
  EXPECT_THAT(t.error, ::testing::HasSubstr("needs root"));
  EXPECT_THAT(t.error, ::testing::HasSubstr("become = \"sudo\""));
}

TEST(ParseFacts, APermissionRefusalAsRootIsReportedAsItIs) {
  const Facts f = parse_facts(unreadable_sysctl(0), "host a");
  EXPECT_EQ(f.sysctl.at("kernel.secret").error, "Permission denied");  // SELinux, not a missing sudo
}

}  // namespace
}  // namespace labgate::facts
