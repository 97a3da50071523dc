// The path-naming JSON reader: every wrong type, missing member and out-of-range
// integer is a std::invalid_argument naming the full path, never a json type_error.
#include "labgate/util/json_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

namespace labgate::util {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no invalid_argument";
  return "";
}

TEST(JsonReader, ReadsEveryType) {
  const json j = json::parse(
      R"({"s":"x","n":1.5,"c":7,"i":-3,"b":true,"a":[{"k":1}],"o":{"p":2},"z":null})");
  const JsonReader r(j, "doc");
  EXPECT_EQ(r.str("s"), "x");
  EXPECT_EQ(r.num("n"), 1.5);
  EXPECT_EQ(r.count("c"), 7u);
  EXPECT_EQ(r.integer("i"), -3);
  EXPECT_TRUE(r.boolean("b"));
  EXPECT_EQ(r.element("a", 0).count("k"), 1u);
  EXPECT_EQ(r.object("o").count("p"), 2u);
  EXPECT_EQ(r.object("o").path(), "doc.o");
  EXPECT_FALSE(r.has("z")) << "null reads as absent";
  EXPECT_FALSE(r.opt_count("z"));
  EXPECT_EQ(r.str_or("missing", "fb"), "fb");
}

TEST(JsonReader, EveryWrongTypeNamesThePath) {
  const json j = json::parse(
      R"({"s":1,"n":"x","c":-1,"f":1.5,"big":18446744073709551615,"i":"x","b":0,"a":{},"o":[],"e":[1]})");
  const JsonReader r(j, "root");
  EXPECT_EQ(error_of([&] { r.str("s"); }), "root.s: expected a string, got number");
  EXPECT_EQ(error_of([&] { r.num("n"); }), "root.n: expected a number, got string");
  EXPECT_THAT(error_of([&] { r.count("c"); }), HasSubstr("root.c: expected a non-negative integer"));
  EXPECT_THAT(error_of([&] { r.count("f"); }), HasSubstr("root.f: expected a non-negative integer"));
  EXPECT_EQ(error_of([&] { r.integer("big"); }), "root.big: integer out of range");
  EXPECT_EQ(error_of([&] { r.opt_int("big"); }), "root.big: integer out of range");
  EXPECT_EQ(error_of([&] { r.integer("i"); }), "root.i: expected an integer, got string");
  EXPECT_EQ(error_of([&] { r.boolean("b"); }), "root.b: expected true or false, got number");
  EXPECT_EQ(error_of([&] { r.array("a"); }), "root.a: expected an array, got object");
  EXPECT_EQ(error_of([&] { r.object("o"); }), "root.o: expected an object, got array");
  EXPECT_EQ(error_of([&] { r.element("e", 0); }), "root.e[0]: expected an object, got number");
  EXPECT_EQ(error_of([&] { r.element("e", 3); }), "root.e: has no element 3");
  EXPECT_EQ(error_of([&] { r.str("absent"); }), "root.absent: missing (expected a string)");
  EXPECT_EQ(error_of([] { JsonReader(json::array(), ""); }), "document: expected an object, got array");
}

}  // namespace
}  // namespace labgate::util
