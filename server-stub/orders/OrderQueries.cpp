#include "orders/OrderQueries.h"

#include "orders/OrderService.h"
#include "storage/WriteTransaction.h"
#include "support/Json.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <cstdint>
#include <string_view>

namespace onceorder::server {

namespace {

// Walks rows of orders joined to their lines, one row per line (an order without lines has one row with NULL
// line columns), the rows of one order next to each other and its lines in product order. Columns: id, status,
// cart_id, created_at, product_id, quantity, then `owner` extra columns client_id and idem_key (debug state).
// Writes each order exactly as one order was always written, so a page is byte for byte the listing's rows.
class OrderRows
{
public:
    OrderRows(SQLite::Statement& rows, bool owner)
        : m_rows(rows)
        , m_owner(owner)
        , m_more(rows.executeStep())
    {
    }

    // The next order's JSON, or nothing after the last.
    std::optional<std::string> next()
    {
        if (!m_more) {
            return std::nullopt;
        }
        const long long id = m_rows.getColumn(0).getInt64();
        JsonObjectWriter order;
        order.num("order_id", id).str("status", m_rows.getColumn(1).getString());
        if (!m_rows.getColumn(2).isNull()) {
            order.str("cart_id", m_rows.getColumn(2).getString());
        }
        const std::int64_t createdAt = m_rows.getColumn(3).getInt64();
        std::string owner;
        if (m_owner) {
            owner = ",\"client_id\":" + jsonQuote(m_rows.getColumn(6).getString()) +
                ",\"idem_key\":" + (m_rows.getColumn(7).isNull() ? "null" : jsonQuote(m_rows.getColumn(7).getString()));
        }
        std::string items = "[";
        do {
            if (!m_rows.getColumn(4).isNull()) {
                if (items.size() > 1) {
                    items += ',';
                }
                items += JsonObjectWriter()
                             .str("product", m_rows.getColumn(4).getString())
                             .num("quantity", m_rows.getColumn(5).getInt())
                             .finish();
            }
            m_more = m_rows.executeStep();
        } while (m_more && m_rows.getColumn(0).getInt64() == id);
        std::string json = order.raw("items", items + "]").str("created_at", isoTime(createdAt)).finish();
        if (m_owner) {
            json.pop_back(); // reopen the object to add who placed it
            json += owner + "}";
        }
        return json;
    }

