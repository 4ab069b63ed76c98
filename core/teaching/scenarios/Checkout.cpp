// The payment gateway in the middle (POST /checkout as atomic phases with recovery points) and its webhooks,
// delivered at least once.
#include "teaching/scenarios/ScenarioSteps.h"
#include "teaching/scenarios/Scenarios.h"

#include <QJsonArray>
#include <QJsonObject>

#include <memory>
#include <optional>

namespace onceorder::core::scenarios {

namespace {

const QByteArray kPayBook = R"({"product":"kniha","quantity":1,"payment_method":"card"})";
const QByteArray kPayMug = R"({"product":"hrnek","quantity":1,"payment_method":"card"})";
const QByteArray kPayCart = R"({"cart_id":"cart-d","product":"propiska","quantity":2,"payment_method":"card"})";

// The state once `settled` holds, or as it is after `triesLeft` looks 100 ms apart: the gateway delivers its
// webhooks from a thread of its own, after the checkout has answered, so the database settles a moment later.
void stateOnceSettled(ScenarioContext& c, std::function<bool(const QJsonObject&)> settled, int triesLeft,
                      std::function<void(const QJsonObject&)> done)
{
    c.state([&c, settled, triesLeft, done](const QJsonObject& state) {
        if (settled(state) || triesLeft <= 1) {
            done(state);
            return;
        }
        c.after(100, [&c, settled, triesLeft, done] { stateOnceSettled(c, settled, triesLeft - 1, done); });
    });
}

// Adds a row judged on the reply and on the database (orders, charges, payments) once it holds what is expected,
// or as it is after 5 s.
void paymentVerdict(ScenarioContext& c, const QString& step, const HttpReply& reply, const QString& expected, bool ok,
                    std::function<bool(const PaymentCounts&)> countsOk, Next next)
{
    stateOnceSettled(
        c, [countsOk](const QJsonObject& state) { return countsOk(PaymentCounts(state)); }, 50,
        [&c, step, reply, expected, ok, countsOk, next](const QJsonObject& state) {
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

} // namespace

namespace {

// Calls `done` once GET /_debug/state shows the checkout under `key` at the gateway: its order phase committed and
// the row still locked by the request. An event, not a guessed head start: however slow the machine, the duplicate
// is sent while the first request holds the lock. `firstAnswered` ends the wait (then the chance is gone).
void whenAtTheGateway(ScenarioContext& c, const QString& key, std::function<bool()> firstAnswered,
                      std::function<void()> done, int triesLeft = 1000)
{
    c.state([&c, key, firstAnswered, done, triesLeft](const QJsonObject& state) {
        for (const auto& value : state.value(QStringLiteral("checkout_keys")).toArray()) {
            const QJsonObject row = value.toObject();
            if (row.value(QStringLiteral("idem_key")).toString() == key &&
                row.value(QStringLiteral("recovery_point")).toString() == u"order_created" &&
                row.value(QStringLiteral("locked")).toBool()) {
                done();
                return;
            }
        }
        if (firstAnswered() || triesLeft <= 1) {
            done(); // too late: the verdict row will say what happened
            return;
        }
        c.after(10, [&c, key, firstAnswered, done, triesLeft] {
            whenAtTheGateway(c, key, firstAnswered, done, triesLeft - 1);
        });
    });
}

} // namespace

Scenario paymentGateway()
{
    return {
        QStringLiteral("payment-gateway"),
        ScenarioText::tr("A payment gateway in the middle"),
        ScenarioText::tr(
            "One transaction cannot span a call to a payment gateway, so POST /checkout runs as atomic phases, "
            "each committing a recovery point. While the first request waits for a slow gateway, a retry with "
            "the same key is told 409 request-in-progress instead of paying twice. When the server dies after "
            "the gateway charged but before our phase committed, the retry resumes from the recovery point and "
            "the gateway, asked again under the same key, returns the charge it already made: one order, one "
            "charge."),
        {debugStep(QStringLiteral("faults"), R"({"fault":"gateway-slow","delay_ms":1000})",
                   ScenarioText::tr("the gateway answers after 1 s")),
         [](ScenarioContext& c, Next next) {
             auto first = std::make_shared<std::optional<HttpReply>>();
             auto second = std::make_shared<std::optional<HttpReply>>();
             auto both = [&c, first, second, next] {
                 if (!*first || !*second) {
                     return;
                 }
                 const HttpReply& dup = **second;
                 c.addRow({ScenarioText::tr("A: the same checkout again, 0.3 s later"), ScenarioContext::describe(dup),
                           -1, ScenarioText::tr("409 request-in-progress with Retry-After"),
                           verdicts::toldInProgress(dup)});
                 paymentVerdict(c, ScenarioText::tr("A: POST /checkout, pay-1, kniha × 1 (slow gateway)"), **first,
                                ScenarioText::tr("201 paid; one order, one charge"), created(**first),
                                verdicts::oneOrderOneCharge, next);
             };
             c.checkout(kClientA, QStringLiteral("pay-1"), kPayBook, [first, both](const HttpReply& r) {
                 *first = r;
                 both();
             });
             whenAtTheGateway(
                 c, QStringLiteral("pay-1"), [first] { return first->has_value(); },
                 [&c, second, both] {
                     c.checkout(kClientA, QStringLiteral("pay-1"), kPayBook, [second, both](const HttpReply& r) {
                         *second = r;
                         both();
                     });
                 });
         },
         debugStep(QStringLiteral("faults"), R"({"fault":"crash-after-charge"})",
                   ScenarioText::tr("the server dies after the next charge, before phase 2 commits")),
         [](ScenarioContext& c, Next next) {
             c.checkout(kClientA, QStringLiteral("pay-2"), kPayMug, [&c, next](const HttpReply& r) {
                 c.addRow({ScenarioText::tr("A: POST /checkout, pay-2, hrnek × 1"), ScenarioContext::describe(r), -1,
                           ScenarioText::tr("no answer: the server died between the phases"), r.status == 0});
                 next();
             });
         },
         [](ScenarioContext& c, Next next) {
             checkoutUntilAnswered(c, QStringLiteral("pay-2"), kPayMug, 50, [&c, next](const HttpReply& r) {
                 paymentVerdict(c, ScenarioText::tr("A: retry pay-2 after the restart"), r,
                                ScenarioText::tr("201 paid, resumed at the recovery point; 2 orders, 2 charges in all"),
                                r.status == 201, verdicts::twoOrdersTwoCharges, next);
             });
         }}};
}

Scenario webhooks()
{
    return {QStringLiteral("webhooks"),
            ScenarioText::tr("A webhook delivered twice; two events for one change"),
            ScenarioText::tr(
                "Gateways deliver webhooks at least once: the same event may come twice, and one change may be "
                "reported by two events with different ids. The server records each event id first (a repeated id "
                "is a duplicate and does nothing) and makes the effect idempotent on the data (one payment per "
                "charge, pending → paid only once), so the order is paid once either way."),
            {debugStep(QStringLiteral("faults"), R"({"fault":"webhook-duplicate"})",
                       ScenarioText::tr("the gateway will deliver the next event twice, same id")),
             [](ScenarioContext& c, Next next) {
                 c.checkout(kClientA, QStringLiteral("pay-w1"), kPayBook, [&c, next](const HttpReply& r) {
                     paymentVerdict(c, ScenarioText::tr("A: POST /checkout, pay-w1 (event delivered twice)"), r,
                                    ScenarioText::tr("201 paid; one event row, one payment"), created(r),
                                    verdicts::oneEventOnePayment, next);
                 });
             },
             debugStep(QStringLiteral("faults"), R"({"fault":"webhook-twin"})",
                       ScenarioText::tr("the gateway will send two events with different ids for the next charge")),
             [](ScenarioContext& c, Next next) {
                 c.checkout(kClientA, QStringLiteral("pay-w2"), kPayMug, [&c, next](const HttpReply& r) {
                     paymentVerdict(c, ScenarioText::tr("A: POST /checkout, pay-w2 (twin events)"), r,
                                    ScenarioText::tr("201 paid; the twin changes nothing: 2 orders, 2 payments"),
                                    created(r), verdicts::twinChangesNothing, next);
                 });
             }}};
}

Scenario webhookRedelivered()
{
    return {QStringLiteral("webhook-redelivered"),
            ScenarioText::tr("A lost acknowledgement: the gateway delivers the webhook again"),
            ScenarioText::tr(
                "A gateway knows a webhook arrived only from the 200 it gets back. When that answer is lost, it "
                "delivers the same event again later, with backoff, for days if need be, and keeps its schedule on "
                "disk so a restart does not forget it. Each delivery is signed afresh with a timestamp, so an old "
                "body replayed by someone else is refused. The server remembers the event by its sender and id: the "
                "redelivery is answered 200 duplicate and changes nothing."),
            {debugStep(QStringLiteral("faults"), R"({"fault":"webhook-ack-lost"})",
                       ScenarioText::tr("the 200 for the next webhook will be lost on its way back to the gateway")),
             [](ScenarioContext& c, Next next) {
                 c.checkout(kClientA, QStringLiteral("pay-r1"), kPayBook, [&c, next](const HttpReply& r) {
                     const auto webhooks = [](const QJsonObject& state) {
                         return state.value(QStringLiteral("gateway"))
                             .toObject()
                             .value(QStringLiteral("webhooks"))
                             .toObject();
                     };
                     stateOnceSettled(
                         c,
                         [webhooks](const QJsonObject& state) {
                             return webhooks(state).value(QStringLiteral("acknowledged")).toInt() == 1;
                         },
                         80,
                         [&c, r, webhooks, next](const QJsonObject& state) {
                             const PaymentCounts counts(state);
                             const QJsonObject outbox = webhooks(state);
                             const int attempts = outbox.value(QStringLiteral("attempts")).toInt();
                             const int acknowledged = outbox.value(QStringLiteral("acknowledged")).toInt();
                             c.addRow({ScenarioText::tr("A: POST /checkout, pay-r1 (the webhook's 200 is lost)"),
                                       ScenarioContext::describe(r) +
                                           ScenarioText::tr("; gateway: %1 delivery attempts, %2 acknowledged; ")
                                               .arg(attempts)
                                               .arg(acknowledged) +
                                           counts.text(),
                                       counts.orders,
                                       ScenarioText::tr("201 paid; the event delivered twice, acknowledged the second "
                                                        "time; applied once: 1 event row, 1 payment"),
                                       verdicts::redeliveredAppliedOnce(r, attempts, acknowledged, counts)});
                             next();
                         });
                 });
             }}};
}

Scenario declinedCartPaidAgain()
{
    return {QStringLiteral("declined-cart"),
            ScenarioText::tr("Paying a declined cart again"),
            ScenarioText::tr(
                "A declined card is a definitive answer for its key: the order is cancelled (payment_failed), the "
                "stock goes back, and the 402 is stored and replayed. But the cart is not used up: the failed order "
                "lets go of it in the same transaction, so the customer pays for the same cart again under a new "
                "key, and the business key (one order per cart) still holds for orders that stand."),
            {debugStep(QStringLiteral("faults"), R"({"fault":"gateway-decline"})",
                       ScenarioText::tr("the gateway declines the next card")),
             [](ScenarioContext& c, Next next) {
                 c.checkout(kClientA, QStringLiteral("pay-d1"), kPayCart, [&c, next](const HttpReply& r) {
                     c.addRow({ScenarioText::tr("A: POST /checkout, pay-d1, cart-d (declined)"),
                               ScenarioContext::describe(r), ScenarioContext::orderIdOf(r) > 0 ? 1 : -1,
                               ScenarioText::tr("402 payment-declined, stored"),
                               verdicts::problem(r, 402, QStringLiteral("payment-declined"))});
                     next();
                 });
             },
             [](ScenarioContext& c, Next next) {
                 c.checkout(kClientA, QStringLiteral("pay-d2"), kPayCart, [&c, next](const HttpReply& r) {
                     paymentVerdict(
                         c, ScenarioText::tr("A: POST /checkout, pay-d2, the same cart-d, another card"), r,
                         ScenarioText::tr("201 paid; the cart has one paid order, the declined one is payment_failed"),
                         created(r), verdicts::declinedThenPaid, next);
                 });
             },
             [](ScenarioContext& c, Next next) {
                 c.checkout(kClientA, QStringLiteral("pay-d3"), kPayCart, [&c, next](const HttpReply& r) {
                     paymentVerdict(
                         c, ScenarioText::tr("A: POST /checkout, pay-d3, the same cart-d once more"), r,
                         ScenarioText::tr("422 cart-already-ordered: the paid order holds the cart; still 2 orders"),
                         verdicts::problem(r, 422, QStringLiteral("cart-already-ordered")),
                         verdicts::paidOrderHoldsTheCart, next);
                 });
             }}};
}

} // namespace onceorder::core::scenarios
