// The server's mistakes, each played wrong then right on a fresh server: a transient error stored as the key's
// answer, keys not scoped per client, look-then-insert instead of the key first, a key TTL shorter than the
// client's retry window.
#include "teaching/scenarios/ScenarioSteps.h"
#include "teaching/scenarios/Scenarios.h"

namespace onceorder::core::scenarios {

namespace {

EngineConfig shortWindowConfig()
{
    EngineConfig config = fastEngineConfig();
    config.policy.retryWindowMs = 1200;
    config.policy.maxRetryAfterMs = 200; // Retry-After: 1 is obeyed, but capped so the scenario stays short
    return config;
}

ScenarioStep raceStep(const QString& step, int copies, const QString& expected, std::function<bool(int)> ordersOk)
{
    return [=](ScenarioContext& c, Next next) {
        postConcurrently(c, copies, QStringLiteral("race-key"),
                         [&c, step, expected, ordersOk, next](const QList<HttpReply>& r) {
                             c.verdictIf(step, describeAll(r), expected, verdicts::all201(r), ordersOk, next);
                         });
    };
}

} // namespace

Scenario transientError()
{
    return {QStringLiteral("transient-error"),
            ScenarioText::tr("Transient error: stored versus rolled back"),
            ScenarioText::tr(
                "A database hiccup answers 503. The mistake (store_transient mode) stores that 503 as the key's "
                "answer: every retry with the key gets the same 503 replayed, the client stays stuck until its "
                "window ends (or the key expires) and the order is never placed. The fix rolls the whole "
                "transaction back and stores nothing, so the retry with the same key succeeds."),
            {debugStep(QStringLiteral("mode"), R"({"store_transient":true})",
                       ScenarioText::tr("mistake on: a 503 is stored as the key's answer")),
             debugStep(QStringLiteral("faults"), R"({"fault":"fail-before-commit"})",
                       ScenarioText::tr("the next transaction fails before commit")),
             submitStep(ScenarioText::tr("the mistake: cart 1 submitted"), cartOf(QStringLiteral("cart-stuck")),
                        ScenarioText::tr("gave up on replayed 503s, no order"), 0, verdicts::stuckOnReplayed503s,
                        shortWindowConfig),
             resetStep(),
             debugStep(QStringLiteral("faults"), R"({"fault":"fail-before-commit"})",
                       ScenarioText::tr("the next transaction fails before commit")),
             submitStep(ScenarioText::tr("the fix: cart 1 submitted"), cartOf(QStringLiteral("cart-stuck")),
                        ScenarioText::tr("placed by the retry, one order"), 1, verdicts::placedByRetryAfter503,
                        shortWindowConfig)}};
}

Scenario unscopedKeys()
{
    const QString key = QStringLiteral("K1");
    // A orders with K1 and notes its order id, before B (the mistake, then the fix) uses the same key.
    const ScenarioStep aOrders = [key](ScenarioContext& c, Next next) {
        c.post(kClientA, key, kBook, [&c, next](const HttpReply& r) {
            c.setNote(QStringLiteral("a"), ScenarioContext::orderIdOf(r));
            c.verdict(ScenarioText::tr("A: K1, kniha × 1"), ScenarioContext::describe(r),
                      ScenarioText::tr("201, A's order"), created(r), 1, next);
        });
    };
    return {QStringLiteral("unscoped-keys"),
            ScenarioText::tr("Keys not scoped per client"),
            ScenarioText::tr(
                "Two clients happen to use the same key. The mistake (unscoped_keys mode) keeps one namespace of "
                "keys for everybody: B's request is taken for a retry of A's and B receives A's order, a data leak "
                "and a lost order. The fix makes the key's primary key (client_id, idem_key): B gets its own order."),
            {debugStep(QStringLiteral("mode"), R"({"unscoped_keys":true})",
                       ScenarioText::tr("mistake on: one key space for all clients")),
             aOrders,
             [key](ScenarioContext& c, Next next) {
                 c.post(kClientB, key, kBook, [&c, next](const HttpReply& r) {
                     const bool ok = replayOf(r, c.note(QStringLiteral("a")).toLongLong());
                     c.verdict(ScenarioText::tr("the mistake: B: K1, kniha × 1"), ScenarioContext::describe(r),
                               ScenarioText::tr("A's order replayed to B, no order for B"), ok, 1, next);
                 });
             },
             resetStep(), aOrders,
             [key](ScenarioContext& c, Next next) {
                 c.post(kClientB, key, kBook, [&c, next](const HttpReply& r) {
                     const bool ok = verdicts::createdOtherThan(r, c.note(QStringLiteral("a")).toLongLong());
                     c.verdict(ScenarioText::tr("the fix: B: K1, kniha × 1"), ScenarioContext::describe(r),
                               ScenarioText::tr("201, B's own order"), ok, 2, next);
                 });
             }}};
}

Scenario checkThenInsert()
{
    return {QStringLiteral("check-then-insert"),
            ScenarioText::tr("Look-then-insert versus key first"),
            ScenarioText::tr(
                "The mistake (check_then_insert mode) first looks whether the key exists and inserts it in a second "
                "step. Copies of one request arriving together all look before any has inserted, all see nothing, "
                "and all place an order (a delay fault widens the gap, as a slow disk would). The fix makes the key "
                "row the transaction's first write under the writer lock: one order, the others are replays."),
            {debugStep(QStringLiteral("mode"), R"({"check_then_insert":true})",
                       ScenarioText::tr("mistake on: look for the key, then insert")),
             debugStep(QStringLiteral("faults"), R"({"fault":"delay","count":4,"delay_ms":300})",
                       ScenarioText::tr("300 ms between the look and the insert")),
             raceStep(ScenarioText::tr("the mistake: 4 × A, one key, at once"), 4,
                      ScenarioText::tr("more than one order for one key"), [](int orders) { return orders > 1; }),
             resetStep(),
             debugStep(QStringLiteral("faults"), R"({"fault":"delay","count":4,"delay_ms":300})",
                       ScenarioText::tr("300 ms inside the transaction")),
             raceStep(ScenarioText::tr("the fix: 4 × A, one key, at once"), 4, ScenarioText::tr("exactly one order"),
                      [](int orders) { return orders == 1; })}};
}

Scenario shortTtl()
{
    const QString key = QStringLiteral("K-ttl");
    return {QStringLiteral("short-ttl"),
            ScenarioText::tr("A key TTL shorter than the retry window"),
            ScenarioText::tr(
                "The server forgets a key after its TTL; an expired key is as good as new. If a client may still "
                "retry after that (its retry window is longer than the TTL), a late retry places a second order. "
                "Here a second server runs with --key-ttl 1 and the retry comes 1.5 s later; the bundled server "
                "(TTL 24 h, far beyond any client window) replays the same late retry."),
            {[](ScenarioContext& c, Next next) {
                 c.startExtraServer({QStringLiteral("--key-ttl"), QStringLiteral("1")}, [&c, next](const QUrl& url) {
                     c.setNote(QStringLiteral("short"), url);
                     c.narrate(ScenarioText::tr("second server, --key-ttl 1"), url.toString());
                     next();
                 });
             },
             [key](ScenarioContext& c, Next next) {
                 const QUrl url = c.note(QStringLiteral("short")).toUrl();
                 c.post(
                     kClientA, key, kBook,
                     [&c, next, url](const HttpReply& r) {
                         c.verdict(ScenarioText::tr("TTL 1 s: A: K-ttl"), ScenarioContext::describe(r),
                                   ScenarioText::tr("201, a new order"), created(r), 1, next, url);
                     },
                     url);
             },
             requestStep(ScenarioText::tr("TTL 24 h: A: K-ttl"), kClientA, key, kBook,
                         ScenarioText::tr("201, a new order"), 1, created),
             [](ScenarioContext& c, Next next) {
                 c.narrate(ScenarioText::tr("wait 1.5 s"),
                           ScenarioText::tr("the client is still inside its retry window"));
                 c.after(1500, next);
             },
             [key](ScenarioContext& c, Next next) {
                 const QUrl url = c.note(QStringLiteral("short")).toUrl();
                 c.post(
                     kClientA, key, kBook,
                     [&c, next, url](const HttpReply& r) {
                         c.verdict(ScenarioText::tr("the mistake: TTL 1 s: the late retry, K-ttl"),
                                   ScenarioContext::describe(r), ScenarioText::tr("201 not replayed: a second order"),
                                   created(r), 2, next, url);
                     },
                     url);
             },
             requestStep(ScenarioText::tr("the fix: TTL 24 h: the late retry, K-ttl"), kClientA, key, kBook,
                         ScenarioText::tr("201 replayed, one order"), 1,
                         [](const HttpReply& r) { return replayOf(r, 1); })}};
}

} // namespace onceorder::core::scenarios
