#include "orders/OrderReads.h"

#include "orders/OrderRows.h"
#include "support/Json.h"

#include <optional>
#include <string_view>

namespace onceorder::server::orderReads {

namespace {

// The debug state's row lists, each already JSON, and the full count of each table.
struct DebugLists
{
    std::string_view database;
    std::string keys;
    std::string orders;
    std::string products;
    std::string checkoutKeys;
    std::string payments;
    std::string webhookEvents;
    std::string waiting;
    std::string transactions;
    long long keyCount = 0;
    long long orderCount = 0;
    long long checkoutKeyCount = 0;
    long long paymentCount = 0;
    long long webhookEventCount = 0;
};

long long countOf(SqlTx& tx, std::string_view sql)
{
    return tx.queryOne(sql)->int64(0);
}

// The rows of a list the dialect may not have (no statement): then none.
std::vector<SqlRow> rowsIfAny(SqlTx& tx, const std::optional<std::string_view>& sql)
{
    return sql ? tx.query(*sql) : std::vector<SqlRow>();
}

std::string productsOn(SqlTx& tx)
{
    return productsArray(tx.query("SELECT id, name, stock FROM products ORDER BY id"));
}

// The debug state from its lists, with the faults and modes armed: the same JSON for every database.
DebugState assemble(const DebugLists& lists, const Faults& faults)
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

} // namespace

std::optional<std::string> order(SqlTx& tx, const std::string& clientId, long long orderId)
{
    const auto rows = tx.query("SELECT o.id, o.status, o.cart_id, o.created_at, l.product_id, l.quantity "
                               "FROM orders AS o LEFT JOIN order_lines AS l ON l.order_id = o.id "
                               "WHERE o.id = ? AND o.client_id = ? ORDER BY l.product_id",
                               {orderId, clientId});
    return OrderRows(rows, false).next();
}

std::string orders(SqlTx& tx, const std::string& clientId, const std::optional<std::string>& cartId,
                   std::optional<int> limit)
{
    // The page is chosen first, then joined to its lines: one query for the whole page.
    const SqlValue cart = cartId ? SqlValue(*cartId) : SqlValue(nullptr);
    const auto rows = tx.query("SELECT o.id, o.status, o.cart_id, o.created_at, l.product_id, l.quantity "
                               "FROM (SELECT id, status, cart_id, created_at FROM orders WHERE client_id = ? "
                               "AND (CAST(? AS TEXT) IS NULL OR cart_id = ?) ORDER BY id DESC " +
                                   std::string(tx.sqlDialect().limitOrAll) +
                                   ") AS o LEFT JOIN order_lines AS l ON l.order_id = o.id "
                                   "ORDER BY o.id DESC, l.product_id",
                               {clientId, cart, cart, static_cast<long long>(limit.value_or(-1))});
    return OrderRows(rows, false).array();
}

std::string products(SqlTx& tx)
{
    return productsOn(tx);
}

bool setStock(SqlTx& tx, const std::string& productId, int stock)
{
    return tx.exec("UPDATE products SET stock = ? WHERE id = ?", {static_cast<long long>(stock), productId}) == 1;
}

DebugState debugState(SqlTx& tx, const Faults& faults, std::optional<int> limit)
{
    const SqlDialect& dialect = tx.sqlDialect();
    // Built in two steps: `" " + std::string(…)` trips GCC 12's -Wrestrict false positive at -O3 (the bench preset).
    std::string newest(" ");
    newest += dialect.limitOrAll;
    const SqlParams count = {static_cast<long long>(limit.value_or(-1))};
    // Each list: its `limit` most recently written rows, put back in the list's order. They are picked newest first
    // by the order they were written in (`seq`, SqlDialect::keysArrival …), so a capped list reads `limit` rows of
    // the table where the database numbers its rows, not all of them.
    DebugLists lists;
    lists.database = dialect.name;
    lists.waiting = lockWaitsArray(rowsIfAny(tx, dialect.lockWaits));
    lists.transactions = openTransactionsArray(rowsIfAny(tx, dialect.openTransactions));
    lists.keys = keysArray(tx.query(
        "SELECT client_id, idem_key, fingerprint, status, response_code, order_id, created_at, expires_at FROM "
        "(SELECT " +
            std::string(dialect.keysArrival) +
            " AS seq, client_id, idem_key, fingerprint, status, response_code, order_id, created_at, expires_at "
            "FROM idempotency_keys ORDER BY seq DESC, created_at DESC, client_id DESC, idem_key DESC" +
            newest + ") AS k ORDER BY created_at, seq, client_id, idem_key",
        count));
    lists.orders = OrderRows(tx.query("SELECT o.id, o.status, o.cart_id, o.created_at, l.product_id, l.quantity, "
                                      "o.client_id, o.idem_key FROM (SELECT id, status, cart_id, created_at, "
                                      "client_id, idem_key FROM orders ORDER BY id DESC" +
                                          newest +
                                          ") AS o LEFT JOIN order_lines AS l ON l.order_id = o.id "
                                          "ORDER BY o.id, l.product_id",
                                      count),
                             true)
                       .array();
    lists.products = productsOn(tx);
    lists.checkoutKeys = checkoutKeysArray(
        tx.query("SELECT id, client_id, idem_key, recovery_point, order_id, charge_id, response_code, locked_at "
                 "FROM (SELECT id, client_id, idem_key, recovery_point, order_id, charge_id, response_code, "
                 "locked_at FROM checkout_keys ORDER BY id DESC" +
                     newest + ") AS k ORDER BY id",
                 count));
    lists.payments = paymentsArray(
        tx.query("SELECT charge_id, order_id, amount, source FROM (SELECT " + std::string(dialect.paymentsArrival) +
                     " AS seq, charge_id, order_id, amount, source, recorded_at FROM payments ORDER BY seq DESC" +
                     newest + ") AS p ORDER BY recorded_at, seq",
                 count));
    // In the order they arrived: event ids are random, so they say nothing about it.
    lists.webhookEvents = webhookEventsArray(tx.query(
        "SELECT event_id, type, effect FROM (SELECT " + std::string(dialect.webhookEventsArrival) +
            " AS seq, event_id, type, effect FROM webhook_events ORDER BY seq DESC" + newest + ") AS e ORDER BY seq",
        count));
    lists.keyCount = countOf(tx, "SELECT count(*) FROM idempotency_keys");
    lists.orderCount = countOf(tx, "SELECT count(*) FROM orders");
    lists.checkoutKeyCount = countOf(tx, "SELECT count(*) FROM checkout_keys");
    lists.paymentCount = countOf(tx, "SELECT count(*) FROM payments");
    lists.webhookEventCount = countOf(tx, "SELECT count(*) FROM webhook_events");
    return assemble(lists, faults);
}

int reapExpiredKeys(SqlTx& tx, std::int64_t nowMs, int batch)
{
    // Only finished keys: a 'started' row belongs to a request in flight (or to the completer of the multi-phase
    // flow), which decides its fate itself.
    const std::string row(tx.sqlDialect().rowLocator);
    return static_cast<int>(tx.exec("DELETE FROM idempotency_keys WHERE " + row + " IN (SELECT " + row +
                                        " FROM idempotency_keys WHERE expires_at <= ? AND status = 'completed' "
                                        "LIMIT ?)",
                                    {static_cast<long long>(nowMs), static_cast<long long>(batch)}));
}

} // namespace onceorder::server::orderReads
