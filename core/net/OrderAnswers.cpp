#include "net/OrderAnswers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace onceorder::core {

namespace {

// An order as the server writes it: a positive integer order_id, and our cart if it names one.
std::optional<qint64> orderIdOf(const QJsonObject& order, const QString& cartId)
{
    const QJsonValue id = order.value(QLatin1String("order_id"));
    // toInteger() gives the fallback for a fraction, a string or anything out of range.
    const qint64 orderId = id.isDouble() ? id.toInteger(0) : 0;
    if (orderId <= 0) {
        return std::nullopt;
    }
    const QJsonValue cart = order.value(QLatin1String("cart_id"));
    if (!cart.isUndefined() && !cart.isNull() && (!cart.isString() || cart.toString() != cartId)) {
        return std::nullopt;
    }
    return orderId;
}

std::optional<QJsonDocument> parsed(const QByteArray& body)
{
    QJsonParseError error {};
    QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || document.isNull()) {
        return std::nullopt;
    }
    return document;
}

} // namespace

std::optional<qint64> placedOrderId(const QByteArray& body, const QString& cartId)
{
    const auto document = parsed(body);
    if (!document || !document->isObject()) {
        return std::nullopt;
    }
    return orderIdOf(document->object(), cartId);
}

bool isProblem(const QByteArray& body)
{
    const auto document = parsed(body);
    const QJsonValue type =
        document && document->isObject() ? document->object().value(QLatin1String("type")) : QJsonValue();
    return type.isString() && !type.toString().isEmpty();
}

std::optional<QList<QJsonObject>> cartOrders(const HttpReply& reply, const QString& cartId)
{
    if (reply.status != 200) {
        return std::nullopt;
    }
    const auto document = parsed(reply.body);
    if (!document || !document->isArray()) {
        return std::nullopt;
    }
    QList<QJsonObject> orders;
    for (const QJsonValue& value : document->array()) {
        if (!value.isObject() || !orderIdOf(value.toObject(), cartId)) {
            return std::nullopt;
        }
        orders.append(value.toObject());
    }
    return orders;
}

} // namespace onceorder::core
