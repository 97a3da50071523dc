// Tests of the TOML-to-tree conversion: positions, file order, header detection.
#include "toml_tree.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace labgate::profile::detail {
namespace {

TEST(TomlTree, KeepsFileOrderAndPositions) {
  ParsedToml t = parse_toml("[hosts.zed]\naddress = \"1\"\n[hosts.alpha]\naddress = \"2\"\n", "f.toml");
  ASSERT_TRUE(t.root);
  const Node* hosts = t.root->find("hosts");
  ASSERT_NE(hosts, nullptr);
  ASSERT_EQ(hosts->children.size(), 2u);
  EXPECT_EQ(hosts->children[0].key, "zed");  // toml++ would sort it after alpha
  EXPECT_EQ(hosts->children[1].key, "alpha");
  const Node* address = hosts->children[1].find("address");
  EXPECT_EQ(address->pos.str(), "f.toml:4:11");
  EXPECT_EQ(address->key_pos.str(), "f.toml:4:1");
  EXPECT_EQ(address->type, Node::Type::kString);
  EXPECT_EQ(address->text, "2");
}

TEST(TomlTree, TellsHeadersFromDottedAndInlineTables) {
  ParsedToml t = parse_toml("a.b = 1\n[c]\nx = { y = 2 }\n[[d]]\nz = 1\ne = [{ q = 1 }]\n", "f.toml");
  ASSERT_TRUE(t.root);
  EXPECT_FALSE(t.root->find("a")->header);  // dotted key
  const Node* c = t.root->find("c");
  EXPECT_TRUE(c->header);
  EXPECT_EQ(c->pos.line, 2);
  EXPECT_EQ(c->pos.column, 1);
  EXPECT_FALSE(c->find("x")->header);  // inline
  const Node* d = t.root->find("d");
  EXPECT_TRUE(d->header);
  EXPECT_EQ(d->type, Node::Type::kArray);
  EXPECT_FALSE(d->children[0].find("e")->header);  // array of inline tables
}

TEST(TomlTree, ScalarTypes) {
  ParsedToml t = parse_toml("i = -3\nf = 2.5\nb = true\nd = 1979-05-27\ns = 'x'\n", "f.toml");
  ASSERT_TRUE(t.root);
  EXPECT_EQ(t.root->find("i")->integer, -3);
  EXPECT_EQ(t.root->find("f")->floating, 2.5);
  EXPECT_TRUE(t.root->find("b")->boolean);
  EXPECT_EQ(t.root->find("d")->type, Node::Type::kDateTime);
  EXPECT_EQ(t.root->find("d")->brief(), "1979-05-27");
  EXPECT_STREQ(t.root->find("s")->type_name(), "a string");
}

TEST(TomlTree, BriefKeepsMessagesOnOneLine) {
  ParsedToml t =
      parse_toml("s = \"\"\"\nline one\nline two is long enough to be cut somewhere\"\"\"\n", "f.toml");
  ASSERT_TRUE(t.root);
  const std::string b = t.root->find("s")->brief();
  EXPECT_EQ(b.find('\n'), std::string::npos);
  EXPECT_THAT(b, ::testing::EndsWith("...\""));
}

TEST(TomlTree, SyntaxErrorHasPosition) {
  ParsedToml t = parse_toml("a = 1\nb = = 2\n", "f.toml");
  EXPECT_FALSE(t.root);
  ASSERT_TRUE(t.error);
  EXPECT_EQ(t.error->pos.line, 2);
  EXPECT_GT(t.error->pos.column, 0);
  EXPECT_THAT(t.error->message, ::testing::StartsWith("TOML syntax error: "));
}

}  // namespace
}  // namespace labgate::profile::detail
