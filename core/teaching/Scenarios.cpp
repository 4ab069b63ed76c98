// The teaching scenarios: each is data (title, the paragraph shown beside it) and a few step functions built
// from ScenarioContext's verbs. Every check runs against a fresh server, so order ids and counts are exact.
#include "teaching/Scenario.h"

#include "net/NetworkConditioner.h"
#include "server/BundledServer.h"
#include "submission/Outbox.h"
#include "teaching/ScenarioContext.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>

#include <algorithm>
#include <memory>
#include <optional>

namespace onceorder::core {

namespace {

using Next = std::function<void()>;

const QString kClientA = QStringLiteral("demo-key-A");
const QString kClientB = QStringLiteral("demo-key-B");
const QByteArray kBook = R"({"product":"kniha","quantity":1})";
const QByteArray kBookReordered = R"({"quantity":1,"product":"kniha"})";
const QByteArray kBookTwo = R"({"product":"kniha","quantity":2})";

bool created(const HttpReply& reply)
{
    return reply.status == 201 && !reply.replayed;
}

bool replayOf(const HttpReply& reply, qint64 orderId)
{
    return reply.status == 201 && reply.replayed && ScenarioContext::orderIdOf(reply) == orderId;
}

QString attemptText(const Attempt& attempt)
{
    QString text = attempt.httpStatus > 0 ? QString::number(attempt.httpStatus) : attemptOutcomeName(attempt.outcome);
    if (attempt.replayed) {
        text += QStringLiteral(" (replayed)");
    }
    if (attempt.httpStatus == 0 && !attempt.error.isEmpty()) {
        text += QStringLiteral(": ") + attempt.error;
    }
    if (attempt.delayAfterMs >= 0) {
        text += QStringLiteral("; next in %1 ms").arg(attempt.delayAfterMs);
    }
    return text;
}

QString submissionText(const Submission& s)
{
    QString text = QStringLiteral("%1 after %2 attempt(s)").arg(submissionStateName(s.state)).arg(s.attempts.size());
    if (s.orderId > 0) {
        text += QStringLiteral(", order %1").arg(s.orderId);
    }
    if (s.replayed) {
        text += QStringLiteral(", replayed");
    }
    if (!s.problemType.isEmpty()) {
        text += u' ' + s.problemType;
    }
    return text;
}

// One narrated row per attempt (at most `limit`, the rest summed up), so the table shows the retries.
void narrateAttempts(ScenarioContext& c, const Submission& s, int limit = 4)
{
    for (int i = 0; i < s.attempts.size() && i < limit; ++i) {
        c.narrate(QStringLiteral("attempt %1, key …%2").arg(s.attempts[i].number).arg(s.key.right(6)),
                  attemptText(s.attempts[i]));
    }
    if (s.attempts.size() == limit + 1) {
        c.narrate(QStringLiteral("attempt %1, key …%2").arg(s.attempts[limit].number).arg(s.key.right(6)),
                  attemptText(s.attempts[limit]));
    } else if (s.attempts.size() > limit) {
        c.narrate(QStringLiteral("attempts %1–%2").arg(limit + 1).arg(s.attempts.size()),
                  QStringLiteral("the same, %1 more time(s)").arg(s.attempts.size() - limit));
    }
}

Cart cartOf(const QString& cartId, const QString& product = QStringLiteral("kniha"), int quantity = 1)
{
    Cart cart(cartId);
    cart.add(product, quantity);
    return cart;
}

// Set-up steps: narrated rows, not judged.
ScenarioStep debugStep(const QString& what, const QByteArray& json, const QString& narration)
{
    return [what, json, narration](ScenarioContext& c, Next next) {
        c.debug(what, json, [&c, what, json, narration, next] {
            c.narrate(narration, QStringLiteral("POST /_debug/%1 %2").arg(what, QString::fromUtf8(json)));
            next();
        });
    };
}

ScenarioStep resetStep()
{
    return debugStep(QStringLiteral("reset"), "{}", QStringLiteral("fresh server: no orders, no keys, modes off"));
}

// A raw POST /orders and its verdict.
ScenarioStep requestStep(const QString& step, const QString& apiKey, const QString& key, const QByteArray& body,
                         const QString& expected, int expectedOrders, std::function<bool(const HttpReply&)> ok)
{
    return [=](ScenarioContext& c, Next next) {
        c.post(apiKey, key, body, [&c, step, expected, expectedOrders, ok, next](const HttpReply& reply) {
            c.verdict(step, ScenarioContext::describe(reply), expected, ok(reply), expectedOrders, next);
        });
    };
}

// Sends `copies` identical requests at once and hands all answers over together.
void postConcurrently(ScenarioContext& c, int copies, const QString& key, std::function<void(QList<HttpReply>)> done)
{
    auto replies = std::make_shared<QList<HttpReply>>();
    for (int i = 0; i < copies; ++i) {
        c.post(kClientA, key, kBook, [replies, copies, done](const HttpReply& reply) {
            replies->append(reply);
            if (replies->size() == copies) {
                done(*replies);
            }
        });
    }
}

QString describeAll(const QList<HttpReply>& replies)
{
    QStringList texts;
    for (const HttpReply& reply : replies) {
        texts.append(ScenarioContext::describe(reply));
    }
    return texts.join(QStringLiteral("; "));
}

// Heals the network once the first attempt has ended.
std::function<void(const Submission&)> passAfterFirstAttempt(ScenarioContext& c)
{
    return [&c](const Submission& s) {
        if (!s.attempts.isEmpty() && s.attempts.first().endedMs > 0 &&
            c.conditioner().mode() != ConditionerMode::Pass) {
            c.conditioner().setMode(ConditionerMode::Pass);
            c.narrate(QStringLiteral("network: pass"), QStringLiteral("the conditioner relays again"));
        }
    };
}

ScenarioStep conditionerStep(ConditionerMode mode, const QString& why)
{
    return [mode, why](ScenarioContext& c, Next next) {
        c.conditioner().setMode(mode);
        c.narrate(QStringLiteral("network: %1").arg(NetworkConditioner::modeName(mode)), why);
        next();
    };
}

// ---------------------------------------------------------------------------------------------------------------

Scenario theArticleTable()
{
    const QString k1 = QStringLiteral("K1");
    return {QStringLiteral("the-article-table"),
            QStringLiteral("The article's table"),
            QStringLiteral(
                "The server's rules in six requests. The first request with a key places an order and stores the "
                "answer; the same key with the same data (even with the fields in another order) gets the stored "
                "answer back, marked Idempotent-Replayed; the same key with other data is refused with 422 and "
                "nothing changes; another client's K1 is its own key (keys are scoped per client); a POST without "
                "a key is refused before anything is stored."),
            {requestStep(QStringLiteral("A: POST /orders, K1, kniha × 1"), kClientA, k1, kBook,
                         QStringLiteral("201, a new order"), 1, created),
             requestStep(QStringLiteral("A: the same again, K1"), kClientA, k1, kBook,
                         QStringLiteral("201 order 1 replayed, no new order"), 1,
                         [](const HttpReply& r) { return replayOf(r, 1); }),
             requestStep(QStringLiteral("A: K1, same data, fields in another order"), kClientA, k1, kBookReordered,
                         QStringLiteral("201 order 1 replayed (same fingerprint)"), 1,
                         [](const HttpReply& r) { return replayOf(r, 1); }),
             requestStep(QStringLiteral("A: K1, kniha × 2"), kClientA, k1, kBookTwo,
                         QStringLiteral("422 idempotency-key-reused, nothing changes"), 1,
                         [](const HttpReply& r) {
                             return r.status == 422 &&
                                 ScenarioContext::problemTypeOf(r) == u"/problems/idempotency-key-reused";
                         }),
             requestStep(QStringLiteral("B: POST /orders, K1, kniha × 1"), kClientB, k1, kBook,
                         QStringLiteral("201, B's own order"), 2,
                         [](const HttpReply& r) { return created(r) && ScenarioContext::orderIdOf(r) != 1; }),
             requestStep(QStringLiteral("A: POST /orders without Idempotency-Key"), kClientA, {}, kBook,
                         QStringLiteral("400 missing-idempotency-key, nothing stored"), 2, [](const HttpReply& r) {
                             return r.status == 400 &&
                                 ScenarioContext::problemTypeOf(r) == u"/problems/missing-idempotency-key";
                         })}};
}

Scenario doubleClick()
{
    return {QStringLiteral("double-click"),
            QStringLiteral("Double click"),
            QStringLiteral(
                "An impatient user clicks twice: two requests with one key reach the server at the same moment. The "
                "key row is the transaction's first write and duplicates queue behind the writer lock, so the second "
                "request waits, then finds the stored answer: one order, and both clicks see the same order id."),
            {[](ScenarioContext& c, Next next) {
                postConcurrently(c, 2, QStringLiteral("double-click-key"), [&c, next](const QList<HttpReply>& r) {
                    const bool ok = r.size() == 2 && r[0].status == 201 && r[1].status == 201 &&
                        ScenarioContext::orderIdOf(r[0]) == ScenarioContext::orderIdOf(r[1]) &&
                        (r[0].replayed != r[1].replayed);
                    c.verdict(QStringLiteral("A: 2 × POST /orders, one key, at once"), describeAll(r),
                              QStringLiteral("201 and 201 replayed, one order id"), ok, 1, next);
                });
            }}};
}

Scenario lostResponse()
{
    return {QStringLiteral("lost-response"),
            QStringLiteral("Lost response"),
            QStringLiteral(
                "The server commits the order but its answer is lost on the way back (the conditioner drops it). "
                "The client cannot tell this from a request that never arrived, so it retries with the same key: "
                "the server recognises the key and replays the stored answer. One order, and the client learns its "
                "id."),
            {conditionerStep(ConditionerMode::DropResponse, QStringLiteral("the next answer is dropped")),
             [](ScenarioContext& c, Next next) {
                 c.submit(cartOf(QStringLiteral("cart-lost")), fastEngineConfig(), passAfterFirstAttempt(c),
                          [&c, next](const Submission& s) {
                              narrateAttempts(c, s);
                              const bool ok = s.state == SubmissionState::Placed && s.replayed &&
                                  s.attempts.size() == 2 && s.attempts[0].outcome == AttemptOutcome::MaybeSent;
                              c.verdict(QStringLiteral("the client's submission"), submissionText(s),
                                        QStringLiteral("placed by a replayed retry, one order"), ok, 1, next);
                          });
             }}};
}

Scenario clientCrash()
{
    return {QStringLiteral("client-crash"),
            QStringLiteral("Client crash after sending"),
            QStringLiteral(
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
                                      QStringLiteral("onceorder-cli submit, killed after send"),
                                      crashed ? QStringLiteral("killed, no answer read")
                                              : QStringLiteral("exited normally"),
                                      QStringLiteral("killed; 0 or 1 orders: the client cannot know"), crashed,
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
                                  const QJsonObject line = QJsonDocument::fromJson(out.trimmed()).object();
                                  const bool ok = !crashed && exitCode == 0 &&
                                      line.value(QStringLiteral("state")).toString() == u"placed";
                                  c.verdict(QStringLiteral("onceorder-cli resume, the stored key"),
                                            QString::fromUtf8(out.trimmed()),
                                            QStringLiteral("placed (replayed if the first one got through), one order"),
                                            ok, 1, next);
                              });
             }}};
}

