#include "orders/StockAtCommit.h"

#include "support/Json.h"

namespace onceorder::server {

void StockAtCommit::add(const OrderCommand& command)
{
    for (const auto& line : command.lines) {
        m_quantities[line.product] += line.quantity;
    }
}

bool StockAtCommit::run(SqlTx& tx)
{
    if (m_quantities.empty()) {
        return true;
    }
    std::string items = "[";
    for (const auto& [product, quantity] : m_quantities) {
        items += (items.size() > 1 ? "," : "") +
            JsonObjectWriter().str("product", product).num("quantity", quantity).finish();
    }
    items += "]";
    return tx.exec(tx.sqlDialect().takeStockAtOnce.value(), {items}) == static_cast<long long>(m_quantities.size());
}

} // namespace onceorder::server
