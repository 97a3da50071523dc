// [preconditions.bios]: BIOS (HP RBSU) settings read with HP's `conrep -s`, whose
// XML names each setting as a <Section>, and the rules of seed 000's RBSU table
// judged against it. Where conrep is missing or fails, every rule is "not
// checkable" with the reason: never passed.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "labgate/profile/preconditions.h"

namespace labgate::bios {

/// What `conrep -s` saved: the settings by section name, and the platform it came from.
struct ConrepSettings {
  std::map<std::string, std::string> sections;  ///< "Intel_Hyperthreading" -> "Disabled"
  std::map<std::string, std::string> about;     ///< <Conrep> attributes: version, originating_platform, ...
};

/// Malformed conrep XML; names the origin and line.
class ConrepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses conrep's XML (<Conrep ...><Section name="N" helptext="...">value</Section>...).
/// A section holding <LineN> elements (free text such as IMD_ServerName) gets its
/// lines joined by '\n'. Entities are decoded. Throws ConrepError.
ConrepSettings parse_conrep_xml(const std::string& xml, const std::string& origin);

/// One shell step, run on the host, that finds conrep (conrep, hp-conrep, or the
/// Scripting Toolkit paths), saves the settings to `data_file` (in the run's
/// private directory), prints that file and removes it. Exit 127: conrep is not
/// installed; 4: conrep failed (its stderr says why).
std::vector<std::string> conrep_command(const std::string& data_file);

/// The settings, or why they cannot be had (then `settings` is empty).
struct ConrepRead {
  std::optional<ConrepSettings> settings;
  std::string not_checkable;  ///< "conrep is not installed on b (HP Scripting Toolkit)"
};

/// Reads a conrep_command() run on `host`.
ConrepRead read_conrep_run(const std::string& host, int exit_status, const std::string& out,
                           const std::string& err);

enum class BiosStatus { kPass, kFail, kNotCheckable };

struct BiosVerdict {
  std::string name, expected;
  std::optional<std::string> observed;
  BiosStatus status = BiosStatus::kNotCheckable;
  std::string message;  ///< "b: Intel_Hyperthreading is Enabled, expected Disabled [profile.toml:40:1]"
  profile::SourcePos pos;
};

/// Judges every rule on `host` (values compared ignoring case and surrounding
/// space). A setting missing from the XML fails and lists similar names (conrep
/// names differ between ProLiant generations).
std::vector<BiosVerdict> check_bios(const std::string& host,
                                    const std::vector<profile::BiosExpectation>& rules,
                                    const ConrepRead& read);

}  // namespace labgate::bios
