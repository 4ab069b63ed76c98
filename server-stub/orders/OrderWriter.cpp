#include "orders/OrderWriter.h"

#include "support/Problems.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

namespace onceorder::server {

OrderWriter::OrderWriter(Store::Lease& db, const TeachingModes& modes)
    : m_db(db)
    , m_businessKeyOff(modes.businessKeyOff)
{
}

std::variant<long long, Problem> OrderWriter::write(const std::string& clientId, const std::string& idemKey,
                                                    const OrderCommand& command, const char* status, std::int64_t nowMs)
{
    m_db.statement("SAVEPOINT order_effect")->exec(); // cached like every statement: parsing it cost more than running

    const bool businessKey = command.cartId && !m_businessKeyOff;
    if (businessKey) {
        // The business key is enough on its own: one order per cart, whatever key the retry carries.
        auto existing = m_db.statement("SELECT id FROM orders WHERE client_id = ? AND cart_key = ?");
        existing->bind(1, clientId);
        existing->bind(2, *command.cartId);
        if (existing->executeStep()) {
            return refuse(problems::cartAlreadyOrdered(*command.cartId, existing->getColumn(0).getInt64()));
        }
    }

    auto insertOrder = m_db.statement("INSERT INTO orders (client_id, cart_id, cart_key, idem_key, status, "
                                      "created_at) VALUES (?, ?, ?, ?, ?, ?)");
    insertOrder->bind(1, clientId);
    if (command.cartId) {
        insertOrder->bind(2, *command.cartId);
    }
    if (businessKey) {
        insertOrder->bind(3, *command.cartId);
    }
    insertOrder->bind(4, idemKey);
    insertOrder->bind(5, status);
    insertOrder->bind(6, static_cast<int64_t>(nowMs));
    insertOrder->exec();
    const long long orderId = m_db->getLastInsertRowid();

    auto insertLine = m_db.statement("INSERT INTO order_lines (order_id, product_id, quantity) VALUES (?, ?, ?)");
    // A conditional change, never a blind delta: only take stock that is there.
    auto takeStock = m_db.statement("UPDATE products SET stock = stock - ? WHERE id = ? AND stock >= ?");
    for (const auto& line : command.lines) {
        takeStock->bind(1, line.quantity);
        takeStock->bind(2, line.product);
        takeStock->bind(3, line.quantity);
        if (takeStock->exec() != 1) {
            return refuse(problems::outOfStock(line.product, line.quantity));
        }
        takeStock->reset();
        insertLine->bind(1, static_cast<int64_t>(orderId));
        insertLine->bind(2, line.product);
        insertLine->bind(3, line.quantity);
        insertLine->exec();
        insertLine->reset();
    }
    return orderId;
}

void OrderWriter::keep()
{
    m_db.statement("RELEASE order_effect")->exec();
}

void OrderWriter::undo()
{
    m_db.statement("ROLLBACK TO order_effect")->exec();
    m_db.statement("RELEASE order_effect")->exec();
}

Problem OrderWriter::refuse(Problem problem)
{
    undo();
    return problem;
}

} // namespace onceorder::server
