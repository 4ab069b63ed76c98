#include "OrderClient.h"

#include <gtest/gtest.h>

using namespace onceorder::core;

TEST(OrderClientTest, OutcomeFromReplyReadsPlacedRejectedAndFailed)
{
    HttpReply created;
    created.status = 201;
    created.body = R"({"order_id":42,"status":"placed"})";
    created.replayed = true;
    const OrderOutcome placed = OrderClient::outcomeFromReply(created, QStringLiteral("k"), 2);
    EXPECT_EQ(placed.state, OrderOutcome::State::Placed);
    EXPECT_EQ(placed.orderId, 42);
    EXPECT_TRUE(placed.replayed);
    EXPECT_EQ(placed.attempts, 2);

    HttpReply mismatch;
    mismatch.status = 422;
    mismatch.body = R"({"type":"/problems/idempotency-key-reused","detail":"other payload"})";
    const OrderOutcome rejected = OrderClient::outcomeFromReply(mismatch, QStringLiteral("k"), 1);
    EXPECT_EQ(rejected.state, OrderOutcome::State::Rejected);
    EXPECT_EQ(rejected.message, QStringLiteral("other payload"));

    HttpReply refused;
    refused.error = QNetworkReply::ConnectionRefusedError;
    refused.errorString = QStringLiteral("Connection refused");
    const OrderOutcome failed = OrderClient::outcomeFromReply(refused, QStringLiteral("k"), 1);
    EXPECT_EQ(failed.state, OrderOutcome::State::Failed);
    EXPECT_EQ(failed.message, QStringLiteral("Connection refused"));
}
