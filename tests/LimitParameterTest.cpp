// The ?limit= rule on its own: given once, a whole number 1-1000 written plainly; anything else is invalid-limit.
#include "routes/LimitParameter.h"

#include <gtest/gtest.h>

using namespace onceorder::server;

namespace {

std::optional<int> accepted(const std::vector<std::string>& values)
{
    const auto parsed = parseLimit(values);
    EXPECT_TRUE(std::holds_alternative<std::optional<int>>(parsed));
    return std::holds_alternative<std::optional<int>>(parsed) ? std::get<std::optional<int>>(parsed) : 0;
}

std::string refusal(const std::vector<std::string>& values)
{
    const auto parsed = parseLimit(values);
    return std::holds_alternative<Problem>(parsed) ? std::get<Problem>(parsed).detail : std::string("accepted");
}

} // namespace

TEST(LimitParameterTest, NoValueIsNoLimit)
{
    EXPECT_EQ(accepted({}), std::nullopt);
}

TEST(LimitParameterTest, AcceptsAPlainWholeNumberFromOneToAThousand)
{
    EXPECT_EQ(accepted({"1"}), 1);
    EXPECT_EQ(accepted({"200"}), 200);
    EXPECT_EQ(accepted({"1000"}), 1000);
}

TEST(LimitParameterTest, RefusesEverythingElseAsInvalidLimit)
{
    for (const std::vector<std::string>& values : std::vector<std::vector<std::string>> {
             {"0"}, {"1001"}, {"-1"}, {"+1"}, {"01"}, {"1.5"}, {"abc"}, {""}, {" 1"}, {"99999"}, {"1", "2"}}) {
        const auto parsed = parseLimit(values);
        ASSERT_TRUE(std::holds_alternative<Problem>(parsed)) << values.front();
        EXPECT_EQ(std::get<Problem>(parsed).status, 400);
        EXPECT_EQ(std::get<Problem>(parsed).slug, "invalid-limit");
    }
}

TEST(LimitParameterTest, QuotesTheValueOnlyWhenItIsShortVisibleAscii)
{
    EXPECT_NE(refusal({"0"}).find("(got \"0\")"), std::string::npos);
    EXPECT_EQ(refusal({std::string(17, '9')}).find("(got"), std::string::npos);
    EXPECT_EQ(refusal({"\xff"}).find("(got"), std::string::npos);
}
