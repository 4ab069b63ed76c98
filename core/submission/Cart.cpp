#include "submission/Cart.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

namespace onceorder::core {

Cart::Cart(QString cartId)
    : m_cartId(cartId.isEmpty() ? newCartId() : std::move(cartId))
{
}

void Cart::setQuantity(const QString& product, int quantity)
{
    for (auto it = m_lines.begin(); it != m_lines.end(); ++it) {
        if (it->product == product) {
            if (quantity <= 0) {
                m_lines.erase(it);
            } else {
                it->quantity = quantity;
            }
            return;
        }
    }
    if (quantity > 0) {
        m_lines.append(CartLine {product, quantity});
    }
}

void Cart::add(const QString& product, int quantity)
{
    for (const auto& line : m_lines) {
        if (line.product == product) {
            setQuantity(product, line.quantity + quantity);
            return;
        }
    }
    setQuantity(product, quantity);
}

QString Cart::requestPath() const
{
    return m_paymentMethod.isEmpty() ? QStringLiteral("/orders") : QStringLiteral("/checkout");
}

QByteArray Cart::toRequestBody() const
{
    QJsonArray items;
    for (const auto& line : m_lines) {
        items.append(QJsonObject {{"product", line.product}, {"quantity", line.quantity}});
    }
    QJsonObject body {{"cart_id", m_cartId}, {"items", items}};
    if (!m_paymentMethod.isEmpty()) {
        body.insert("payment_method", m_paymentMethod);
    }
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QString Cart::newCartId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

} // namespace onceorder::core
