#include "ServerState.h"

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
    for (const auto& value : root.value(QLatin1String("keys")).toArray()) {
        const QJsonObject object = value.toObject();
        ServerKeyRow key;
        key.clientId = object.value(QLatin1String("client_id")).toString();
        key.key = object.value(QLatin1String("idem_key")).toString();
        key.fingerprint = object.value(QLatin1String("fingerprint")).toString();
        key.status = object.value(QLatin1String("status")).toString();
        key.responseCode = object.value(QLatin1String("response_code")).toInt();
        key.orderId = object.value(QLatin1String("order_id")).toInteger();
        key.createdAt = object.value(QLatin1String("created_at")).toString();
        key.expiresAt = object.value(QLatin1String("expires_at")).toString();
        state.keys.append(key);
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
    const QJsonObject fault = root.value(QLatin1String("fault")).toObject();
    state.fault.fault = fault.value(QLatin1String("fault")).toString(QStringLiteral("none"));
    state.fault.remaining = fault.value(QLatin1String("remaining")).toInt();
    state.fault.delayMs = fault.value(QLatin1String("delay_ms")).toInt();
    state.fault.retryAfter = fault.value(QLatin1String("retry_after")).toInt();
    const QJsonObject modes = root.value(QLatin1String("modes")).toObject();
    state.modes.checkThenInsert = modes.value(QLatin1String("check_then_insert")).toBool();
    state.modes.unscopedKeys = modes.value(QLatin1String("unscoped_keys")).toBool();
    state.modes.storeTransient = modes.value(QLatin1String("store_transient")).toBool();
    state.modes.businessKeyOff = modes.value(QLatin1String("business_key_off")).toBool();
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