ScenarioStep submitStep(const QString& step, const Cart& cart, const QString& expected, int expectedOrders,
                        std::function<bool(const Submission&)> ok,
                        std::function<EngineConfig()> config = fastEngineConfig,
                        std::function<std::function<void(const Submission&)>(ScenarioContext&)> watcher = {})
{
    return [=](ScenarioContext& c, Next next) {
        c.submit(cart, config(), watcher ? watcher(c) : std::function<void(const Submission&)>(),
                 [&c, step, expected, expectedOrders, ok, next](const Submission& s) {
                     narrateAttempts(c, s);
                     c.verdict(step, submissionText(s), expected, ok(s), expectedOrders, next);
                 });
    };
}

Scenario serverCrash()
{
    return {
        QStringLiteral("server-crash"),
        QStringLiteral("Server crash before and after commit"),
        QStringLiteral(
            "The server process dies in the middle of a request. Before the commit, SQLite rolls the whole "
            "transaction back: no order, no key; the client's retry (after the server has restarted) places it "
            "as new. After the commit, the order and its stored answer survive: the retry is a replay. Either "
            "way the cart becomes exactly one order."),
        {debugStep(QStringLiteral("faults"), R"({"fault":"crash-before-commit"})",
                   QStringLiteral("the server will die before its next commit")),
         submitStep(QStringLiteral("cart 1 submitted"), cartOf(QStringLiteral("cart-before")),
                    QStringLiteral("placed as new (not replayed), one order"), 1,
                    [](const Submission& s) {
                        return s.state == SubmissionState::Placed && !s.replayed && s.attempts.size() >= 2;
                    }),
         debugStep(QStringLiteral("faults"), R"({"fault":"crash-after-commit"})",
                   QStringLiteral("the server will die after its next commit")),
         submitStep(QStringLiteral("cart 2 submitted"), cartOf(QStringLiteral("cart-after"), QStringLiteral("hrnek")),
                    QStringLiteral("placed by a replay, two orders in all"), 2, [](const Submission& s) {
                        return s.state == SubmissionState::Placed && s.replayed && s.attempts.size() >= 2;
                    })}};
}

