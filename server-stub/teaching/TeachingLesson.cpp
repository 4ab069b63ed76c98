#include "teaching/TeachingLesson.h"

#include "storage/sqlite/WriteTransaction.h"
#include "support/Problems.h"

#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>
#include <sqlite3.h>

namespace onceorder::server {

TeachingLesson::TeachingLesson(const ArmedFault& fault, const TeachingModes& modes)
    : m_fault(fault)
    , m_modes(modes)
{
}

std::shared_ptr<const OrderLesson> TeachingLesson::next(Faults& faults)
{
    static const auto pattern = std::make_shared<const OrderLesson>();
    const ArmedFault fault = faults.takeAny();
    const TeachingModes modes = faults.modes();
    const bool anyMode = modes.checkThenInsert || modes.unscopedKeys || modes.storeTransient || modes.businessKeyOff ||
        modes.catchUniqueViolation;
    if (fault.kind == FaultKind::None && !anyMode) {
        return pattern;
    }
    return std::make_shared<const TeachingLesson>(fault, modes);
}

std::optional<OrderResponse> TeachingLesson::refusal() const
{
    return orderSteps::refusedByFault(m_fault);
}

std::string TeachingLesson::keyScope(const Client& client) const
{
    // The mistake of the teaching mode unscoped_keys: one namespace of keys for everybody.
    return m_modes.unscopedKeys ? std::string("*") : client.id;
}

bool TeachingLesson::ownTransaction() const
{
    // A delay (the delay fault, or fail-before-commit with delay_ms) holds the writer lock for its own transaction,
    // as it always did: it stays out of a batch (it would hold up everyone in it, and the key row it holds would not
    // be "in progress" to anyone).
    return orderSteps::delays(m_fault);
}

std::optional<OrderResponse> TeachingLesson::placeInstead(Store& store, Store::Lease& db, const KeyClaim& key,
                                                          const CreateOrder& createOrder) const
{
    if (!m_modes.checkThenInsert) {
        return std::nullopt;
    }
    // DELIBERATELY WRONG (teaching mode "check-then-insert"): the look (step 0) and the insert are two steps, and
    // the key row is written last. Two copies of one request can both look before either inserts, and both place
    // an order.
    orderSteps::delayForFault(m_fault); // widens the window between the look and the insert

    WriteTransaction tx(store, db);
    OrderResponse response = createOrder();
    auto remember = db.statement("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, "
                                 "response_code, response_body, order_id, created_at, expires_at) "
                                 "VALUES (?, ?, ?, 'completed', ?, ?, ?, ?, ?) "
                                 "ON CONFLICT (client_id, idem_key) DO UPDATE SET response_code = "
                                 "excluded.response_code, response_body = excluded.response_body, "
                                 "order_id = excluded.order_id");
    remember->bind(1, key.scope);
    remember->bind(2, key.idemKey);
    remember->bind(3, key.fingerprint);
    remember->bind(4, response.status);
    remember->bind(5, response.body);
    if (response.orderId && response.status < 300) {
        remember->bind(6, static_cast<int64_t>(*response.orderId));
    }
    remember->bind(7, static_cast<int64_t>(key.now));
    remember->bind(8, static_cast<int64_t>(key.expiresAt));
    remember->exec();
    tx.commit();
    return response;
}

std::optional<bool> TeachingLesson::claimInstead(Store::Lease& db, const KeyClaim& key) const
{
    if (!m_modes.catchUniqueViolation) {
        return std::nullopt;
    }
    // The teaching mode's way (see TeachingModes): a plain INSERT and its unique violation caught. On SQLite the
    // error ends only this statement, so the transaction goes on and the stored answer is read.
    auto insert = db.statement("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, "
                               "created_at, expires_at, locked_at) VALUES (?, ?, ?, 'started', ?, ?, ?)");
    bindKeyRow(*insert, key);
    try {
        return insert->exec() == 1;
    } catch (const SQLite::Exception& error) {
        if (error.getErrorCode() != SQLITE_CONSTRAINT) {
            throw;
        }
        return false;
    }
}

void TeachingLesson::afterClaim() const
{
    orderSteps::delayForFault(m_fault);
}

OrderWriter::Rules TeachingLesson::writerRules() const
{
    return {.businessKey = !m_modes.businessKeyOff};
}

OrderResponse TeachingLesson::settle(OrderWriter& writer, const std::variant<long long, Problem>& written,
                                     const OrderCommand& command, std::int64_t nowMs) const
{
    return orderSteps::settle(writer, written, command, nowMs, m_fault, m_modes);
}

void TeachingLesson::beforeCommit() const
{
    orderSteps::crashAt(m_fault, FaultKind::CrashBeforeCommit);
}

void TeachingLesson::afterCommit() const
{
    orderSteps::crashAt(m_fault, FaultKind::CrashAfterCommit);
}

} // namespace onceorder::server
