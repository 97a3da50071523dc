// A small strict reader for conrep's XML: the <Conrep> root, its <Section>
// children (text, or <LineN> lines), comments and the XML declaration.
#include <cctype>

#include "labgate/bios/conrep.h"
#include "labgate/util/text.h"

namespace labgate::bios {
namespace {

constexpr std::size_t kMaxXml = 4u << 20;  // a full ProLiant conrep.dat is ~100 KiB

class Reader {
 public:
  Reader(const std::string& s, const std::string& origin) : s_(s), origin_(origin) {}

  [[noreturn]] void fail(const std::string& why) const {
    int line = 1;
    for (std::size_t i = 0; i < at_ && i < s_.size(); ++i) line += s_[i] == '\n';
    throw ConrepError(origin_ + ":" + std::to_string(line) + ": " + why);
  }
  bool done() const { return at_ >= s_.size(); }
  bool looking_at(const char* t) const { return s_.compare(at_, std::char_traits<char>::length(t), t) == 0; }
  void skip_space() {
    while (!done() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
  }
  // Skips <?...?>, <!--...-->, <!DOCTYPE...>; true if one was there.
  bool skip_markup() {
    for (auto [open, close] : {std::pair{"<?", "?>"}, std::pair{"<!--", "-->"}, std::pair{"<!", ">"}}) {
      if (!looking_at(open)) continue;
      const std::size_t end = s_.find(close, at_);
      if (end == std::string::npos) fail(std::string("unterminated ") + open);
      at_ = end + std::char_traits<char>::length(close);
      return true;
    }
    return false;
  }
  void skip_misc() {
    for (skip_space(); skip_markup(); skip_space()) {
    }
  }
  std::string name() {
    const std::size_t start = at_;
    while (!done() && (std::isalnum(static_cast<unsigned char>(s_[at_])) || s_[at_] == '_' ||
                       s_[at_] == '-' || s_[at_] == ':' || s_[at_] == '.'))
      ++at_;
    if (at_ == start) fail("expected an element or attribute name");
    return s_.substr(start, at_ - start);
  }
  // "<Name a="v" ...>" or "<Name .../>"; returns whether it was self-closing.
  bool open_tag(std::string& tag, std::map<std::string, std::string>& attrs) {
    if (!looking_at("<")) fail("expected '<'");
    ++at_;
    tag = name();
    for (;;) {
      skip_space();
      if (looking_at("/>")) {
        at_ += 2;
        return true;
      }
      if (looking_at(">")) {
        ++at_;
        return false;
      }
      const std::string key = name();
      skip_space();
      if (!looking_at("=")) fail("expected '=' after attribute " + key);
      ++at_;
      skip_space();
      if (done() || (s_[at_] != '"' && s_[at_] != '\'')) fail("expected a quoted value for attribute " + key);
      const char q = s_[at_++];
      const std::size_t end = s_.find(q, at_);
      if (end == std::string::npos) fail("unterminated value of attribute " + key);
      attrs[key] = decode(s_.substr(at_, end - at_));
      at_ = end + 1;
    }
  }
  void close_tag(const std::string& tag) {
    const std::string want = "</" + tag;
    if (!looking_at(want.c_str())) fail("expected </" + tag + ">");
    at_ += want.size();
    skip_space();
    if (!looking_at(">")) fail("expected '>' to close </" + tag);
    ++at_;
  }
  std::string text() {
    const std::size_t end = s_.find('<', at_);
    if (end == std::string::npos) fail("text runs to the end of the document");
    std::string t = decode(s_.substr(at_, end - at_));
    at_ = end;
    return t;
  }
  std::string decode(const std::string& raw) const {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '&') {
        out += raw[i];
        continue;
      }
      const std::size_t semi = raw.find(';', i);
      if (semi == std::string::npos) fail("'&' without ';'");
      const std::string e = raw.substr(i + 1, semi - i - 1);
      if (e == "amp")
        out += '&';
      else if (e == "lt")
        out += '<';
      else if (e == "gt")
        out += '>';
      else if (e == "quot")
        out += '"';
      else if (e == "apos")
        out += '\'';
      else if (e.size() > 1 && e[0] == '#') {
        const long code =
            e[1] == 'x' ? std::strtol(e.c_str() + 2, nullptr, 16) : std::strtol(e.c_str() + 1, nullptr, 10);
        if (code <= 0 || code > 127) fail("entity &" + e + "; is not plain ASCII");
        out += static_cast<char>(code);
      } else {
        fail("unknown entity &" + e + ";");
      }
      i = semi;
    }
    return out;
  }

 private:
  const std::string& s_;
  const std::string& origin_;
  std::size_t at_ = 0;
};

// <Section name="...">value</Section>, or with <LineN>text</LineN> children.
void read_section(Reader& r, const std::map<std::string, std::string>& attrs, bool empty,
                  ConrepSettings& out) {
  auto name = attrs.find("name");
  if (name == attrs.end()) r.fail("<Section> without a name attribute");
  std::string value;
  if (!empty) {
    std::string lines;
    for (;;) {
      value += r.text();
      if (r.looking_at("</Section")) break;
      if (r.looking_at("</")) r.close_tag("Section");  // fails: a close tag of something else
      if (r.skip_markup()) continue;
      std::string tag;
      std::map<std::string, std::string> inner;
      const bool self = r.open_tag(tag, inner);
      if (self) continue;
      lines += (lines.empty() ? "" : "\n") + util::trim(r.text());
      r.close_tag(tag);
    }
    r.close_tag("Section");
    value = util::trim(value).empty() ? lines : util::trim(value);
  }
  out.sections[name->second] = value;
}

}  // namespace

ConrepSettings parse_conrep_xml(const std::string& xml, const std::string& origin) {
  if (xml.size() > kMaxXml)
    throw ConrepError(origin + ": " + std::to_string(xml.size()) + " bytes is too large for conrep output");
  Reader r(xml, origin);
  ConrepSettings out;
  r.skip_misc();
  if (r.done()) r.fail("empty: no <Conrep> document");
  std::string tag;
  const bool empty_root = r.open_tag(tag, out.about);
  if (tag != "Conrep") r.fail("the root element is <" + tag + ">, not <Conrep>");
  if (!empty_root) {
    for (;;) {
      r.skip_misc();
      if (r.looking_at("</Conrep")) break;
      std::map<std::string, std::string> attrs;
      const bool self = r.open_tag(tag, attrs);
      if (tag != "Section") r.fail("expected <Section>, found <" + tag + ">");
      read_section(r, attrs, self, out);
    }
    r.close_tag("Conrep");
  }
  r.skip_misc();
  if (!r.done()) r.fail("text after </Conrep>");
  return out;
}

}  // namespace labgate::bios
