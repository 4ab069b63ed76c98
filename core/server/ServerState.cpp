#include "server/ServerState.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace onceorder::core {

namespace {

ServerOrderRow orderFrom(const QJsonObject& object)
{
    ServerOrderRow order;
    order.orderId = object.value(QLatin1String("order_id")).toInteger();
    order.status = object.value(QLatin1String("status")).toString();
    order.cartId = object.value(QLatin1String("cart_id")).toString();
    order.clientId = object.value(QLatin1String("client_id")).toString();
    order.idempotencyKey = object.value(QLatin1String("idem_key")).toString();
    order.createdAt = object.value(QLatin1String("created_at")).toString();
    QStringList items;
    for (const auto& item : object.value(QLatin1String("items")).toArray()) {
        const QJsonObject line = item.toObject();
        items.append(QStringLiteral("%1 × %2")
                         .arg(line.value(QLatin1String("product")).toString())
                         .arg(line.value(QLatin1String("quantity")).toInteger()));
    }
    order.items = items.join(QStringLiteral(", "));
    return order;
}

ServerFault faultFrom(const QJsonObject& object)
{
    ServerFault fault;
    fault.fault = object.value(QLatin1String("fault")).toString(QStringLiteral("none"));
    fault.remaining = object.value(QLatin1String("remaining")).toInt();
    fault.delayMs = object.value(QLatin1String("delay_ms")).toInt();
    fault.retryAfter = object.value(QLatin1String("retry_after")).toInt();
    return fault;
}

ServerKeyRow keyFrom(const QJsonObject& object)
{
    ServerKeyRow key;
    key.clientId = object.value(QLatin1String("client_id")).toString();
    key.key = object.value(QLatin1String("idem_key")).toString();
    key.fingerprint = object.value(QLatin1String("fingerprint")).toString();
    key.status = object.value(QLatin1String("status")).toString();
    key.responseCode = object.value(QLatin1String("response_code")).toInt();
    key.orderId = object.value(QLatin1String("order_id")).toInteger();
    key.createdAt = object.value(QLatin1String("created_at")).toString();
    key.expiresAt = object.value(QLatin1String("expires_at")).toString();
    return key;
}

ServerCheckoutKeyRow checkoutKeyFrom(const QJsonObject& object)
{
    ServerCheckoutKeyRow key;
    key.id = object.value(QLatin1String("id")).toInteger();
    key.clientId = object.value(QLatin1String("client_id")).toString();
    key.key = object.value(QLatin1String("idem_key")).toString();
    key.recoveryPoint = object.value(QLatin1String("recovery_point")).toString();
    key.orderId = object.value(QLatin1String("order_id")).toInteger();
    key.chargeId = object.value(QLatin1String("charge_id")).toString();
    key.responseCode = object.value(QLatin1String("response_code")).toInt();
    key.locked = object.value(QLatin1String("locked")).toBool();
    return key;
}

ServerWaitingRow waitingFrom(const QJsonObject& object)
{
    ServerWaitingRow row;
    row.pid = object.value(QLatin1String("pid")).toInteger();
    row.lock = object.value(QLatin1String("lock")).toString();
    row.query = object.value(QLatin1String("query")).toString();
    row.waitingMs = object.value(QLatin1String("waiting_ms")).toInteger();
    for (const auto& pid : object.value(QLatin1String("blocked_by")).toArray()) {
        row.blockedBy.append(pid.toInteger());
    }
    return row;
}

// The gateway's charges, each with who recorded its payment on our side.
QList<ServerChargeRow> chargesFrom(const QJsonObject& root)
{
    QList<ServerChargeRow> charges;
    QHash<QString, QString> recordedBy; // charge id → who recorded the payment on our side
    for (const auto& value : root.value(QLatin1String("payments")).toArray()) {
        const QJsonObject object = value.toObject();
        recordedBy.insert(object.value(QLatin1String("charge_id")).toString(),
                          object.value(QLatin1String("source")).toString());
    }
    const QJsonObject gateway = root.value(QLatin1String("gateway")).toObject();
    for (const auto& value : gateway.value(QLatin1String("charges")).toArray()) {
        const QJsonObject object = value.toObject();
        ServerChargeRow charge;
        charge.chargeId = object.value(QLatin1String("charge_id")).toString();
        charge.gatewayKey = object.value(QLatin1String("idempotency_key")).toString();
        charge.amountCents = object.value(QLatin1String("amount")).toInteger();
        charge.method = object.value(QLatin1String("method")).toString();
        charge.outcome = object.value(QLatin1String("outcome")).toString();
        charge.recordedBy = recordedBy.value(charge.chargeId);
        charges.append(charge);
    }
    return charges;
}

} // namespace

