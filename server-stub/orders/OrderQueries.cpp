#include "orders/OrderQueries.h"

#include "orders/OrderRows.h"
#include "orders/OrderService.h"
#include "storage/sqlite/WriteTransaction.h"
#include "support/Json.h"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <cstdint>
#include <string_view>

namespace onceorder::server {

namespace {

long long countOf(Store::Lease& db, std::string_view sql)
{
    auto count = db.statement(sql);
    count->executeStep();
    return count->getColumn(0).getInt64();
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
    return OrderRows<SQLite::Statement>(*rows, false).next();
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
    return OrderRows<SQLite::Statement>(*rows, false).array();
}

std::string OrderQueries::productsJson()
{
    auto db = m_store.lease();
    return productsOn(db);
}

std::string OrderQueries::productsOn(Store::Lease& db)
{
    auto rows = db.statement("SELECT id, name, stock FROM products ORDER BY id");
    return productsArray(*rows);
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
    DebugLists lists;
    lists.database = "sqlite";
    lists.keys = keysArray(*keys);
    auto orders =
        db.statement("SELECT o.id, o.status, o.cart_id, o.created_at, l.product_id, l.quantity, o.client_id, "
                     "o.idem_key FROM (SELECT id, status, cart_id, created_at, client_id, idem_key FROM orders "
                     "ORDER BY id DESC LIMIT ?) AS o LEFT JOIN order_lines AS l ON l.order_id = o.id "
                     "ORDER BY o.id, l.product_id");
    orders->bind(1, newest);
    lists.orders = OrderRows<SQLite::Statement>(*orders, true).array();
    auto checkouts = db.statement("SELECT id, client_id, idem_key, recovery_point, order_id, charge_id, "
                                  "response_code, locked_at FROM (SELECT id, client_id, idem_key, recovery_point, "
                                  "order_id, charge_id, response_code, "
                                  "locked_at FROM checkout_keys ORDER BY id DESC LIMIT ?) "
                                  "ORDER BY id");
    checkouts->bind(1, newest);
    lists.checkoutKeys = checkoutKeysArray(*checkouts);
    auto payments = db.statement(
        "SELECT charge_id, order_id, amount, source FROM (SELECT rowid AS seq, charge_id, order_id, "
        "amount, source, recorded_at FROM payments ORDER BY rowid DESC LIMIT ?) ORDER BY recorded_at, seq");
    payments->bind(1, newest);
    lists.payments = paymentsArray(*payments);
    // In the order they arrived: event ids are random, so they say nothing about it.
    auto events = db.statement("SELECT event_id, type, effect FROM (SELECT event_id, type, effect, rowid AS arrival "
                               "FROM webhook_events ORDER BY rowid DESC LIMIT ?) ORDER BY arrival");
    events->bind(1, newest);
    lists.webhookEvents = webhookEventsArray(*events);
    lists.products = productsOn(db);
    lists.keyCount = countOf(db, "SELECT count(*) FROM idempotency_keys");
    lists.orderCount = countOf(db, "SELECT count(*) FROM orders");
    lists.checkoutKeyCount = countOf(db, "SELECT count(*) FROM checkout_keys");
    lists.paymentCount = countOf(db, "SELECT count(*) FROM payments");
    lists.webhookEventCount = countOf(db, "SELECT count(*) FROM webhook_events");
    return assemble(lists, faults);
}

OrderQueries::DebugState OrderQueries::assemble(const DebugLists& lists, const Faults& faults)
{
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
                                      .boolean("catch_unique_violation", modes.catchUniqueViolation)
                                      .finish();
    DebugState state;
    state.totals.num("keys", lists.keyCount)
        .num("orders", lists.orderCount)
        .num("checkout_keys", lists.checkoutKeyCount)
        .num("payments", lists.paymentCount)
        .num("webhook_events", lists.webhookEventCount);
    state.json = JsonObjectWriter()
                     .str("database", lists.database)
                     .raw("keys", lists.keys)
                     .raw("orders", lists.orders)
                     .raw("products", lists.products)
                     .raw("fault", faultJson)
                     .raw("modes", modesJson)
                     .raw("checkout_keys", lists.checkoutKeys)
                     .raw("payments", lists.payments)
                     .raw("webhook_events", lists.webhookEvents)
                     .raw("waiting", lists.waiting)
                     .raw("transactions", lists.transactions)
                     .raw("checkout_fault", faultJsonOf(faults.armed(FaultTarget::Checkout)))
                     .raw("gateway_fault", faultJsonOf(faults.armed(FaultTarget::Gateway)))
                     .finish();
    return state;
}

} // namespace onceorder::server
