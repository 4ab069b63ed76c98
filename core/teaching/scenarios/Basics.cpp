// The scheme's basics: the article's table of server rules, then the failures it is built to survive (a double
// click, a lost response, a client or server crash), each ending in exactly one order.
#include "teaching/scenarios/ScenarioSteps.h"
#include "teaching/scenarios/Scenarios.h"

#include "net/NetworkConditioner.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>

namespace onceorder::core::scenarios {

namespace {

// onceorder-cli's JSON line as the table shows it: what became of the cart, in words, never raw JSON on a slide.
QString cliOutcomeInWords(const QByteArray& out)
{
    const QJsonObject line = QJsonDocument::fromJson(out.trimmed()).object();
    if (line.isEmpty()) {
        return QString::fromUtf8(out.trimmed());
    }
    const QString state = line.value(QStringLiteral("state")).toString();
    const qint64 attempts = line.value(QStringLiteral("attempts")).toInteger();
    if (state != u"placed") {
        return ScenarioText::tr("%1 (attempts: %2)").arg(state).arg(attempts);
    }
    const qint64 order = line.value(QStringLiteral("order_id")).toInteger();
    return line.value(QStringLiteral("replayed")).toBool()
        ? ScenarioText::tr("placed: order %1, a replay of the first send (attempts: %2)").arg(order).arg(attempts)
        : ScenarioText::tr("placed: order %1 (attempts: %2)").arg(order).arg(attempts);
}

} // namespace

Scenario theArticleTable()
{
    const QString k1 = QStringLiteral("K1");
    return {QStringLiteral("the-article-table"),
            ScenarioText::tr("The article's table"),
            ScenarioText::tr(
                "The server's rules in six requests. The first request with a key places an order and stores the "
                "answer; the same key with the same data (even with the fields in another order) gets the stored "
                "answer back, marked Idempotent-Replayed; the same key with other data is refused with 422 and "
                "nothing changes; another client's K1 is its own key (keys are scoped per client); a POST without "
                "a key is refused before anything is stored."),
            {requestStep(ScenarioText::tr("A: POST /orders, K1, kniha × 1"), kClientA, k1, kBook,
                         ScenarioText::tr("201, a new order"), 1, created),
             requestStep(ScenarioText::tr("A: the same again, K1"), kClientA, k1, kBook,
                         ScenarioText::tr("201 order 1 replayed, no new order"), 1,
                         [](const HttpReply& r) { return replayOf(r, 1); }),
             requestStep(ScenarioText::tr("A: K1, same data, fields in another order"), kClientA, k1, kBookReordered,
                         ScenarioText::tr("201 order 1 replayed (same fingerprint)"), 1,
                         [](const HttpReply& r) { return replayOf(r, 1); }),
             requestStep(ScenarioText::tr("A: K1, kniha × 2"), kClientA, k1, kBookTwo,
                         ScenarioText::tr("422 idempotency-key-reused, nothing changes"), 1,
                         [](const HttpReply& r) {
                             return verdicts::problem(r, 422, QStringLiteral("idempotency-key-reused"));
                         }),
             requestStep(ScenarioText::tr("B: POST /orders, K1, kniha × 1"), kClientB, k1, kBook,
                         ScenarioText::tr("201, B's own order"), 2,
                         [](const HttpReply& r) { return verdicts::createdOtherThan(r, 1); }),
             requestStep(ScenarioText::tr("A: POST /orders without Idempotency-Key"), kClientA, {}, kBook,
                         ScenarioText::tr("400 missing-idempotency-key, nothing stored"), 2, [](const HttpReply& r) {
                             return verdicts::problem(r, 400, QStringLiteral("missing-idempotency-key"));
                         })}};
}

Scenario doubleClick()
{
    return {QStringLiteral("double-click"),
            ScenarioText::tr("Double click"),
            ScenarioText::tr(
                "An impatient user clicks twice: two requests with one key reach the server at the same moment. The "
                "key row is the transaction's first write and duplicates queue behind the writer lock, so the second "
                "request waits, then finds the stored answer: one order, and both clicks see the same order id."),
            {[](ScenarioContext& c, Next next) {
                postConcurrently(c, 2, QStringLiteral("double-click-key"), [&c, next](const QList<HttpReply>& r) {
                    const bool ok = verdicts::oneOrderForBothClicks(r);
                    c.verdict(ScenarioText::tr("A: 2 × POST /orders, one key, at once"), describeAll(r),
                              ScenarioText::tr("201 and 201 replayed, one order id"), ok, 1, next);
                });
            }}};
}

Scenario lostResponse()
{
    return {QStringLiteral("lost-response"),
            ScenarioText::tr("Lost response"),
            ScenarioText::tr(
                "The server commits the order but its answer is lost on the way back (the conditioner drops it). "
                "The client cannot tell this from a request that never arrived, so it retries with the same key: "
                "the server recognises the key and replays the stored answer. One order, and the client learns its "
                "id."),
            {conditionerStep(ConditionerMode::DropResponse, ScenarioText::tr("the next answer is dropped")),
             submitStep(ScenarioText::tr("the client's submission"), cartOf(QStringLiteral("cart-lost")),
                        ScenarioText::tr("placed by a replayed retry, one order"), 1, verdicts::placedByReplayedRetry,
                        fastEngineConfig, passAfterFirstAttempt)}};
}

Scenario clientCrash()
{
    return {QStringLiteral("client-crash"),
            ScenarioText::tr("Client crash after sending"),
            ScenarioText::tr(
                "onceorder-cli stores the key and the exact request bytes before sending, then is killed (SIGKILL) "
                "right after the request went out. Whether the order exists is unknown to it. On restart, "
                "`onceorder-cli resume` sends the stored request again with the stored key: if the server had "
                "placed it, the answer is a replay; either way there is exactly one order."),
            {[](ScenarioContext& c, Next next) {
                 QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
                 env.insert(QStringLiteral("ONCEORDER_CRASH_AT"), QStringLiteral("after-send"));
                 const QString cli =
                     QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("onceorder-cli"));
                 const QString state = QDir(c.stateDir()).filePath(QStringLiteral("cli"));
                 c.setNote(QStringLiteral("cli"), cli);
                 c.setNote(QStringLiteral("state"), state);
                 c.runProcess(cli,
                              {QStringLiteral("submit"), QStringLiteral("--product"), QStringLiteral("kniha"),
                               QStringLiteral("--cart-id"), QStringLiteral("cart-crash"), QStringLiteral("--server"),
                               c.serverUrl().toString(), QStringLiteral("--state"), state},
                              env, [&c, next](bool crashed, int, const QByteArray&) {
                                  c.verdictIf(
                                      ScenarioText::tr("onceorder-cli submit, killed after send"),
                                      crashed ? ScenarioText::tr("killed, no answer read")
                                              : ScenarioText::tr("exited normally"),
                                      ScenarioText::tr("killed; 0 or 1 orders: the client cannot know"), crashed,
                                      [](int orders) { return orders <= 1; }, next);
                              });
             },
             [](ScenarioContext& c, Next next) {
                 QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
                 env.remove(QStringLiteral("ONCEORDER_CRASH_AT"));
                 c.runProcess(c.note(QStringLiteral("cli")).toString(),
                              {QStringLiteral("resume"), QStringLiteral("--server"), c.serverUrl().toString(),
                               QStringLiteral("--state"), c.note(QStringLiteral("state")).toString(),
                               QStringLiteral("--base-delay-ms"), QStringLiteral("20"),
                               QStringLiteral("--max-delay-ms"), QStringLiteral("200")},
                              env, [&c, next](bool crashed, int exitCode, const QByteArray& out) {
                                  const bool ok = verdicts::resumedAndPlaced(crashed, exitCode, out);
                                  c.verdict(
                                      ScenarioText::tr("onceorder-cli resume, the stored key"), cliOutcomeInWords(out),
                                      ScenarioText::tr("placed (replayed if the first one got through), one order"), ok,
                                      1, next);
                              });
             }}};
}