std::optional<ServerState> ServerState::fromJson(const QByteArray& json)
{
    const QJsonDocument document = QJsonDocument::fromJson(json);
    if (!document.isObject()) {
        return std::nullopt;
    }
    const QJsonObject root = document.object();
    if (!root.value(QLatin1String("keys")).isArray() || !root.value(QLatin1String("orders")).isArray()) {
        return std::nullopt;
    }
    ServerState state;
    state.database = root.value(QLatin1String("database")).toString();
    for (const auto& value : root.value(QLatin1String("keys")).toArray()) {
        state.keys.append(keyFrom(value.toObject()));
    }
    for (const auto& value : root.value(QLatin1String("orders")).toArray()) {
        state.orders.append(orderFrom(value.toObject()));
    }
    for (const auto& value : root.value(QLatin1String("products")).toArray()) {
        const QJsonObject object = value.toObject();
        state.stock.append(ServerStockRow {object.value(QLatin1String("id")).toString(),
                                           object.value(QLatin1String("name")).toString(),
                                           object.value(QLatin1String("stock")).toInteger()});
    }
    // Servers before "totals" sent every row: then the lists are the totals.
    const QJsonObject totals = root.value(QLatin1String("totals")).toObject();
    const auto total = [&totals](const char* name, qsizetype listed) {
        return totals.value(QLatin1String(name)).toInteger(listed);
    };
    state.totalKeys = total("keys", state.keys.size());
    state.totalOrders = total("orders", state.orders.size());
    state.fault = faultFrom(root.value(QLatin1String("fault")).toObject());
    state.checkoutFault = faultFrom(root.value(QLatin1String("checkout_fault")).toObject());
    state.gatewayFault = faultFrom(root.value(QLatin1String("gateway_fault")).toObject());
    for (const auto& value : root.value(QLatin1String("checkout_keys")).toArray()) {
        state.checkoutKeys.append(checkoutKeyFrom(value.toObject()));
    }
    state.charges = chargesFrom(root);
    for (const auto& value : root.value(QLatin1String("webhook_events")).toArray()) {
        const QJsonObject object = value.toObject();
        state.webhooks.append(ServerWebhookRow {object.value(QLatin1String("event_id")).toString(),
                                                object.value(QLatin1String("type")).toString(),
                                                object.value(QLatin1String("effect")).toString()});
    }
    for (const auto& value : root.value(QLatin1String("waiting")).toArray()) {
        state.waiting.append(waitingFrom(value.toObject()));
    }
    const QJsonObject modes = root.value(QLatin1String("modes")).toObject();
    state.modes.checkThenInsert = modes.value(QLatin1String("check_then_insert")).toBool();
    state.modes.unscopedKeys = modes.value(QLatin1String("unscoped_keys")).toBool();
    state.modes.storeTransient = modes.value(QLatin1String("store_transient")).toBool();
    state.modes.businessKeyOff = modes.value(QLatin1String("business_key_off")).toBool();
    state.totalCheckoutKeys = total("checkout_keys", state.checkoutKeys.size());
    state.totalCharges = total("gateway_charges", state.charges.size());
    state.totalWebhooks = total("webhook_events", state.webhooks.size());
    return state;
}

QList<ServerOrderRow> ServerState::ordersFromJson(const QByteArray& json)
{
    QList<ServerOrderRow> orders;
    for (const auto& value : QJsonDocument::fromJson(json).array()) {
        orders.append(orderFrom(value.toObject()));
    }
    return orders;
}

} // namespace onceorder::core
