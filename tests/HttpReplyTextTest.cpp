// describeReply: the one line people see for an exchange that did not succeed, for each shape of answer.
#include "net/HttpReplyText.h"

#include <gtest/gtest.h>

using namespace onceorder::core;

namespace {

HttpReply answer(int status, const QByteArray& body = {})
{
    HttpReply reply;
    reply.status = status;
    reply.body = body;
    return reply;
}

} // namespace

TEST(HttpReplyTextTest, NoAnswerNamesTheNetworkError)
{
    EXPECT_EQ(describeReply(answer(0)), QStringLiteral("no response"));
    HttpReply refused = answer(0);
    refused.errorString = QStringLiteral("Connection refused");
    EXPECT_EQ(describeReply(refused), QStringLiteral("Connection refused"));
}

TEST(HttpReplyTextTest, AProblemShowsItsTitleAndDetail)
{
    EXPECT_EQ(describeReply(answer(422,
                                   R"({"type":"/problems/out-of-stock","title":"Not enough stock",)"
                                   R"("detail":"kniha has fewer than 5 pieces"})")),
              QStringLiteral("HTTP 422 Not enough stock: kniha has fewer than 5 pieces"));
    EXPECT_EQ(describeReply(answer(503, R"({"title":"Temporary failure"})")),
              QStringLiteral("HTTP 503: Temporary failure"));
    EXPECT_EQ(describeReply(answer(400, R"({"detail":"send a JSON body"})")),
              QStringLiteral("HTTP 400: send a JSON body"));
}

TEST(HttpReplyTextTest, AnythingElseIsTheStatus)
{
    EXPECT_EQ(describeReply(answer(502, "<html>Bad Gateway</html>")), QStringLiteral("HTTP 502"));
    EXPECT_EQ(describeReply(answer(500, R"([1,2])")), QStringLiteral("HTTP 500"));
    EXPECT_EQ(describeReply(answer(404, R"({"title":""})")), QStringLiteral("HTTP 404"));
}
