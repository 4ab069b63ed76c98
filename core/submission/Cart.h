// Cart: what the user is about to order, and the exact JSON bytes that are sent for it.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace onceorder::core {

struct CartLine
{
    QString product;
    int quantity = 0;
    bool operator==(const CartLine&) const = default;
};

class Cart
{
public:
    explicit Cart(QString cartId = {});

    const QString& cartId() const { return m_cartId; }
    const QList<CartLine>& lines() const { return m_lines; }
    bool isEmpty() const { return m_lines.isEmpty(); }

    // Adds to the line of this product, or appends one; quantity <= 0 removes the line.
    void setQuantity(const QString& product, int quantity);
    void add(const QString& product, int quantity);
    void clear() { m_lines.clear(); }

    // Empty: order now, pay later (POST /orders). Otherwise the server charges this method while placing the order
    // (POST /checkout): the payment gateway sits in the middle of the request.
    const QString& paymentMethod() const { return m_paymentMethod; }
    void setPaymentMethod(const QString& method) { m_paymentMethod = method; }
    // "/orders" or "/checkout".
    QString requestPath() const;

    // The request body: {"cart_id":…,"items":[…]} plus "payment_method" for a checkout. Computed once and stored
    // with the key, so a retry sends the same bytes.
    QByteArray toRequestBody() const;

    // The same lines under a new cart id: after a declined payment the server keeps the cancelled order, so the
    // old id is used up and ordering the lines again is a new cart.
    void renewId() { m_cartId = newCartId(); }

    // A new random cart id (a UUID without braces).
    static QString newCartId();

private:
    QString m_cartId;
    QList<CartLine> m_lines;
    QString m_paymentMethod;
};

} // namespace onceorder::core
