#include "support/IdempotencyKey.h"

#include <gtest/gtest.h>

using namespace onceorder::server;

namespace {

std::string keyOf(std::string_view header)
{
    auto result = parseIdempotencyKey(header);
    return std::holds_alternative<std::string>(result) ? std::get<std::string>(result) : "ERROR";
}

} // namespace

TEST(IdempotencyKeyTest, AcceptsSfStringsWithEscapes)
{
    EXPECT_EQ(keyOf(R"("abc")"), "abc");
    EXPECT_EQ(keyOf(R"(  "8e03978e-40d5-43e8-bc93-6894a57f9324"  )"), "8e03978e-40d5-43e8-bc93-6894a57f9324");
    EXPECT_EQ(keyOf(R"("a\"b\\c")"), "a\"b\\c");
}

TEST(IdempotencyKeyTest, AcceptsBareTokens)
{
    EXPECT_EQ(keyOf("abc"), "abc");
    EXPECT_EQ(keyOf("8e03978e-40d5-43e8-bc93-6894a57f9324"), "8e03978e-40d5-43e8-bc93-6894a57f9324");
}

TEST(IdempotencyKeyTest, LengthIsOneTo255)
{
    EXPECT_EQ(keyOf(std::string(255, 'k')), std::string(255, 'k'));
    EXPECT_EQ(keyOf(std::string(256, 'k')), "ERROR");
    EXPECT_EQ(keyOf("\"" + std::string(256, 'k') + "\""), "ERROR");
    EXPECT_EQ(keyOf(R"("")"), "ERROR");
    EXPECT_EQ(keyOf(""), "ERROR");
    EXPECT_EQ(keyOf("   "), "ERROR");
}

TEST(IdempotencyKeyTest, RejectsWhatIsNotAVisibleAsciiString)
{
    EXPECT_EQ(keyOf(R"("a b")"), "ERROR"); // space is not visible
    EXPECT_EQ(keyOf("\"a\tb\""), "ERROR"); // control
    EXPECT_EQ(keyOf("\"a\x01\""), "ERROR"); // control
    EXPECT_EQ(keyOf("\"\xc4\x8d\""), "ERROR"); // non-ASCII
    EXPECT_EQ(keyOf(R"("abc)"), "ERROR"); // unterminated
    EXPECT_EQ(keyOf(R"("a\n")"), "ERROR"); // \ may only escape " or \ .
    EXPECT_EQ(keyOf(R"("abc";x=1)"), "ERROR"); // parameters
    EXPECT_EQ(keyOf(R"("abc", "def")"), "ERROR"); // a list
    EXPECT_EQ(keyOf("a;b"), "ERROR");
    EXPECT_EQ(keyOf("a\"b"), "ERROR");
    EXPECT_EQ(keyOf("a b"), "ERROR");
}

TEST(IdempotencyKeyTest, ErrorsSayWhatIsWrong)
{
    auto result = parseIdempotencyKey(std::string(300, 'k'));
    ASSERT_TRUE(std::holds_alternative<KeyError>(result));
    EXPECT_NE(std::get<KeyError>(result).detail.find("300 characters"), std::string::npos);
}