EngineConfig shortWindowConfig()
{
    EngineConfig config = fastEngineConfig();
    config.policy.retryWindowMs = 1200;
    config.policy.maxRetryAfterMs = 200; // Retry-After: 1 is obeyed, but capped so the scenario stays short
    return config;
}

Scenario transientError()
{
    return {
        QStringLiteral("transient-error"),
        QStringLiteral("Transient error: stored versus rolled back"),
        QStringLiteral("A database hiccup answers 503. The mistake (store_transient mode) stores that 503 as the key's "
                       "answer: every retry with the key gets the same 503 replayed, the client stays stuck until its "
                       "window ends (or the key expires) and the order is never placed. The fix rolls the whole "
                       "transaction back and stores nothing, so the retry with the same key succeeds."),
        {debugStep(QStringLiteral("mode"), R"({"store_transient":true})",
                   QStringLiteral("mistake on: a 503 is stored as the key's answer")),
         debugStep(QStringLiteral("faults"), R"({"fault":"fail-before-commit"})",
                   QStringLiteral("the next transaction fails before commit")),
         submitStep(
             QStringLiteral("the mistake: cart 1 submitted"), cartOf(QStringLiteral("cart-stuck")),
             QStringLiteral("gave up on replayed 503s, no order"), 0,
             [](const Submission& s) {
                 return s.state == SubmissionState::GaveUp && s.attempts.size() >= 2 &&
                     std::all_of(s.attempts.begin(), s.attempts.end(),
                                 [](const Attempt& a) { return a.httpStatus == 503; }) &&
                     s.attempts[1].replayed;
             },
             shortWindowConfig),
         resetStep(),
         debugStep(QStringLiteral("faults"), R"({"fault":"fail-before-commit"})",
                   QStringLiteral("the next transaction fails before commit")),
         submitStep(
             QStringLiteral("the fix: cart 1 submitted"), cartOf(QStringLiteral("cart-stuck")),
             QStringLiteral("placed by the retry, one order"), 1,
             [](const Submission& s) {
                 return s.state == SubmissionState::Placed && !s.replayed && s.attempts.size() == 2 &&
                     s.attempts[0].httpStatus == 503;
             },
             shortWindowConfig)}};
}

