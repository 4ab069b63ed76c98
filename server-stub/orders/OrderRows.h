// OrderRows: the read side's rows written as JSON, whichever database they come from (SqlRow, every column as its
// text): one spelling of an order, a key, a product and the debug state's lists for every database.
#pragma once

#include "storage/SqlTx.h"
#include "support/IsoTime.h"
#include "support/Json.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace onceorder::server {

// Walks rows of orders joined to their lines, one row per line (an order without lines has one row with NULL
// line columns), the rows of one order next to each other and its lines in product order. Columns: id, status,
// cart_id, created_at, product_id, quantity, then `owner` extra columns client_id and idem_key (debug state).
// Writes each order exactly as one order was always written, so a page is byte for byte the listing's rows.
class OrderRows
{
public:
    OrderRows(const std::vector<SqlRow>& rows, bool owner)
        : m_rows(rows)
        , m_owner(owner)
    {
    }

    // The next order's JSON, or nothing after the last.
    std::optional<std::string> next()
    {
        if (m_at == m_rows.size()) {
            return std::nullopt;
        }
        const SqlRow& first = m_rows[m_at];
        const long long id = first.int64(0);
        JsonObjectWriter order;
        order.num("order_id", id).str("status", first.text(1));
        if (!first.isNull(2)) {
            order.str("cart_id", first.text(2));
        }
        const std::int64_t createdAt = first.int64(3);
        std::string owner;
        if (m_owner) {
            owner = ",\"client_id\":" + jsonQuote(first.text(6)) +
                ",\"idem_key\":" + (first.isNull(7) ? "null" : jsonQuote(first.text(7)));
        }
        std::string items = "[";
        for (; m_at < m_rows.size() && m_rows[m_at].int64(0) == id; ++m_at) {
            const SqlRow& line = m_rows[m_at];
            if (!line.isNull(4)) {
                if (items.size() > 1) {
                    items += ',';
                }
                items += JsonObjectWriter().str("product", line.text(4)).num("quantity", line.int32(5)).finish();
            }
        }
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
    const std::vector<SqlRow>& m_rows;
    bool m_owner;
    std::size_t m_at = 0;
};

template<typename Fn>
std::string jsonArray(const std::vector<SqlRow>& rows, Fn&& each)
{
    std::string out = "[";
    for (const SqlRow& row : rows) {
        if (out.size() > 1) {
            out += ',';
        }
        out += each(row);
    }
    return out + "]";
}

// GET /products: columns id, name, stock.
inline std::string productsArray(const std::vector<SqlRow>& rows)
{
    return jsonArray(rows, [](const SqlRow& row) {
        return JsonObjectWriter().str("id", row.text(0)).str("name", row.text(1)).num("stock", row.int64(2)).finish();
    });
}

// The debug state's keys: columns client_id, idem_key, fingerprint, status, response_code, order_id, created_at,
// expires_at.
inline std::string keysArray(const std::vector<SqlRow>& rows)
{
    return jsonArray(rows, [](const SqlRow& row) {
        JsonObjectWriter key;
        key.str("client_id", row.text(0))
            .str("idem_key", row.text(1))
            .str("fingerprint", row.text(2))
            .str("status", row.text(3));
        key.raw("response_code", row.isNull(4) ? "null" : std::to_string(row.int32(4)));
        key.raw("order_id", row.isNull(5) ? "null" : std::to_string(row.int64(5)));
        return key.str("created_at", isoTime(row.int64(6))).str("expires_at", isoTime(row.int64(7))).finish();
    });
}

// The debug state's checkout keys: id, client_id, idem_key, recovery_point, order_id, charge_id, response_code,
// locked_at.
inline std::string checkoutKeysArray(const std::vector<SqlRow>& rows)
{
    return jsonArray(rows, [](const SqlRow& row) {
        auto nullable = [&row](int column) {
            return row.isNull(column) ? std::string("null") : row.text(column);
        };
        return JsonObjectWriter()
            .num("id", row.int64(0))
            .str("client_id", row.text(1))
            .str("idem_key", row.text(2))
            .str("recovery_point", row.text(3))
            .raw("order_id", nullable(4))
            .raw("charge_id", row.isNull(5) ? "null" : jsonQuote(row.text(5)))
            .raw("response_code", nullable(6))
            .boolean("locked", !row.isNull(7))
            .finish();
    });
}

// The debug state's payments: charge_id, order_id, amount, source.
inline std::string paymentsArray(const std::vector<SqlRow>& rows)
{
    return jsonArray(rows, [](const SqlRow& row) {
        return JsonObjectWriter()
            .str("charge_id", row.text(0))
            .num("order_id", row.int64(1))
            .num("amount", row.int64(2))
            .str("source", row.text(3))
            .finish();
    });
}

// The debug state's webhook events: event_id, type, effect.
inline std::string webhookEventsArray(const std::vector<SqlRow>& rows)
{
    return jsonArray(rows, [](const SqlRow& row) {
        return JsonObjectWriter()
            .str("event_id", row.text(0))
            .str("type", row.text(1))
            .str("effect", row.text(2))
            .finish();
    });
}

// The debug state's sessions waiting on a lock (SqlDialect::lockWaits): pid, lock, query, waiting_ms, blocked_by.
inline std::string lockWaitsArray(const std::vector<SqlRow>& rows)
{
    return jsonArray(rows, [](const SqlRow& row) {
        return JsonObjectWriter()
            .num("pid", row.int64(0))
            .str("lock", row.text(1))
            .str("query", row.text(2))
            .num("waiting_ms", row.int64(3))
            .raw("blocked_by", row.text(4))
            .finish();
    });
}

// The debug state's sessions inside an open transaction (SqlDialect::openTransactions): pid, state, open_ms, query.
inline std::string openTransactionsArray(const std::vector<SqlRow>& rows)
{
    return jsonArray(rows, [](const SqlRow& row) {
        return JsonObjectWriter()
            .num("pid", row.int64(0))
            .str("state", row.text(1))
            .num("open_ms", row.int64(2))
            .str("query", row.text(3))
            .finish();
    });
}

} // namespace onceorder::server
