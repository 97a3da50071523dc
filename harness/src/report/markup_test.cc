// Tests of XML/HTML escaping against hostile names and tool output.
#include "labgate/report/markup.h"

#include <gtest/gtest.h>

namespace labgate::report {
namespace {

TEST(XmlEscape, EscapesMarkupCharacters) {
  EXPECT_EQ(xml_escape("a->b \"q\" 'x' <t> & y"), "a-&gt;b &quot;q&quot; &#39;x&#39; &lt;t&gt; &amp; y");
}

TEST(XmlEscape, KeepsLineBreaksInAttributesAsReferences) {
  EXPECT_EQ(xml_escape("line1\nline2\tx\r"), "line1&#10;line2&#9;x&#13;");
  EXPECT_EQ(xml_escape_text("line1\nline2\tx\r"), "line1\nline2\tx&#13;");
}

TEST(XmlEscape, DropsControlCharactersXmlForbids) {
  EXPECT_EQ(xml_escape(std::string("a\x01"
                                   "b\x1b[31mred\x7f\x00z",
                                   14)),
            "ab[31mredz");
  // C1 controls (U+0080..U+009F) are dropped too.
  EXPECT_EQ(xml_escape("x\xC2\x85y"), "xy");
  // U+FFFE and U+FFFF are not XML characters.
  EXPECT_EQ(xml_escape("x\xEF\xBF\xBEy"), "xy");
}

TEST(XmlEscape, ReplacesInvalidUtf8) {
  EXPECT_EQ(xml_escape("bad\xFF"
                       "byte"),
            "bad\xEF\xBF\xBD"
            "byte");
  EXPECT_EQ(xml_escape("trunc\xE2\x82"), "trunc\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(xml_escape("overlong\xC0\xAF"), "overlong\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(xml_escape("surrogate\xED\xA0\x80"), "surrogate\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(XmlEscape, KeepsValidMultibyteText) {
  EXPECT_EQ(xml_escape("85 \xC2\xB5s \xE2\x89\xA4 \xF0\x9F\x93\x88"),
            "85 \xC2\xB5s \xE2\x89\xA4 \xF0\x9F\x93\x88");
  EXPECT_EQ(clean_text("<ok>\x02"), "<ok>");
}

}  // namespace
}  // namespace labgate::report