Scenario unscopedKeys()
{
    const QString key = QStringLiteral("K1");
    return {QStringLiteral("unscoped-keys"),
            QStringLiteral("Keys not scoped per client"),
            QStringLiteral(
                "Two clients happen to use the same key. The mistake (unscoped_keys mode) keeps one namespace of "
                "keys for everybody: B's request is taken for a retry of A's and B receives A's order, a data leak "
                "and a lost order. The fix makes the key's primary key (client_id, idem_key): B gets its own order."),
            {debugStep(QStringLiteral("mode"), R"({"unscoped_keys":true})",
                       QStringLiteral("mistake on: one key space for all clients")),
             [key](ScenarioContext& c, Next next) {
                 c.post(kClientA, key, kBook, [&c, next](const HttpReply& r) {
                     c.setNote(QStringLiteral("a"), ScenarioContext::orderIdOf(r));
                     c.verdict(QStringLiteral("A: K1, kniha × 1"), ScenarioContext::describe(r),
                               QStringLiteral("201, A's order"), created(r), 1, next);
                 });
             },
             [key](ScenarioContext& c, Next next) {
                 c.post(kClientB, key, kBook, [&c, next](const HttpReply& r) {
                     const bool ok = replayOf(r, c.note(QStringLiteral("a")).toLongLong());
                     c.verdict(QStringLiteral("the mistake: B: K1, kniha × 1"), ScenarioContext::describe(r),
                               QStringLiteral("A's order replayed to B, no order for B"), ok, 1, next);
                 });
             },
             resetStep(),
             [key](ScenarioContext& c, Next next) {
                 c.post(kClientA, key, kBook, [&c, next](const HttpReply& r) {
                     c.setNote(QStringLiteral("a"), ScenarioContext::orderIdOf(r));
                     c.verdict(QStringLiteral("A: K1, kniha × 1"), ScenarioContext::describe(r),
                               QStringLiteral("201, A's order"), created(r), 1, next);
                 });
             },
             [key](ScenarioContext& c, Next next) {
                 c.post(kClientB, key, kBook, [&c, next](const HttpReply& r) {
                     const bool ok =
                         created(r) && ScenarioContext::orderIdOf(r) != c.note(QStringLiteral("a")).toLongLong();
                     c.verdict(QStringLiteral("the fix: B: K1, kniha × 1"), ScenarioContext::describe(r),
                               QStringLiteral("201, B's own order"), ok, 2, next);
                 });
             }}};
}

ScenarioStep raceStep(const QString& step, int copies, const QString& expected, std::function<bool(int)> ordersOk)
{
    return [=](ScenarioContext& c, Next next) {
        postConcurrently(
            c, copies, QStringLiteral("race-key"), [&c, step, expected, ordersOk, next](const QList<HttpReply>& r) {
                const bool all201 = std::all_of(r.begin(), r.end(), [](const HttpReply& x) { return x.status == 201; });
                c.verdictIf(step, describeAll(r), expected, all201, ordersOk, next);
            });
    };
}

Scenario checkThenInsert()
{
    return {QStringLiteral("check-then-insert"),
            QStringLiteral("Look-then-insert versus key first"),
            QStringLiteral(
                "The mistake (check_then_insert mode) first looks whether the key exists and inserts it in a second "
                "step. Copies of one request arriving together all look before any has inserted, all see nothing, "
                "and all place an order (a delay fault widens the gap, as a slow disk would). The fix makes the key "
                "row the transaction's first write under the writer lock: one order, the others are replays."),
            {debugStep(QStringLiteral("mode"), R"({"check_then_insert":true})",
                       QStringLiteral("mistake on: look for the key, then insert")),
             debugStep(QStringLiteral("faults"), R"({"fault":"delay","count":4,"delay_ms":300})",
                       QStringLiteral("300 ms between the look and the insert")),
             raceStep(QStringLiteral("the mistake: 4 × A, one key, at once"), 4,
                      QStringLiteral("more than one order for one key"), [](int orders) { return orders > 1; }),
             resetStep(),
             debugStep(QStringLiteral("faults"), R"({"fault":"delay","count":4,"delay_ms":300})",
                       QStringLiteral("300 ms inside the transaction")),
             raceStep(QStringLiteral("the fix: 4 × A, one key, at once"), 4, QStringLiteral("exactly one order"),
                      [](int orders) { return orders == 1; })}};
}

std::function<void(const Submission&)> healAfterFirst(ScenarioContext& c)
{
    return passAfterFirstAttempt(c);
}

EngineConfig perClickConfig()
{
    EngineConfig config = fastEngineConfig();
    config.keys = KeyStrategy::PerClick;
    return config;
}

