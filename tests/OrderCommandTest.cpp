#include "orders/OrderCommand.h"
#include "orders/OrderService.h"

#include <gtest/gtest.h>

using namespace onceorder::server;

namespace {

OrderCommand commandOf(std::string_view body)
{
    auto result = parseOrderCommand(body);
    if (auto* problem = std::get_if<Problem>(&result)) {
        ADD_FAILURE() << body << " -> " << problem->detail;
        return {};
    }
    return std::get<OrderCommand>(result);
}

Problem problemOf(std::string_view body)
{
    auto result = parseOrderCommand(body);
    EXPECT_TRUE(std::holds_alternative<Problem>(result)) << body;
    return std::holds_alternative<Problem>(result) ? std::get<Problem>(result) : Problem {};
}

} // namespace

TEST(OrderCommandTest, SingleProductFormEqualsOneLineCart)
{
    EXPECT_EQ(commandOf(R"({"product":"kniha","quantity":1})").canonical(),
              commandOf(R"({"items":[{"quantity":1,"product":"kniha"}]})").canonical());
}

TEST(OrderCommandTest, CanonicalFormIgnoresSpellingThatDoesNotChangeTheIntent)
{
    const std::string expected =
        R"({"cart_id":"c1","items":[{"product":"hrnek","quantity":2},{"product":"kniha","quantity":1}]})";
    EXPECT_EQ(
        commandOf(R"({"cart_id":"c1","items":[{"product":"hrnek","quantity":2},{"product":"kniha","quantity":1}]})")
            .canonical(),
        expected);
    // Member order, whitespace, number spelling and line order.
    EXPECT_EQ(commandOf(" {\n \"items\" : [ {\"quantity\":1.0,\"product\":\"kniha\"}, {\"product\":\"hrnek\","
                        "\"quantity\":2e0} ], \"cart_id\":\"c1\" } ")
                  .canonical(),
              expected);
}

TEST(OrderCommandTest, DifferentIntentGivesADifferentFingerprint)
{
    const auto one = OrderService::fingerprint(commandOf(R"({"product":"kniha","quantity":1})"));
    EXPECT_EQ(one, OrderService::fingerprint(commandOf(R"({"quantity":1,"product":"kniha"})")));
    EXPECT_NE(one, OrderService::fingerprint(commandOf(R"({"product":"kniha","quantity":2})")));
    EXPECT_NE(one, OrderService::fingerprint(commandOf(R"({"product":"hrnek","quantity":1})")));
    EXPECT_NE(one, OrderService::fingerprint(commandOf(R"({"product":"kniha","quantity":1,"cart_id":"x"})")));
    EXPECT_EQ(one.size(), 64u);
}

TEST(OrderCommandTest, FingerprintValueIsStable)
{
    // Stored keys are compared against it: the value itself must never change (taken from a database of 1618015).
    EXPECT_EQ(OrderService::fingerprint(commandOf(R"({"product":"kniha","quantity":1})")),
              "2b4d2568f1c30cff33faf58db523f9e99cd876cbd645d337ca9ac30d227b4c59");
}

TEST(OrderCommandTest, RejectsInvalidCommandsWithAReason)
{
    struct Case
    {
        const char* body;
        const char* slug;
    };
    const Case cases[] = {
        {"not json", "malformed-json"},
        {R"({"product":"kniha","quantity":1,"quantity":5})", "malformed-json"},
        {"[]", "invalid-order"},
        {"{}", "invalid-order"},
        {R"({"product":"kniha"})", "invalid-order"},
        {R"({"product":"kniha","quantity":0})", "invalid-order"},
        {R"({"product":"kniha","quantity":-1})", "invalid-order"},
        {R"({"product":"kniha","quantity":1.5})", "invalid-order"},
        {R"({"product":"kniha","quantity":1001})", "invalid-order"},
        {R"({"product":"kniha","quantity":1e300})", "invalid-order"},
        {R"({"product":"kniha","quantity":"1"})", "invalid-order"},
        {R"({"product":7,"quantity":1})", "invalid-order"},
        {R"({"product":"","quantity":1})", "invalid-order"},
        {R"({"product":"kniha","quantity":1,"price":0})", "invalid-order"},
        {R"({"product":"kniha","quantity":1,"items":[]})", "invalid-order"},
        {R"({"items":[]})", "invalid-order"},
        {R"({"items":{}})", "invalid-order"},
        {R"({"items":[5]})", "invalid-order"},
        {R"({"items":[{"product":"kniha","quantity":1,"x":1}]})", "invalid-order"},
        {R"({"items":[{"product":"kniha","quantity":1},{"product":"kniha","quantity":2}]})", "invalid-order"},
        {R"({"cart_id":"","items":[{"product":"kniha","quantity":1}]})", "invalid-order"},
        {R"({"cart_id":5,"items":[{"product":"kniha","quantity":1}]})", "invalid-order"},
    };
    for (const auto& c : cases) {
        const Problem problem = problemOf(c.body);
        EXPECT_EQ(problem.status, 400) << c.body;
        EXPECT_EQ(problem.slug, c.slug) << c.body;
        EXPECT_FALSE(problem.detail.empty()) << c.body;
    }
}