Scenario serverCrash()
{
    return {
        QStringLiteral("server-crash"),
        ScenarioText::tr("Server crash before and after commit"),
        ScenarioText::tr(
            "The server process dies in the middle of a request. Before the commit, SQLite rolls the whole "
            "transaction back: no order, no key; the client's retry (after the server has restarted) places it "
            "as new. After the commit, the order and its stored answer survive: the retry is a replay. Either "
            "way the cart becomes exactly one order."),
        {debugStep(QStringLiteral("faults"), R"({"fault":"crash-before-commit"})",
                   ScenarioText::tr("the server will die before its next commit")),
         submitStep(ScenarioText::tr("cart 1 submitted"), cartOf(QStringLiteral("cart-before")),
                    ScenarioText::tr("placed as new (not replayed), one order"), 1, verdicts::placedAsNewAfterRetry),
         debugStep(QStringLiteral("faults"), R"({"fault":"crash-after-commit"})",
                   ScenarioText::tr("the server will die after its next commit")),
         submitStep(ScenarioText::tr("cart 2 submitted"), cartOf(QStringLiteral("cart-after"), QStringLiteral("hrnek")),
                    ScenarioText::tr("placed by a replay, two orders in all"), 2, verdicts::placedByReplayAfterRetry)}};
}

} // namespace onceorder::core::scenarios