Scenario newKeyPerRetry()
{
    return {QStringLiteral("new-key-per-retry"),
            QStringLiteral("A new key for every retry"),
            QStringLiteral(
                "A client that makes a fresh Idempotency-Key for each attempt defeats the server: after a lost "
                "response the retry looks like a new order. Without a business key (business_key_off mode) the cart "
                "is ordered twice. With UNIQUE(client_id, cart_id) the second order is refused as "
                "cart-already-ordered, naming the first one, which the client reads back and takes as its own: "
                "placed, one order."),
            {debugStep(QStringLiteral("mode"), R"({"business_key_off":true})",
                       QStringLiteral("no UNIQUE(client_id, cart_id)")),
             conditionerStep(ConditionerMode::DropResponse, QStringLiteral("the first answer is dropped")),
             submitStep(
                 QStringLiteral("the mistake: cart submitted, new key per attempt"),
                 cartOf(QStringLiteral("cart-perclick")), QStringLiteral("placed twice: two orders"), 2,
                 [](const Submission& s) { return s.state == SubmissionState::Placed && !s.replayed; }, perClickConfig,
                 healAfterFirst),
             resetStep(), conditionerStep(ConditionerMode::DropResponse, QStringLiteral("the first answer is dropped")),
             submitStep(
                 QStringLiteral("with the business key: cart submitted, new key per attempt"),
                 cartOf(QStringLiteral("cart-perclick")),
                 QStringLiteral("422 cart-already-ordered names the first order: placed, one order"), 1,
                 [](const Submission& s) {
                     return s.state == SubmissionState::Placed && s.problemType == u"/problems/cart-already-ordered";
                 },
                 perClickConfig, healAfterFirst)}};
}

Scenario shortTtl()
{
    const QString key = QStringLiteral("K-ttl");
    return {
        QStringLiteral("short-ttl"),
        QStringLiteral("A key TTL shorter than the retry window"),
        QStringLiteral(
            "The server forgets a key after its TTL; an expired key is as good as new. If a client may still "
            "retry after that (its retry window is longer than the TTL), a late retry places a second order. "
            "Here a second server runs with --key-ttl 1 and the retry comes 1.5 s later; the bundled server "
            "(TTL 24 h, far beyond any client window) replays the same late retry."),
        {[](ScenarioContext& c, Next next) {
             c.startExtraServer({QStringLiteral("--key-ttl"), QStringLiteral("1")}, [&c, next](const QUrl& url) {
                 c.setNote(QStringLiteral("short"), url);
                 c.narrate(QStringLiteral("second server, --key-ttl 1"), url.toString());
                 next();
             });
         },
         [key](ScenarioContext& c, Next next) {
             const QUrl url = c.note(QStringLiteral("short")).toUrl();
             c.post(
                 kClientA, key, kBook,
                 [&c, next, url](const HttpReply& r) {
                     c.verdict(QStringLiteral("TTL 1 s: A: K-ttl"), ScenarioContext::describe(r),
                               QStringLiteral("201, a new order"), created(r), 1, next, url);
                 },
                 url);
         },
         requestStep(QStringLiteral("TTL 24 h: A: K-ttl"), kClientA, key, kBook, QStringLiteral("201, a new order"), 1,
                     created),
         [](ScenarioContext& c, Next next) {
             c.narrate(QStringLiteral("wait 1.5 s"), QStringLiteral("the client is still inside its retry window"));
             c.after(1500, next);
         },
         [key](ScenarioContext& c, Next next) {
             const QUrl url = c.note(QStringLiteral("short")).toUrl();
             c.post(
                 kClientA, key, kBook,
                 [&c, next, url](const HttpReply& r) {
                     c.verdict(QStringLiteral("the mistake: TTL 1 s: the late retry, K-ttl"),
                               ScenarioContext::describe(r), QStringLiteral("201 not replayed: a second order"),
                               created(r), 2, next, url);
                 },
                 url);
         },
         requestStep(QStringLiteral("the fix: TTL 24 h: the late retry, K-ttl"), kClientA, key, kBook,
                     QStringLiteral("201 replayed, one order"), 1, [](const HttpReply& r) { return replayOf(r, 1); })}};
}

Scenario retryAfterAndOffline()
{
    return {QStringLiteral("retry-after-and-offline"),
            QStringLiteral("503 with Retry-After; offline, then back"),
            QStringLiteral(
                "An overloaded server answers 503 with Retry-After: 1; the client waits at least that long instead "
                "of its own short backoff, then places the order. When the network is gone (the conditioner stops "
                "listening, connections are refused), the client keeps its key and backs off; once the network is "
                "back the same submission completes. One order each."),
            {debugStep(QStringLiteral("faults"), R"({"fault":"unavailable","retry_after":1})",
                       QStringLiteral("the next request gets 503 with Retry-After: 1")),
             submitStep(QStringLiteral("cart 1 submitted"), cartOf(QStringLiteral("cart-retry-after")),
                        QStringLiteral("placed; the retry came ≥ 1 s after the 503"), 1,
                        [](const Submission& s) {
                            return s.state == SubmissionState::Placed && s.attempts.size() == 2 &&
                                s.attempts[0].httpStatus == 503 &&
                                s.attempts[1].startedMs - s.attempts[0].endedMs >= 990;
                        }),
             conditionerStep(ConditionerMode::Offline, QStringLiteral("connections are refused")),
             submitStep(
                 QStringLiteral("cart 2 submitted while offline"), cartOf(QStringLiteral("cart-offline")),
                 QStringLiteral("placed once the network is back, two orders in all"), 2,
                 [](const Submission& s) {
                     return s.state == SubmissionState::Placed && !s.replayed && s.attempts.size() >= 3 &&
                         s.attempts[0].outcome == AttemptOutcome::NotSent;
                 },
                 fastEngineConfig,
                 [](ScenarioContext& c) -> std::function<void(const Submission&)> {
                     return [&c](const Submission& s) {
                         const auto refused = std::count_if(s.attempts.begin(), s.attempts.end(), [](const Attempt& a) {
                             return a.outcome == AttemptOutcome::NotSent;
                         });
                         if (refused >= 2 && c.conditioner().mode() == ConditionerMode::Offline) {
                             c.conditioner().setMode(ConditionerMode::Pass);
                             c.narrate(QStringLiteral("network: back"),
                                       QStringLiteral("after %1 refused attempts").arg(refused));
                         }
                     };
                 })}};
}

