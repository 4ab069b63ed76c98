// OrderRows: the read side's rows written as JSON, whichever database they come from. `Rows` is a cursor with
// executeStep() (true while there is a row) and getColumn(i) (isNull, getString, getInt, getInt64), as
// SQLite::Statement has and PgRows (storage/postgres) gives: one spelling of an order, a key, a product and the debug
// state for both databases.
#pragma once

#include "support/IsoTime.h"
#include "support/Json.h"
#include "teaching/Faults.h"

#include <cstdint>
#include <optional>
#include <string>

namespace onceorder::server {

// Walks rows of orders joined to their lines, one row per line (an order without lines has one row with NULL
// line columns), the rows of one order next to each other and its lines in product order. Columns: id, status,
// cart_id, created_at, product_id, quantity, then `owner` extra columns client_id and idem_key (debug state).
// Writes each order exactly as one order was always written, so a page is byte for byte the listing's rows.
template<typename Rows>
class OrderRows
{
public:
    OrderRows(Rows& rows, bool owner)
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
    Rows& m_rows;
    bool m_owner;
    bool m_more;
};

template<typename Rows, typename Fn>
std::string jsonArray(Rows& rows, Fn&& each)
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

// GET /products: columns id, name, stock.
template<typename Rows>
std::string productsArray(Rows& rows)
{
    return jsonArray(rows, [](Rows& row) {
        return JsonObjectWriter()
            .str("id", row.getColumn(0).getString())
            .str("name", row.getColumn(1).getString())
            .num("stock", row.getColumn(2).getInt64())
            .finish();
    });
}

// The debug state's keys: columns client_id, idem_key, fingerprint, status, response_code, order_id, created_at,
// expires_at.
template<typename Rows>
std::string keysArray(Rows& rows)
{
    return jsonArray(rows, [](Rows& row) {
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
}

// The debug state's checkout keys: id, client_id, idem_key, recovery_point, order_id, charge_id, response_code,
// locked_at.
template<typename Rows>
std::string checkoutKeysArray(Rows& rows)
{
    return jsonArray(rows, [](Rows& row) {
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
}

// The debug state's payments: charge_id, order_id, amount, source.
template<typename Rows>
std::string paymentsArray(Rows& rows)
{
    return jsonArray(rows, [](Rows& row) {
        return JsonObjectWriter()
            .str("charge_id", row.getColumn(0).getString())
            .num("order_id", row.getColumn(1).getInt64())
            .num("amount", row.getColumn(2).getInt64())
            .str("source", row.getColumn(3).getString())
            .finish();
    });
}

// The debug state's webhook events: event_id, type, effect.
template<typename Rows>
std::string webhookEventsArray(Rows& rows)
{
    return jsonArray(rows, [](Rows& row) {
        return JsonObjectWriter()
            .str("event_id", row.getColumn(0).getString())
            .str("type", row.getColumn(1).getString())
            .str("effect", row.getColumn(2).getString())
            .finish();
    });
}

// The debug state's row lists, each already JSON, and the full count of each table.
struct DebugLists
{
    std::string database; // "sqlite" or "postgresql": which database this server keeps its rows in
    std::string keys;
    std::string orders;
    std::string products;
    std::string checkoutKeys = "[]";
    std::string payments = "[]";
    std::string webhookEvents = "[]";
    // PostgreSQL: the backends of this database waiting on a lock now (a duplicate's INSERT waiting on the key's
    // index entry shows here while the first copy's transaction is open). SQLite's writers queue on an in-process
    // lock instead, so there it stays empty.
    std::string waiting = "[]";
    // PostgreSQL: the other backends of this database inside an open transaction now (a request held by a delay
    // fault shows here, "idle in transaction", before anything waits for it).
    std::string transactions = "[]";
    long long keyCount = 0;
    long long orderCount = 0;
    long long checkoutKeyCount = 0;
    long long paymentCount = 0;
    long long webhookEventCount = 0;
};

} // namespace onceorder::server
