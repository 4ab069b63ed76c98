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

    // The request body of POST /orders: {"cart_id":…,"items":[…]}. Computed once and stored with the key, so a
    // retry sends the same bytes.
    QByteArray toRequestBody() const;

    // A new random cart id (a UUID without braces).
    static QString newCartId();

private:
    QString m_cartId;
    QList<CartLine> m_lines;
};

} // namespace onceorder::core