// ---------------------------------------------------------------------------------------------------------------
// The payment gateway in the middle (POST /checkout) and its webhooks.

const QByteArray kPayBook = R"({"product":"kniha","quantity":1,"payment_method":"card"})";
const QByteArray kPayMug = R"({"product":"hrnek","quantity":1,"payment_method":"card"})";

struct PaymentCounts
{
    int orders = 0;
    int paid = 0;
    int charges = 0;
    int payments = 0;
    QStringList events; // the effect of each webhook event row

    explicit PaymentCounts(const QJsonObject& state)
    {
        const QJsonArray orderRows = state.value(QStringLiteral("orders")).toArray();
        orders = static_cast<int>(orderRows.size());
        paid = static_cast<int>(std::count_if(orderRows.begin(), orderRows.end(), [](const QJsonValue& o) {
            return o.toObject().value(QStringLiteral("status")).toString() == u"paid";
        }));
        charges = static_cast<int>(
            state.value(QStringLiteral("gateway")).toObject().value(QStringLiteral("charges")).toArray().size());
        payments = static_cast<int>(state.value(QStringLiteral("payments")).toArray().size());
        for (const QJsonValue& event : state.value(QStringLiteral("webhook_events")).toArray()) {
            events.append(event.toObject().value(QStringLiteral("effect")).toString());
        }
    }

    QString text() const
    {
        return QStringLiteral("%1 paid of %2 orders, gateway charges %3, payments %4, webhook events [%5]")
            .arg(paid)
            .arg(orders)
            .arg(charges)
            .arg(payments)
            .arg(events.join(QStringLiteral(", ")));
    }
};

// Adds a row judged on the reply and on the database (orders, charges, payments) as it is now.
void paymentVerdict(ScenarioContext& c, const QString& step, const HttpReply& reply, const QString& expected, bool ok,
                    std::function<bool(const PaymentCounts&)> countsOk, Next next)
{
    c.state([&c, step, reply, expected, ok, countsOk, next](const QJsonObject& state) {
        const PaymentCounts counts(state);
        c.addRow({step, ScenarioContext::describe(reply) + QStringLiteral("; ") + counts.text(), counts.orders,
                  expected, ok && countsOk(counts)});
        next();
    });
}

// After a crash fault the bundled server is restarted; until then the connection is refused. Retries every
// 100 ms (at most 50 times) until the server answers.
void checkoutUntilAnswered(ScenarioContext& c, const QString& key, const QByteArray& body, int triesLeft,
                           std::function<void(const HttpReply&)> done)
{
    c.checkout(kClientA, key, body, [&c, key, body, triesLeft, done](const HttpReply& reply) {
        if (reply.status != 0 || triesLeft <= 1) {
            done(reply);
            return;
        }
        c.after(100, [&c, key, body, triesLeft, done] { checkoutUntilAnswered(c, key, body, triesLeft - 1, done); });
    });
}

