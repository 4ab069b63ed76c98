#include "checkout/WebhookHandler.h"

#include "checkout/OrderPayments.h"
#include "storage/WriteTransaction.h"
#include "support/Json.h"
#include "support/Problems.h"
#include "support/Sha256.h"

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <cmath>

namespace onceorder::server {

namespace {

OrderResponse invalid(std::string detail)
{
    return OrderResponse::fromProblem(problems::invalidWebhook(std::move(detail)));
}

OrderResponse accepted(const std::string& eventId, const std::string& result)
{
    OrderResponse response;
    response.status = 200;
    response.body = JsonObjectWriter().str("event_id", eventId).str("result", result).finish();
    response.outcome = "webhook-" + result;
    return response;
}

const std::string* stringMember(const JsonValue& root, std::string_view name)
{
    const JsonValue* member = root.member(name);
    const std::string* text = member ? std::get_if<std::string>(&member->value) : nullptr;
    const bool fine = text && !text->empty() && text->size() <= 255 &&
        std::all_of(text->begin(), text->end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
    return fine ? text : nullptr;
}

} // namespace

WebhookHandler::WebhookHandler(Store& store, const Clock& clock, std::string secret)
    : m_store(store)
    , m_clock(clock)
    , m_secret(std::move(secret))
    , m_referencePrefix("onceorder-" + store.instanceId() + "-checkout-")
{
}

OrderResponse WebhookHandler::handle(const std::string& body, const std::string& signatureHeader)
{
    // The signature first: an unsigned body is not read at all.
    if (!constantTimeEquals(signatureHeader, "sha256=" + hmacSha256Hex(m_secret, body))) {
        return OrderResponse::fromProblem(problems::invalidWebhookSignature());
    }
    auto parsed = parseJson(body);
    if (!std::holds_alternative<JsonValue>(parsed) || !std::get<JsonValue>(parsed).isObject()) {
        return invalid("the event must be a JSON object");
    }
    const JsonValue& event = std::get<JsonValue>(parsed);
    const std::string* id = stringMember(event, "id");
    const std::string* type = stringMember(event, "type");
    if (!id || !type) {
        return invalid("the event needs string members \"id\" and \"type\"");
    }
    const std::string* chargeId = stringMember(event, "charge_id");
    const std::string* reference = stringMember(event, "reference");
    const JsonValue* amount = event.member("amount");
    const bool isCharge = *type == "charge.succeeded";
    if (isCharge &&
        (!chargeId || !reference || !amount || !amount->isNumber() ||
         std::get<double>(amount->value) != std::floor(std::get<double>(amount->value)) ||
         std::get<double>(amount->value) < 0 || std::get<double>(amount->value) > 1e15)) {
        return invalid("a charge.succeeded event needs \"charge_id\", \"reference\" and a whole \"amount\"");
    }

    const std::int64_t now = m_clock.nowMs();
    WriteTransaction tx(m_store);
    Store::Lease& db = tx.db();

    std::string effect = "ignored";
    std::optional<long long> orderId;
    if (isCharge) {
        const auto row = checkoutRowFor(*reference);
        if (row) {
            auto order = db.statement("SELECT order_id FROM checkout_keys WHERE id = ?");
            order->bind(1, static_cast<int64_t>(*row));
            if (order->executeStep() && !order->getColumn(0).isNull()) {
                orderId = order->getColumn(0).getInt64();
            }
        }
        if (!orderId) {
            // Not stored: the gateway retries a refused event, and by then the order may exist.
            return OrderResponse::fromProblem(problems::unknownPaymentReference(*reference));
        }
    }

    auto remember = db.statement("INSERT INTO webhook_events (event_id, type, charge_id, effect, received_at) "
                                 "VALUES (?, ?, ?, 'pending', ?) ON CONFLICT (event_id) DO NOTHING");
    remember->bind(1, *id);
    remember->bind(2, *type);
    if (chargeId) {
        remember->bind(3, *chargeId);
    }
    remember->bind(4, static_cast<int64_t>(now));
    if (remember->exec() != 1) {
        return accepted(*id, "duplicate");
    }
    if (orderId) {
        const auto cents = static_cast<long long>(std::get<double>(amount->value));
        recordPayment(db, *chargeId, *orderId, cents, "webhook", now);
        effect = changeOrderStatus(db, *orderId, "pending", "paid", "webhook " + *id, now) ? "applied" : "no-change";
    }
    auto settle = db.statement("UPDATE webhook_events SET effect = ? WHERE event_id = ?");
    settle->bind(1, effect);
    settle->bind(2, *id);
    settle->exec();
    tx.commit();
    return accepted(*id, effect);
}

std::optional<long long> WebhookHandler::checkoutRowFor(const std::string& reference) const
{
    if (reference.rfind(m_referencePrefix, 0) != 0) {
        return std::nullopt;
    }
    const std::string digits = reference.substr(m_referencePrefix.size());
    if (digits.empty() || digits.size() > 18 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    return std::stoll(digits);
}

} // namespace onceorder::server
