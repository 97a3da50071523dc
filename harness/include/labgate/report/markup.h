// Escaping text for XML and HTML output: every name, message and tool output a
// report prints comes from profiles or remote hosts and is treated as hostile.
#pragma once

#include <string>
#include <string_view>

namespace labgate::report {

/// Text made safe for XML 1.0 element content and attribute values alike:
/// & < > " ' escaped; control characters XML forbids dropped; tab, newline and
/// carriage return kept as character references (so attribute values keep
/// their line breaks); invalid UTF-8 replaced by U+FFFD.
std::string xml_escape(std::string_view text);

/// Like xml_escape for element content: tabs and newlines stay as they are,
/// so a failure body or <pre> block reads naturally in the file.
std::string xml_escape_text(std::string_view text);

/// Escaping for HTML text and attribute values (the XML rules serve both).
inline std::string html_escape(std::string_view text) { return xml_escape(text); }

/// Text with invalid UTF-8 replaced by U+FFFD and XML-forbidden control
/// characters dropped, nothing escaped (for building strings before escaping).
std::string clean_text(std::string_view text);

}  // namespace labgate::report