Scenario paymentGateway()
{
    return {QStringLiteral("payment-gateway"),
            QStringLiteral("A payment gateway in the middle"),
            QStringLiteral(
                "One transaction cannot span a call to a payment gateway, so POST /checkout runs as atomic phases, "
                "each committing a recovery point. While the first request waits for a slow gateway, a retry with "
                "the same key is told 409 request-in-progress instead of paying twice. When the server dies after "
                "the gateway charged but before our phase committed, the retry resumes from the recovery point and "
                "the gateway, asked again under the same key, returns the charge it already made: one order, one "
                "charge."),
            {debugStep(QStringLiteral("faults"), R"({"fault":"gateway-slow","delay_ms":1000})",
                       QStringLiteral("the gateway answers after 1 s")),
             [](ScenarioContext& c, Next next) {
                 auto first = std::make_shared<std::optional<HttpReply>>();
                 auto second = std::make_shared<std::optional<HttpReply>>();
                 auto both = [&c, first, second, next] {
                     if (!*first || !*second) {
                         return;
                     }
                     const HttpReply& dup = **second;
                     c.addRow({QStringLiteral("A: the same checkout again, 0.3 s later"),
                               ScenarioContext::describe(dup), -1,
                               QStringLiteral("409 request-in-progress with Retry-After"),
                               dup.status == 409 &&
                                   ScenarioContext::problemTypeOf(dup) == u"/problems/request-in-progress" &&
                                   dup.retryAfter.has_value()});
                     paymentVerdict(
                         c, QStringLiteral("A: POST /checkout, pay-1, kniha × 1 (slow gateway)"), **first,
                         QStringLiteral("201 paid; one order, one charge"), created(**first),
                         [](const PaymentCounts& n) { return n.orders == 1 && n.paid == 1 && n.charges == 1; }, next);
                 };
                 c.checkout(kClientA, QStringLiteral("pay-1"), kPayBook, [first, both](const HttpReply& r) {
                     *first = r;
                     both();
                 });
                 c.after(300, [&c, second, both] {
                     c.checkout(kClientA, QStringLiteral("pay-1"), kPayBook, [second, both](const HttpReply& r) {
                         *second = r;
                         both();
                     });
                 });
             },
             debugStep(QStringLiteral("faults"), R"({"fault":"crash-after-charge"})",
                       QStringLiteral("the server dies after the next charge, before phase 2 commits")),
             [](ScenarioContext& c, Next next) {
                 c.checkout(kClientA, QStringLiteral("pay-2"), kPayMug, [&c, next](const HttpReply& r) {
                     c.addRow({QStringLiteral("A: POST /checkout, pay-2, hrnek × 1"), ScenarioContext::describe(r), -1,
                               QStringLiteral("no answer: the server died between the phases"), r.status == 0});
                     next();
                 });
             },
             [](ScenarioContext& c, Next next) {
                 checkoutUntilAnswered(c, QStringLiteral("pay-2"), kPayMug, 50, [&c, next](const HttpReply& r) {
                     paymentVerdict(
                         c, QStringLiteral("A: retry pay-2 after the restart"), r,
                         QStringLiteral("201 paid, resumed at the recovery point; 2 orders, 2 charges in all"),
                         r.status == 201,
                         [](const PaymentCounts& n) {
                             return n.orders == 2 && n.paid == 2 && n.charges == 2 && n.payments == 2;
                         },
                         next);
                 });
             }}};
}

Scenario webhooks()
{
    return {QStringLiteral("webhooks"),
            QStringLiteral("A webhook delivered twice; two events for one change"),
            QStringLiteral(
                "Gateways deliver webhooks at least once: the same event may come twice, and one change may be "
                "reported by two events with different ids. The server records each event id first (a repeated id "
                "is a duplicate and does nothing) and makes the effect idempotent on the data (one payment per "
                "charge, pending → paid only once), so the order is paid once either way."),
            {debugStep(QStringLiteral("faults"), R"({"fault":"webhook-duplicate"})",
                       QStringLiteral("the gateway will deliver the next event twice, same id")),
             [](ScenarioContext& c, Next next) {
                 c.checkout(kClientA, QStringLiteral("pay-w1"), kPayBook, [&c, next](const HttpReply& r) {
                     paymentVerdict(
                         c, QStringLiteral("A: POST /checkout, pay-w1 (event delivered twice)"), r,
                         QStringLiteral("201 paid; one event row, one payment"), created(r),
                         [](const PaymentCounts& n) {
                             return n.orders == 1 && n.paid == 1 && n.payments == 1 && n.events.size() == 1;
                         },
                         next);
                 });
             },
             debugStep(QStringLiteral("faults"), R"({"fault":"webhook-twin"})",
                       QStringLiteral("the gateway will send two events with different ids for the next charge")),
             [](ScenarioContext& c, Next next) {
                 c.checkout(kClientA, QStringLiteral("pay-w2"), kPayMug, [&c, next](const HttpReply& r) {
                     paymentVerdict(
                         c, QStringLiteral("A: POST /checkout, pay-w2 (twin events)"), r,
                         QStringLiteral("201 paid; the twin changes nothing: 2 orders, 2 payments"), created(r),
                         [](const PaymentCounts& n) {
                             return n.orders == 2 && n.paid == 2 && n.payments == 2 && n.charges == 2 &&
                                 n.events.size() == 3 && n.events.contains(QStringLiteral("no-change"));
                         },
                         next);
                 });
             }}};
}

// ---------------------------------------------------------------------------------------------------------------
// Thundering herd: many pending carts after an outage, with and without jitter.

constexpr int kHerdCarts = 10;
constexpr int kHerdOutageMs = 600;
// Wider than 100 ms: recording each attempt durably takes a few ms, so even a perfect lockstep is smeared a little.
constexpr int kHerdWindowMs = 200;

// The most retries that started within any kHerdWindowMs.
int peakWithinWindow(QList<qint64> starts)
{
    std::sort(starts.begin(), starts.end());
    int peak = 0;
    qsizetype first = 0;
    for (qsizetype last = 0; last < starts.size(); ++last) {
        while (starts[last] - starts[first] >= kHerdWindowMs) {
            ++first;
        }
        peak = std::max(peak, static_cast<int>(last - first + 1));
    }
    return peak;
}

