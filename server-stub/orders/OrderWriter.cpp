#include "orders/OrderWriter.h"

#include "support/Problems.h"

#include <stdexcept>

namespace onceorder::server {

OrderWriter::OrderWriter(SqlTx& db, Rules rules)
    : m_db(db)
    , m_rules(rules)
{
}

std::variant<long long, Problem> OrderWriter::write(const std::string& clientId, const std::string& idemKey,
                                                    const OrderCommand& command, const char* status, std::int64_t nowMs)
{
    m_db.exec("SAVEPOINT order_effect"); // on SQLite cached like every statement: parsing it cost more than running

    // The business key is enough on its own: one order per cart, whatever key the retry carries. Its unique index
    // decides: an INSERT that would break it inserts nothing. On PostgreSQL it first waits for an order of the same
    // cart that another transaction (on any instance) is writing right now, and inserts nothing if that one commits.
    // Without the business key (the teaching mode business_key_off) cart_key stays NULL: the partial index then has
    // nothing to compare, and two keys for one cart place two orders.
    const SqlValue cartId = command.cartId ? SqlValue(*command.cartId) : SqlValue(nullptr);
    const bool businessKey = command.cartId && m_rules.businessKey;
    const auto orderId = m_db.insertReturningId("INSERT INTO orders (client_id, cart_id, cart_key, idem_key, status, "
                                                "created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                                {clientId, cartId, businessKey ? cartId : SqlValue(nullptr), idemKey,
                                                 std::string(status), static_cast<long long>(nowMs)});
    if (!orderId) {
        undo();
        if (!businessKey) {
            throw std::logic_error("an order without a business key was not inserted");
        }
        const auto holder =
            m_db.queryOne("SELECT id FROM orders WHERE client_id = ? AND cart_key = ?", {clientId, *command.cartId});
        return problems::cartAlreadyOrdered(*command.cartId, holder ? holder->int64(0) : 0);
    }

    for (const auto& line : command.lines) {
        const auto quantity = static_cast<long long>(line.quantity);
        // A conditional change, never a blind delta: only take stock that is there. On PostgreSQL an order on another
        // instance that holds this row makes the UPDATE wait, and the condition is checked again against what it
        // committed.
        if (m_db.exec("UPDATE products SET stock = stock - ? WHERE id = ? AND stock >= ?",
                      {quantity, line.product, quantity}) != 1) {
            return refuse(problems::outOfStock(line.product, line.quantity));
        }
        m_db.exec("INSERT INTO order_lines (order_id, product_id, quantity) VALUES (?, ?, ?)",
                  {*orderId, line.product, quantity});
    }
    return *orderId;
}

void OrderWriter::keep()
{
    // Nothing to send: the savepoint ends with the caller's transaction (COMMIT, or the RELEASE or ROLLBACK TO of a
    // savepoint the caller set before it, keeps or undoes it with the rest). On PostgreSQL a RELEASE here would be one
    // more round trip while the order holds its products' rows, which every other order of them waits for.
}

void OrderWriter::undo()
{
    m_db.exec("ROLLBACK TO order_effect");
    m_db.exec("RELEASE order_effect");
}

Problem OrderWriter::refuse(Problem problem)
{
    undo();
    return problem;
}

} // namespace onceorder::server
