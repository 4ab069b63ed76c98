// OrderAnswers: the documented shapes of the server's order answers, checked before anything is taken from them.
// A proxy's HTML, an empty 204, a body cut short or an order of another cart is not the server speaking about our
// cart: these functions say "nothing learnt" for it, and the engine then treats the outcome as unknown.
#pragma once

#include "net/HttpReply.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace onceorder::core {

// The order id of a 2xx answer to our order POST, if its body is a well-formed order for this cart: a JSON
// object with a positive integer order_id that, if it names a cart_id, names `cartId`. Nothing otherwise.
std::optional<qint64> placedOrderId(const QByteArray& body, const QString& cartId);

// Whether a body is our server's refusal: an application/problem+json object with a non-empty string "type". A
// 4xx page of a proxy or a firewall is not.
bool isProblem(const QByteArray& body);

// GET /orders?cart_id=…: the documented list (a JSON array of orders, each an object with a positive integer
// order_id and, if it names a cart_id, `cartId`) of a 200 answer. Nothing for any other status or shape: an
// answer that does not fit says nothing, in particular not "no order".
std::optional<QList<QJsonObject>> cartOrders(const HttpReply& reply, const QString& cartId);

} // namespace onceorder::core