// Retries per 100 ms from `fromMs`, for the slide: "0 20 0 20 0 0 0 20 …".
QString seriesPer100Ms(const QList<qint64>& starts, qint64 fromMs)
{
    QList<int> buckets;
    for (const qint64 start : starts) {
        const auto index = static_cast<qsizetype>(std::max<qint64>(0, start - fromMs) / 100);
        while (buckets.size() <= index) {
            buckets.append(0);
        }
        ++buckets[index];
    }
    QStringList texts;
    for (const int count : buckets) {
        texts.append(QString::number(count));
    }
    return texts.join(u' ');
}

// Waits until every cart's first request hangs in the blackhole, then cuts them all at once (as a server that
// dies with requests in flight): from that instant the clients' retry schedules are compared.
void cutWhenAllHang(ScenarioContext& c, std::function<void(qint64 cutMs)> done, int triesLeft = 200)
{
    if (c.conditioner().counters().blackholed < kHerdCarts && triesLeft > 0) {
        c.after(20, [&c, done, triesLeft] { cutWhenAllHang(c, done, triesLeft - 1); });
        return;
    }
    c.conditioner().setMode(ConditionerMode::Offline);
    done(QDateTime::currentMSecsSinceEpoch());
}

ScenarioStep herdStep(const QString& label, JitterStrategy jitter, const QString& expected,
                      std::function<bool(int peak, const ScenarioContext&)> ok)
{
    return [=](ScenarioContext& c, Next next) {
        EngineConfig config = fastEngineConfig();
        config.policy.baseDelayMs = 800;
        config.policy.maxDelayMs = 3200;
        config.policy.jitter = jitter;
        c.conditioner().resetCounters();
        c.conditioner().setMode(ConditionerMode::Blackhole);
        struct Herd
        {
            QList<qint64> retryStarts;
            int settled = 0;
            int placed = 0;
            qint64 cutMs = 0;
        };
        auto herd = std::make_shared<Herd>();
        cutWhenAllHang(c, [&c, herd](qint64 cutMs) {
            herd->cutMs = cutMs;
            c.after(kHerdOutageMs, [&c] { c.conditioner().setMode(ConditionerMode::Pass); });
        });
        for (int i = 0; i < kHerdCarts; ++i) {
            c.submit(cartOf(QStringLiteral("herd-%1-%2").arg(static_cast<int>(jitter)).arg(i)), config, {},
                     [&c, herd, label, expected, ok, next](const Submission& s) {
                         for (const Attempt& attempt : s.attempts) {
                             if (attempt.number >= 2) {
                                 herd->retryStarts.append(attempt.startedMs);
                             }
                         }
                         herd->placed += s.state == SubmissionState::Placed ? 1 : 0;
                         if (++herd->settled < kHerdCarts) {
                             return;
                         }
                         const int peak = peakWithinWindow(herd->retryStarts);
                         c.narrate(QStringLiteral("%1: retries per 100 ms after the cut").arg(label),
                                   seriesPer100Ms(herd->retryStarts, herd->cutMs));
                         const bool fine = herd->placed == kHerdCarts && ok(peak, c);
                         c.setNote(QStringLiteral("peak-") + label, peak);
                         c.verdict(QStringLiteral("%1: %2 requests cut at once, %3 s outage")
                                       .arg(label)
                                       .arg(kHerdCarts)
                                       .arg(kHerdOutageMs / 1000.0),
                                   QStringLiteral("%1 placed, %2 retries, at most %3 within %4 ms")
                                       .arg(herd->placed)
                                       .arg(herd->retryStarts.size())
                                       .arg(peak)
                                       .arg(kHerdWindowMs),
                                   expected, fine, kHerdCarts, next);
                     });
        }
    };
}

Scenario thunderingHerd()
{
    return {QStringLiteral("thundering-herd"),
            QStringLiteral("Thundering herd: retries with and without jitter"),
            QStringLiteral(
                "After an outage every pending cart retries. Without jitter all clients compute the same backoff "
                "(800 ms, then 1.6 s, …) and hit the recovering server in lockstep: every retry of every cart in "
                "the same moment. With full jitter each waits a random time up to the backoff, so the same retries "
                "are spread out and the peak is a fraction. Either way each cart becomes one order."),
            {herdStep(QStringLiteral("no jitter"), JitterStrategy::None,
                      QStringLiteral("lockstep: at least 8 of the 10 first retries within 200 ms"),
                      [](int peak, const ScenarioContext&) { return peak >= kHerdCarts * 8 / 10; }),
             resetStep(),
             herdStep(QStringLiteral("full jitter"), JitterStrategy::Full,
                      QStringLiteral("spread out: a lower peak than without jitter"),
                      [](int peak, const ScenarioContext& c) {
                          return peak < c.note(QStringLiteral("peak-no jitter")).toInt();
                      })}};
}

} // namespace

QList<Scenario> allScenarios()
{
    return {theArticleTable(),      doubleClick(),    lostResponse(),    clientCrash(),    serverCrash(),
            transientError(),       unscopedKeys(),   checkThenInsert(), newKeyPerRetry(), shortTtl(),
            retryAfterAndOffline(), thunderingHerd(), paymentGateway(),  webhooks()};
}

} // namespace onceorder::core
