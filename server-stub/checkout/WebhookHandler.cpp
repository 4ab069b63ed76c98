#include "checkout/WebhookHandler.h"

#include "checkout/OrderPayments.h"
#include "support/Json.h"
#include "support/Problems.h"
#include "support/Sha256.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

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

bool allDigits(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

WebhookHandler::WebhookHandler(SqlDatabase& database, const std::string& instanceId, const Clock& clock,
                               std::string secret, std::string source)
    : m_database(database)
    , m_clock(clock)
    , m_secret(std::move(secret))
    , m_source(std::move(source))
    , m_referencePrefix("onceorder-" + instanceId + "-checkout-")
{
}

std::string WebhookHandler::checkSignature(const std::string& body, const std::string& header, std::int64_t nowMs) const
{
    std::string_view timestamp;
    std::vector<std::string_view> signatures;
    std::string_view rest(header);
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view part = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        if (part.rfind("t=", 0) == 0) {
            timestamp = part.substr(2);
        } else if (part.rfind("v1=", 0) == 0) {
            signatures.push_back(part.substr(3));
        } // other schemes (v0, a future v2) are not ours to check, as in Stripe's
    }
    if (!allDigits(timestamp) || timestamp.size() > 12 || signatures.empty()) {
        return "no t=… timestamp and v1=… signature";
    }
    const std::string signedText = std::string(timestamp) + "." + body;
    const std::string expected = hmacSha256Hex(m_secret, signedText);
    const bool matches = std::any_of(signatures.begin(), signatures.end(), [&](std::string_view candidate) {
        return constantTimeEquals(candidate, expected);
    });
    if (!matches) {
        return "the signature does not match";
    }
    // Checked only after the signature: the timestamp is signed, so it cannot be moved forward by whoever replays.
    const std::int64_t ageMs = nowMs - std::stoll(std::string(timestamp)) * 1000;
    if (std::llabs(ageMs) > std::chrono::milliseconds(kWebhookTolerance).count()) {
        return "the signature's timestamp is " + std::to_string(ageMs / 1000) + " s from the server's clock";
    }
    return {};
}

OrderResponse WebhookHandler::handle(const std::string& body, const std::string& signatureHeader)
{
    const std::int64_t now = m_clock.nowMs();
    // The signature first: an unsigned body is not read at all.
    if (const std::string wrong = checkSignature(body, signatureHeader, now); !wrong.empty()) {
        return OrderResponse::fromProblem(problems::invalidWebhookSignature(wrong));
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

    auto tx = m_database.write();
    SqlTx& db = *tx;

    std::string effect = "ignored";
    std::optional<long long> orderId;
    bool reaped = false;
    if (isCharge) {
        const auto row = checkoutRowFor(*reference);
        if (row) {
            if (const auto order = db.queryOne("SELECT order_id FROM checkout_keys WHERE id = ?", {*row})) {
                orderId = order->optionalInt64(0);
            } else {
                // Our reference, but no row: ids are never reused (AUTOINCREMENT, an identity), so a row id we have
                // issued is gone because the reaper deleted it, and the reaper deletes only finished rows, whose
                // order is final (the checkout recorded this very charge before it finished). Nothing is left to
                // do, and refusing would make the gateway redeliver for days: acknowledge it as a no-op.
                const auto issued = db.queryOne(db.sqlDialect().lastIssuedId, {std::string("checkout_keys")});
                reaped = issued && !issued->isNull(0) && *row <= issued->int64(0);
            }
        }
        if (!orderId && !reaped) {
            // Not stored: the gateway retries a refused event, and by then the order may exist.
            return OrderResponse::fromProblem(problems::unknownPaymentReference(*reference));
        }
    }

    // PostgreSQL: a redelivery that arrives at another instance at the same moment waits here for this
    // transaction, then inserts nothing and is answered as a duplicate.
    if (db.exec("INSERT INTO webhook_events (source, event_id, type, charge_id, effect, received_at) "
                "VALUES (?, ?, ?, ?, 'pending', ?) ON CONFLICT (source, event_id) DO NOTHING",
                {m_source, *id, *type, chargeId ? SqlValue(*chargeId) : SqlValue(nullptr),
                 static_cast<long long>(now)}) != 1) {
        const auto first =
            db.queryOne("SELECT type FROM webhook_events WHERE source = ? AND event_id = ?", {m_source, *id});
        if (first && first->text(0) != *type) {
            // Not a redelivery: a redelivery is the same event. Refused, so that it is looked into, not swallowed.
            return invalid("event " + *id + " was first received as " + first->text(0) + ", now as " + *type);
        }
        return accepted(*id, "duplicate");
    }
    if (orderId) {
        const auto cents = static_cast<long long>(std::get<double>(amount->value));
        recordPayment(db, *chargeId, *orderId, cents, "webhook", now);
        effect = changeOrderStatus(db, *orderId, "pending", "paid", "webhook " + *id, now) ? "applied" : "no-change";
    } else if (reaped) {
        effect = "no-change";
        std::fprintf(stderr, "webhook %s: the checkout %s was reaped after it finished; nothing to do\n", id->c_str(),
                     reference->c_str());
    }
    db.exec("UPDATE webhook_events SET effect = ? WHERE source = ? AND event_id = ?", {effect, m_source, *id});
    tx->commit();
    return accepted(*id, effect);
}

int WebhookHandler::pruneEvents(std::int64_t nowMs, int batch)
{
    auto tx = m_database.write();
    // SKIP LOCKED (PostgreSQL): pruners on several instances delete different rows instead of queueing on the same.
    const std::string row(tx->sqlDialect().rowLocator);
    const auto pruned = tx->exec(
        "DELETE FROM webhook_events WHERE " + row + " IN (" +
            tx->forUpdateSkipLocked("SELECT " + row + " FROM webhook_events WHERE received_at <= ? LIMIT ?") + ")",
        {static_cast<long long>(nowMs - std::chrono::milliseconds(kWebhookRetention).count()),
         static_cast<long long>(batch)});
    tx->commit();
    return static_cast<int>(pruned);
}

std::optional<long long> WebhookHandler::checkoutRowFor(const std::string& reference) const
{
    if (reference.rfind(m_referencePrefix, 0) != 0) {
        return std::nullopt;
    }
    const std::string digits = reference.substr(m_referencePrefix.size());
    if (digits.size() > 18 || !allDigits(digits)) {
        return std::nullopt;
    }
    return std::stoll(digits);
}

} // namespace onceorder::server