    std::string array()
    {
        std::string out = "[";
        while (auto order = next()) {
            if (out.size() > 1) {
                out += ',';
            }
            out += *order;
        }
        return out + "]";
    }

private:
    SQLite::Statement& m_rows;
    bool m_owner;
    bool m_more;
};

long long countOf(Store::Lease& db, std::string_view sql)
{
    auto count = db.statement(sql);
    count->executeStep();
    return count->getColumn(0).getInt64();
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
    auto rows = db.statement("SELECT o.id, o.status, o.cart_id, o.created_at, l.product_id, l.quantity "
                             "FROM orders AS o LEFT JOIN order_lines AS l ON l.order_id = o.id "
                             "WHERE o.id = ? AND o.client_id = ? ORDER BY l.product_id");
    rows->bind(1, static_cast<int64_t>(orderId));
    rows->bind(2, clientId);
    return OrderRows(*rows, false).next();
}

std::string OrderQueries::ordersJson(const std::string& clientId, const std::optional<std::string>& cartId,
                                     std::optional<int> limit)
{
    auto db = m_store.lease();
    SQLite::Transaction snapshot(*db); // one consistent read of orders and their lines
    // The page is chosen first (LIMIT -1 is no limit), then joined to its lines: one query for the whole page.
    auto rows = db.statement("SELECT o.id, o.status, o.cart_id, o.created_at, l.product_id, l.quantity "
                             "FROM (SELECT id, status, cart_id, created_at FROM orders WHERE client_id = ? "
                             "AND (? IS NULL OR cart_id = ?) ORDER BY id DESC LIMIT ?) AS o "
                             "LEFT JOIN order_lines AS l ON l.order_id = o.id ORDER BY o.id DESC, l.product_id");
    rows->bind(1, clientId);
    if (cartId) {
        rows->bind(2, *cartId);
        rows->bind(3, *cartId);
    }
    rows->bind(4, limit.value_or(-1));
    return OrderRows(*rows, false).array();
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
    WriteTransaction tx(m_store);
    auto update = tx.db().statement("UPDATE products SET stock = ? WHERE id = ?");
    update->bind(1, stock);
    update->bind(2, productId);
    const bool set = update->exec() == 1;
    tx.commit();
    return set;
}

OrderQueries::DebugState OrderQueries::debugState(const Faults& faults, std::optional<int> limit)
{
    auto db = m_store.lease();
    SQLite::Transaction snapshot(*db); // the lists and their totals from one read
    // Each list: its `limit` most recently written rows (LIMIT -1 is no limit), put back in the list's order. They
    // are picked by rowid, newest first, so a capped list reads `limit` rows of the table, not all of them.
    const int newest = limit.value_or(-1);
    auto keys =
        db.statement("SELECT client_id, idem_key, fingerprint, status, response_code, order_id, created_at, "
                     "expires_at FROM (SELECT rowid AS seq, client_id, idem_key, fingerprint, status, response_code, "
                     "order_id, created_at, expires_at FROM idempotency_keys ORDER BY rowid DESC LIMIT ?) "
                     "ORDER BY created_at, seq");
    keys->bind(1, newest);
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
    auto orders =
        db.statement("SELECT o.id, o.status, o.cart_id, o.created_at, l.product_id, l.quantity, o.client_id, "
                     "o.idem_key FROM (SELECT id, status, cart_id, created_at, client_id, idem_key FROM orders "
                     "ORDER BY id DESC LIMIT ?) AS o LEFT JOIN order_lines AS l ON l.order_id = o.id "
                     "ORDER BY o.id, l.product_id");
    orders->bind(1, newest);
    const std::string ordersJson = OrderRows(*orders, true).array();
    auto checkouts = db.statement("SELECT id, client_id, idem_key, recovery_point, order_id, charge_id, "
                                  "response_code, locked_at FROM (SELECT id, client_id, idem_key, recovery_point, "
                                  "order_id, charge_id, response_code, "
                                  "locked_at FROM checkout_keys ORDER BY id DESC LIMIT ?) "
                                  "ORDER BY id");
    checkouts->bind(1, newest);
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
    auto payments = db.statement(
        "SELECT charge_id, order_id, amount, source FROM (SELECT rowid AS seq, charge_id, order_id, "
        "amount, source, recorded_at FROM payments ORDER BY rowid DESC LIMIT ?) ORDER BY recorded_at, seq");
    payments->bind(1, newest);
    const std::string paymentsJson = jsonArray(*payments, [](SQLite::Statement& row) {
        return JsonObjectWriter()
            .str("charge_id", row.getColumn(0).getString())
            .num("order_id", row.getColumn(1).getInt64())
            .num("amount", row.getColumn(2).getInt64())
            .str("source", row.getColumn(3).getString())
            .finish();
    });
    auto events = db.statement("SELECT event_id, type, effect FROM (SELECT event_id, type, effect, received_at "
                               "FROM webhook_events ORDER BY rowid DESC LIMIT ?) ORDER BY received_at, event_id");
    events->bind(1, newest);
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
    DebugState state;
    state.totals.num("keys", countOf(db, "SELECT count(*) FROM idempotency_keys"))
        .num("orders", countOf(db, "SELECT count(*) FROM orders"))
        .num("checkout_keys", countOf(db, "SELECT count(*) FROM checkout_keys"))
        .num("payments", countOf(db, "SELECT count(*) FROM payments"))
        .num("webhook_events", countOf(db, "SELECT count(*) FROM webhook_events"));
    state.json = JsonObjectWriter()
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
    return state;
}

} // namespace onceorder::server
