// HttpExchange's response framing, without sockets.
#include "net/HttpExchange.h"

#include <gtest/gtest.h>

using onceorder::core::HttpExchange;
using onceorder::core::HttpReply;

TEST(HttpExchangeTest, ContentLengthResponseIsCompleteOnlyWithAllItsBytes)
{
    const QByteArray raw = "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nIdempotent-Replayed: true\r\n"
                           "Content-Length: 14\r\n\r\n{\"order_id\":1}";
    HttpReply reply;
    EXPECT_FALSE(HttpExchange::parseResponse(raw.left(raw.size() - 1), false, reply));
    EXPECT_FALSE(HttpExchange::parseResponse(raw.left(20), false, reply));
    ASSERT_TRUE(HttpExchange::parseResponse(raw, false, reply));
    EXPECT_EQ(reply.status, 201);
    EXPECT_EQ(reply.body, QByteArray("{\"order_id\":1}"));
    EXPECT_TRUE(reply.replayed);
    EXPECT_FALSE(reply.retryAfter);
}

TEST(HttpExchangeTest, RetryAfterAndHeaderCaseAreRead)
{
    HttpReply reply;
    ASSERT_TRUE(HttpExchange::parseResponse("HTTP/1.1 503 Service Unavailable\r\nretry-after: 7\r\n"
                                            "content-length: 0\r\n\r\n",
                                            false, reply));
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.retryAfter, QByteArray("7"));
    EXPECT_FALSE(reply.replayed);
}

TEST(HttpExchangeTest, ChunkedAndReadUntilCloseBodies)
{
    const QByteArray chunked =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n";
    HttpReply reply;
    EXPECT_FALSE(HttpExchange::parseResponse(chunked.left(chunked.size() - 4), false, reply));
    ASSERT_TRUE(HttpExchange::parseResponse(chunked, false, reply));
    EXPECT_EQ(reply.body, QByteArray("Wikipedia"));

    const QByteArray unframed = "HTTP/1.1 200 OK\r\n\r\nall of it";
    EXPECT_FALSE(HttpExchange::parseResponse(unframed, false, reply)) << "no length: only the close ends it";
    ASSERT_TRUE(HttpExchange::parseResponse(unframed, true, reply));
    EXPECT_EQ(reply.body, QByteArray("all of it"));
}

TEST(HttpExchangeTest, GarbageIsNotAResponse)
{
    HttpReply reply;
    EXPECT_FALSE(HttpExchange::parseResponse("SSH-2.0-OpenSSH\r\n\r\n", true, reply));
    EXPECT_FALSE(HttpExchange::parseResponse("HTTP/1.1 abc OK\r\n\r\n", true, reply));
    EXPECT_FALSE(HttpExchange::parseResponse("", true, reply));
}
