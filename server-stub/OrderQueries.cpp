#include "OrderQueries.h"

#include "Json.h"
#include "OrderService.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <mutex>

namespace onceorder::server {

namespace {

std::string linesJson(Store::Lease& db, long long orderId)
{
    auto lines = db.statement("SELECT product_id, quantity FROM order_lines WHERE order_id = ? ORDER BY product_id");
    lines->bind(1, static_cast<int64_t>(orderId));
    std::string items = "[";
    while (lines->executeStep()) {
        if (items.size() > 1) {
            items += ',';
        }
        items += JsonObjectWriter()
                     .str("product", lines->getColumn(0).getString())
                     .num("quantity", lines->getColumn(1).getInt())
                     .finish();
    }
    return items + "]";
}

// Columns: id, status, cart_id, created_at.
std::string orderFromRow(Store::Lease& db, SQLite::Statement& row)
{
    const long long id = row.getColumn(0).getInt64();
    JsonObjectWriter order;
    order.num("order_id", id).str("status", row.getColumn(1).getString());
    if (!row.getColumn(2).isNull()) {
        order.str("cart_id", row.getColumn(2).getString());
    }
    return order.raw("items", linesJson(db, id)).str("created_at", isoTime(row.getColumn(3).getInt64())).finish();
}

template<typename Fn>
std::string jsonArray(SQLite::Statement& rows, Fn&& each)
{
    std::string out = "[";
    while (rows.executeStep()) {
        if (out.size() > 1) {
            out += ',';
        }
        out += each(rows);
    }
    return out + "]";
}

} // namespace

OrderQueries::OrderQueries(Store& store)
    : m_store(store)
{
}

std::optional<std::string> OrderQueries::orderJson(const std::string& clientId, long long orderId)
{
    auto db = m_store.lease();
    auto row = db.statement("SELECT id, status, cart_id, created_at FROM orders WHERE id = ? AND client_id = ?");
    row->bind(1, static_cast<int64_t>(orderId));
    row->bind(2, clientId);
    if (!row->executeStep()) {
        return std::nullopt;
    }
    return orderFromRow(db, *row);
}

std::string OrderQueries::ordersJson(const std::string& clientId, const std::optional<std::string>& cartId)
{
    auto db = m_store.lease();
    SQLite::Transaction snapshot(*db); // one consistent read of orders and their lines
    auto rows = db.statement("SELECT id, status, cart_id, created_at FROM orders WHERE client_id = ? "
                             "AND (? IS NULL OR cart_id = ?) ORDER BY id DESC");
    rows->bind(1, clientId);
    if (cartId) {
        rows->bind(2, *cartId);
        rows->bind(3, *cartId);
    }
    return jsonArray(*rows, [&](SQLite::Statement& row) { return orderFromRow(db, row); });
}

std::string OrderQueries::productsJson()
{
    auto db = m_store.lease();
    return productsOn(db);
}

std::string OrderQueries::productsOn(Store::Lease& db)
{
    auto rows = db.statement("SELECT id, name, stock FROM products ORDER BY id");
    return jsonArray(*rows, [](SQLite::Statement& row) {
        return JsonObjectWriter()
            .str("id", row.getColumn(0).getString())
            .str("name", row.getColumn(1).getString())
            .num("stock", row.getColumn(2).getInt64())
            .finish();
    });
}

bool OrderQueries::setStock(const std::string& productId, int stock)
{
    auto db = m_store.lease();
    std::lock_guard writer(m_store.writerLock());
    auto update = db.statement("UPDATE products SET stock = ? WHERE id = ?");
    update->bind(1, stock);
    update->bind(2, productId);
    return update->exec() == 1;
}

std::string OrderQueries::debugStateJson(const Faults& faults)
{
    auto db = m_store.lease();
    SQLite::Transaction snapshot(*db);
    auto keys = db.statement("SELECT client_id, idem_key, fingerprint, status, response_code, order_id, "
                             "created_at, expires_at FROM idempotency_keys ORDER BY created_at, rowid");
    const std::string keysJson = jsonArray(*keys, [](SQLite::Statement& row) {
        JsonObjectWriter key;
        key.str("client_id", row.getColumn(0).getString())
            .str("idem_key", row.getColumn(1).getString())
            .str("fingerprint", row.getColumn(2).getString())
            .str("status", row.getColumn(3).getString());
        key.raw("response_code", row.getColumn(4).isNull() ? "null" : std::to_string(row.getColumn(4).getInt()));
        key.raw("order_id", row.getColumn(5).isNull() ? "null" : std::to_string(row.getColumn(5).getInt64()));
        return key.str("created_at", isoTime(row.getColumn(6).getInt64()))
            .str("expires_at", isoTime(row.getColumn(7).getInt64()))
            .finish();
    });
    auto orders = db.statement("SELECT id, status, cart_id, created_at, client_id, idem_key FROM orders ORDER BY id");
    const std::string ordersJson = jsonArray(*orders, [&](SQLite::Statement& row) {
        std::string order = orderFromRow(db, row);
        order.pop_back(); // reopen the object to add who placed it
        return order + ",\"client_id\":" + jsonQuote(row.getColumn(4).getString()) +
            ",\"idem_key\":" + (row.getColumn(5).isNull() ? "null" : jsonQuote(row.getColumn(5).getString())) + "}";
    });
    auto checkouts = db.statement("SELECT id, client_id, idem_key, recovery_point, order_id, charge_id, "
                                  "response_code, locked_at FROM checkout_keys ORDER BY id");
    const std::string checkoutsJson = jsonArray(*checkouts, [](SQLite::Statement& row) {
        auto nullable = [&row](int column) {
            return row.getColumn(column).isNull() ? std::string("null") : row.getColumn(column).getString();
        };
        return JsonObjectWriter()
            .num("id", row.getColumn(0).getInt64())
            .str("client_id", row.getColumn(1).getString())
            .str("idem_key", row.getColumn(2).getString())
            .str("recovery_point", row.getColumn(3).getString())
            .raw("order_id", nullable(4))
            .raw("charge_id", row.getColumn(5).isNull() ? "null" : jsonQuote(row.getColumn(5).getString()))
            .raw("response_code", nullable(6))
            .boolean("locked", !row.getColumn(7).isNull())
            .finish();
    });
    auto payments = db.statement("SELECT charge_id, order_id, amount, source FROM payments ORDER BY recorded_at");
    const std::string paymentsJson = jsonArray(*payments, [](SQLite::Statement& row) {
        return JsonObjectWriter()
            .str("charge_id", row.getColumn(0).getString())
            .num("order_id", row.getColumn(1).getInt64())
            .num("amount", row.getColumn(2).getInt64())
            .str("source", row.getColumn(3).getString())
            .finish();
    });
    auto events = db.statement("SELECT event_id, type, effect FROM webhook_events ORDER BY received_at, event_id");
    const std::string eventsJson = jsonArray(*events, [](SQLite::Statement& row) {
        return JsonObjectWriter()
            .str("event_id", row.getColumn(0).getString())
            .str("type", row.getColumn(1).getString())
            .str("effect", row.getColumn(2).getString())
            .finish();
    });
    auto faultJsonOf = [](const ArmedFault& armed) {
        return JsonObjectWriter()
            .str("fault", faultKindName(armed.kind))
            .num("remaining", armed.remaining)
            .num("delay_ms", armed.delayMs)
            .num("retry_after", armed.retryAfterSeconds)
            .finish();
    };
    const std::string faultJson = faultJsonOf(faults.armed(FaultTarget::Orders));
    const TeachingModes modes = faults.modes();
    const std::string modesJson = JsonObjectWriter()
                                      .boolean("check_then_insert", modes.checkThenInsert)
                                      .boolean("unscoped_keys", modes.unscopedKeys)
                                      .boolean("store_transient", modes.storeTransient)
                                      .boolean("business_key_off", modes.businessKeyOff)
                                      .finish();
    return JsonObjectWriter()
        .raw("keys", keysJson)
        .raw("orders", ordersJson)
        .raw("products", productsOn(db))
        .raw("fault", faultJson)
        .raw("modes", modesJson)
        .raw("checkout_keys", checkoutsJson)
        .raw("payments", paymentsJson)
        .raw("webhook_events", eventsJson)
        .raw("checkout_fault", faultJsonOf(faults.armed(FaultTarget::Checkout)))
        .raw("gateway_fault", faultJsonOf(faults.armed(FaultTarget::Gateway)))
        .finish();
}

} // namespace onceorder::server
