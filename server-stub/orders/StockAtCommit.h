// StockAtCommit: the stock of a batch's plain new orders, taken for all of them in one conditional UPDATE just before
// the batch's COMMIT (SqlDialect::takeStockAtOnce), so that a product's row is held from there to the COMMIT only,
// not while the rest of the batch is written: the next batch (another instance's) writes its key rows and orders
// meanwhile. OrderService adds each order's lines to the pass's one StockAtCommit (WriteBatcher::AtCommits); the
// batcher runs it without knowing what it takes. If the UPDATE falls short of any product, nothing of the pass is
// kept and the batch runs again with each order taking its own stock.
#pragma once

#include "orders/OrderCommand.h"
#include "storage/WriteBatcher.h"

#include <functional>
#include <map>
#include <string>

namespace onceorder::server {

class StockAtCommit final : public WriteBatcher::AtCommit
{
public:
    // The stock the order's lines take, added to the batch's sum per product.
    void add(const OrderCommand& command);
    // The sum taken in one statement (nothing if no order added any): false if any product had too little.
    bool run(SqlTx& tx) override;

private:
    std::map<std::string, long long, std::less<>> m_quantities; // per product id
};

} // namespace onceorder::server
