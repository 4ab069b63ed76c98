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

TEST(HttpReplyTextTest, NoAnswerNamesTheNetworkFailureInASentence)
{
    // libcurl's own words ("Connection refused") were the line people read; now a sentence that says what is known.
    EXPECT_EQ(describeReply(answer(0)), QStringLiteral("No answer came."));
    HttpReply refused = answer(0);
    refused.errorString = QStringLiteral("Connection refused");
    EXPECT_EQ(describeReply(refused),
              QStringLiteral("The server refused the connection: nothing listens at its address (is it running?). "
                             "Nothing was sent."));
}

TEST(HttpReplyTextTest, EveryNetworkFailureIsASentenceThatSaysWhatIsKnown)
{
    const auto says = [](const char* technical) {
        return networkFailureText(QString::fromLatin1(technical));
    };
    EXPECT_TRUE(says("Failed to connect to 127.0.0.1 port 38841 after 0 ms: Couldn't connect to server")
                    .contains(QStringLiteral("Nothing was sent")));
    EXPECT_TRUE(says("Could not resolve host: nowhere.invalid").contains(QStringLiteral("name could not be found")));
    EXPECT_TRUE(says("Connection timed out after 3001 milliseconds").contains(QStringLiteral("No connection")));
    EXPECT_TRUE(says("Operation timed out after 10001 milliseconds with 0 bytes received")
                    .contains(QStringLiteral("may have received the order")));
    EXPECT_TRUE(says("Empty reply from server").startsWith(QStringLiteral("The server closed the connection")));
    EXPECT_TRUE(says("Recv failure: Connection reset by peer").startsWith(QStringLiteral("The connection broke")));
    EXPECT_TRUE(says("no data for 10000 ms (transfer timeout)").contains(QStringLiteral("No answer within")));
    EXPECT_TRUE(says("SSL certificate problem: self-signed certificate").contains(QStringLiteral("secure")));
    EXPECT_EQ(says("something libcurl says one day"), QStringLiteral("The connection failed."));
    for (const char* raw : {"Failed to connect to 127.0.0.1 port 1", "Empty reply from server",
                            "Recv failure: Connection reset by peer"}) {
        EXPECT_FALSE(says(raw).contains(QString::fromLatin1(raw))) << raw;
    }
}

TEST(HttpReplyTextTest, TheRetryPolicysReasonsAreReadBackAsSentences)
{
    EXPECT_EQ(retryReasonText(QStringLiteral("backoff after attempt 1, full jitter")),
              QStringLiteral("backoff after attempt 1, full jitter"));
    EXPECT_EQ(retryReasonText(QStringLiteral("Retry-After 2 s")), QStringLiteral("the server said Retry-After 2 s"));
    EXPECT_EQ(retryReasonText(QStringLiteral("retry window of 900 s is over; the key must not outlive the server's "
                                             "memory of it")),
              QStringLiteral("the retry window of 900 s is over; the key must not outlive the server's memory of it"));
    EXPECT_EQ(retryReasonText(QStringLiteral("a reason it does not know")),
              QStringLiteral("a reason it does not know"));
}

TEST(HttpReplyTextTest, InCzechTheServersEnglishDetailIsNotShown)
{
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::Czech, QLocale::CzechRepublic));
    // No Czech catalogue is installed here: the translated templates read as their English source, so what matters
    // is which words are used, not the server's own detail ("only the stock on hand…" is the template's too).
    const QString outOfStock = problemText(QStringLiteral("/problems/out-of-stock"), QStringLiteral("Not enough stock"),
                                           QStringLiteral("only the stock on hand can be ordered; \"kniha\" has fewer "
                                                          "than 1000 pieces"));
    const QString unknown = problemText(QStringLiteral("/problems/something-new"), QStringLiteral("Not enough stock"),
                                        QStringLiteral("an English sentence from the server"));
    const QString retry = retryReasonText(QStringLiteral("Retry-After 1.5 s"));
    QLocale::setDefault(before);
    EXPECT_EQ(outOfStock,
              QStringLiteral("only the stock on hand can be ordered; \"kniha\" has fewer than 1\u00a0000 pieces"));
    EXPECT_EQ(unknown, QStringLiteral("Not enough stock")); // the title (translated), never the English detail
    EXPECT_EQ(retry, QStringLiteral("the server said Retry-After 1,5 s"));
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
