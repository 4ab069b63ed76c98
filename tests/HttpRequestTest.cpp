// HttpRequest without sockets: header values stay byte for byte and every repeat is kept, names compare
// case-insensitively; the path and query parameters are percent-decoded as URLs are.
#include "transport/HttpRequest.h"

#include <gtest/gtest.h>

using onceorder::server::HttpRequest;
using onceorder::server::percentDecode;
using onceorder::server::sameHeaderName;

TEST(HttpRequestTest, HeaderValuesAreKeptByteForByteWithEveryRepeat)
{
    HttpRequest req;
    req.headers = {{"Idempotency-Key", "k%31"}, {"idempotency-key", std::string("x\0b", 3)}, {"Accept", ""}};
    EXPECT_EQ(req.header("IDEMPOTENCY-KEY"), "k%31");
    EXPECT_EQ(req.headerCount("Idempotency-Key"), 2u);
    ASSERT_NE(req.findHeader("accept"), nullptr);
    EXPECT_EQ(*req.findHeader("accept"), "") << "an empty value is present";
    EXPECT_EQ(req.findHeader("Authorization"), nullptr);
    EXPECT_EQ(req.header("Authorization"), "");
    EXPECT_TRUE(sameHeaderName("Content-Type", "content-TYPE"));
    EXPECT_FALSE(sameHeaderName("Content-Type", "Content-Typ"));
}

TEST(HttpRequestTest, PathAndQueryAreDecoded)
{
    HttpRequest req;
    req.target = "/orders/1%20OR%201=1?limit=10&cart_id=a+b%2Bc&limit=2&flag";
    req.parseTarget();
    EXPECT_EQ(req.path, "/orders/1 OR 1=1");
    EXPECT_EQ(req.paramCount("limit"), 2u);
    EXPECT_EQ(req.param("limit"), "10");
    EXPECT_EQ(req.param("cart_id"), "a b+c");
    EXPECT_TRUE(req.hasParam("flag"));
    EXPECT_EQ(req.param("flag"), "");
    EXPECT_FALSE(req.hasParam("missing"));

    EXPECT_EQ(percentDecode("a+b", false), "a+b") << "'+' is a space only in a query";
    EXPECT_EQ(percentDecode("%zz%4", true), "%zz%4") << "a broken escape stays as it is";
}
