#include "net/OrderAnswers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSet>

#include <optional>

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

// Whether a JSON text (already parsed without error) names one member twice in one object. QJsonDocument keeps the
// last value of a repeated member ({"order_id":1,…,"order_id":999} is order 999), where our server's reader refuses
// the text: an answer that means two things is no answer.
bool hasRepeatedMember(const QByteArray& text)
{
    QList<std::optional<QSet<QString>>> levels; // one per open object (its names so far) or array (nothing)
    const qsizetype size = text.size();
    qsizetype i = 0;
    while (i < size) {
        const char c = text.at(i);
        if (c == '{') {
            levels.append(QSet<QString>());
        } else if (c == '[') {
            levels.append(std::nullopt);
        } else if ((c == '}' || c == ']') && !levels.isEmpty()) {
            levels.removeLast();
        } else if (c == '"') {
            const qsizetype start = i++;
            bool escaped = false;
            while (i < size && text.at(i) != '"') {
                escaped = escaped || text.at(i) == '\\';
                i += text.at(i) == '\\' ? 2 : 1;
            }
            const qsizetype end = i + 1; // after the closing quote
            qsizetype next = end;
            while (next < size && QChar::isSpace(static_cast<uchar>(text.at(next)))) {
                ++next;
            }
            if (next < size && text.at(next) == ':' && !levels.isEmpty() && levels.last()) {
                // A member name: compared as the text it stands for ("order\u005fid" is "order_id").
                const QByteArray quoted = text.mid(start, end - start);
                const QString name = escaped ? QJsonDocument::fromJson("[" + quoted + "]").array().at(0).toString()
                                             : QString::fromUtf8(quoted.mid(1, quoted.size() - 2));
                if (levels.last()->contains(name)) {
                    return true;
                }
                levels.last()->insert(name);
            }
            i = end;
            continue;
        }
        ++i;
    }
    return false;
}

std::optional<QJsonDocument> parsed(const QByteArray& body)
{
    QJsonParseError error {};
    QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || document.isNull() || hasRepeatedMember(body)) {
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
