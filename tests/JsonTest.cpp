#include "support/Json.h"

#include <gtest/gtest.h>

using namespace onceorder::server;

namespace {

JsonValue parsed(std::string_view text)
{
    auto result = parseJson(text);
    EXPECT_TRUE(std::holds_alternative<JsonValue>(result)) << text;
    return std::holds_alternative<JsonValue>(result) ? std::get<JsonValue>(result) : JsonValue {};
}

std::string errorOf(std::string_view text, int depth = kMaxJsonDepth)
{
    auto result = parseJson(text, depth);
    return std::holds_alternative<JsonError>(result) ? std::get<JsonError>(result).message : std::string("parsed");
}

} // namespace

TEST(JsonTest, ParsesObjectsInDocumentOrder)
{
    const JsonValue value = parsed(R"( {"b": [1, 2.5, -3e2], "a": {"x": null, "y": true}, "c": "\u010d"} )");
    ASSERT_TRUE(value.isObject());
    const auto& members = std::get<JsonValue::Object>(value.value);
    ASSERT_EQ(members.size(), 3u);
    EXPECT_EQ(members[0].first, "b");
    EXPECT_EQ(std::get<double>(std::get<JsonValue::Array>(members[0].second.value)[2].value), -300.0);
    EXPECT_EQ(std::get<std::string>(value.member("c")->value), "\xc4\x8d");
    EXPECT_TRUE(std::get<bool>(value.member("a")->member("y")->value));
}

TEST(JsonTest, RejectsDuplicateMembersInsteadOfMerging)
{
    EXPECT_EQ(errorOf(R"({"quantity":1,"quantity":100})"), "duplicate member \"quantity\"");
    EXPECT_EQ(errorOf(R"({"a":{"b":1,"b":1}})"), "duplicate member \"b\"");
}

TEST(JsonTest, FindsDuplicatesAmongManyMembersWhereverTheyAre)
{
    // Past the first few members the names are looked up in a hash set (linear in the members, not quadratic):
    // the same answers as the scan, at either end of a large object, through escapes, and in nested objects.
    std::string many = "{";
    for (int i = 0; i < 8687; ++i) {
        many += (i ? ",\"m" : "\"m") + std::to_string(i) + "\":0";
    }
    const JsonValue object = parsed(many + "}");
    ASSERT_TRUE(object.isObject());
    EXPECT_EQ(std::get<JsonValue::Object>(object.value).size(), 8687u);
    EXPECT_NE(object.member("m8686"), nullptr);
    EXPECT_EQ(errorOf(many + ",\"m0\":1}"), "duplicate member \"m0\"");
    EXPECT_EQ(errorOf(many + ",\"m8686\":1}"), "duplicate member \"m8686\"");
    EXPECT_EQ(errorOf(many + ",\"\\u006d17\":1}"), "duplicate member \"m17\"");
    EXPECT_EQ(errorOf("{\"x\":" + many + ",\"m40\":[]}}"), "duplicate member \"m40\"");
    EXPECT_EQ(errorOf(many + ",\"m8687\":1}"), "parsed");
    // Names that differ only past a shared prefix, or by an embedded NUL, are different names.
    std::string prefixed = "{";
    for (int i = 0; i < 40; ++i) {
        prefixed += (i ? ",\"" : "\"") + std::string(100, 'p') + std::to_string(i) + "\":0";
    }
    EXPECT_EQ(errorOf(prefixed + ",\"p\\u0000\":0,\"p\":0}"), "parsed");
}

TEST(JsonTest, BoundsNesting)
{
    std::string deep(40, '[');
    deep += std::string(40, ']');
    EXPECT_EQ(errorOf(deep), "nesting deeper than 32 levels");
    std::string ok(32, '[');
    ok += std::string(32, ']');
    EXPECT_EQ(errorOf(ok), "parsed");
    // Far deeper than any stack would take if the parser were unbounded.
    EXPECT_NE(errorOf(std::string(1'000'000, '[')), "parsed");
}

TEST(JsonTest, RejectsInvalidText)
{
    EXPECT_EQ(errorOf("{\"a\":\"\xff\"}"), "invalid UTF-8 in a string");
    EXPECT_EQ(errorOf("{\"a\":\"\xc0\xaf\"}"), "invalid UTF-8 in a string"); // overlong '/'
    EXPECT_EQ(errorOf("{\"a\":\"\xed\xa0\x80\"}"), "invalid UTF-8 in a string"); // UTF-8 surrogate
    EXPECT_EQ(errorOf("\"a\x01\""), "control character in a string");
    EXPECT_EQ(errorOf(R"("\ud800")"), "unpaired surrogate in \\u escape");
    EXPECT_EQ(errorOf("1e999"), "number out of range");
    EXPECT_EQ(errorOf("01"), "unexpected data after the JSON value");
    EXPECT_EQ(errorOf("{\"a\":1,}"), "expected a member name");
    EXPECT_EQ(errorOf("[1 2]"), "expected ',' or ']' in an array");
    EXPECT_EQ(errorOf(""), "unexpected end of input");
    EXPECT_EQ(errorOf("{} x"), "unexpected data after the JSON value");
    EXPECT_EQ(errorOf("NaN"), "unexpected character");
}

TEST(JsonTest, AcceptsSurrogatePairsAndFourByteUtf8)
{
    EXPECT_EQ(std::get<std::string>(parsed(R"("\ud83d\ude00")").value), "\xf0\x9f\x98\x80");
    EXPECT_EQ(std::get<std::string>(parsed("\"\xf0\x9f\x98\x80\"").value), "\xf0\x9f\x98\x80");
}

TEST(JsonTest, QuotesAndWritesObjects)
{
    EXPECT_EQ(jsonQuote("a\"b\\c\nd\x01"), R"("a\"b\\c\nd\u0001")");
    EXPECT_EQ(JsonObjectWriter().num("n", 5).str("s", "x").boolean("b", false).finish(),
              R"({"n":5,"s":"x","b":false})");
    EXPECT_EQ(JsonObjectWriter().finish(), "{}");
}

// Found by fuzz_json (tests/fuzz/corpus/json/regression-quote-invalid-utf8): bytes that are not UTF-8 were copied
// into the quoted text, so an answer echoing a percent-decoded path (GET /orders/%FF) was not valid JSON.
TEST(JsonTest, QuotesBytesThatAreNotUtf8AsReplacementCharacters)
{
    EXPECT_EQ(jsonQuote("\xab-"), R"("\ufffd-")");
    EXPECT_EQ(jsonQuote("a\xff\xc3"), R"("a\ufffd\ufffd")");
    EXPECT_EQ(jsonQuote("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")") << "a surrogate is not UTF-8";
    EXPECT_EQ(jsonQuote("\xc4\x8d\xf0\x9f\x98\x80"), "\"\xc4\x8d\xf0\x9f\x98\x80\"") << "valid UTF-8 is kept as is";
    const auto back = parseJson(jsonQuote("x\x80y"));
    ASSERT_TRUE(std::holds_alternative<JsonValue>(back));
    EXPECT_EQ(std::get<std::string>(std::get<JsonValue>(back).value), "x\xef\xbf\xbdy");
}
