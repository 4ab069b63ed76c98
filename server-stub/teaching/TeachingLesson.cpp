#include "teaching/TeachingLesson.h"

#include "storage/DatabaseFailure.h"
#include "support/Problems.h"

#include <chrono>
#include <exception>
#include <string>
#include <thread>

namespace onceorder::server {

namespace {

// What the fail-before-commit fault says: it stands for any transient database error inside the transaction.
constexpr const char* kInjectedFailure = "the database failed before commit (injected fault)";

// Whether the fault holds its transaction open for a while (delay, or fail-before-commit with delay_ms: a slow
// transaction that then rolls back, what a waiting copy sees).
bool delays(const ArmedFault& fault)
{
    return (fault.kind == FaultKind::Delay || fault.kind == FaultKind::FailBeforeCommit) && fault.delayMs > 0;
}

// A delay fault: the transaction is slow, what it holds held meanwhile.
void delayForFault(const ArmedFault& fault)
{
    if (delays(fault)) {
        // The only sleep in the server: it is the fault (a slow disk, a slow gateway).
        std::this_thread::sleep_for(std::chrono::milliseconds(fault.delayMs));
    }
}

// Dies here if the fault is this crash point.
void crashAt(const ArmedFault& fault, FaultKind point)
{
    if (fault.kind == point) {
        crashProcessNow();
    }
}

} // namespace

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
    if (m_fault.kind == FaultKind::Unavailable) {
        return OrderResponse::fromProblem(problems::unavailable(m_fault.retryAfterSeconds), "unavailable");
    }
    return std::nullopt;
}

std::string TeachingLesson::keyScope(const Client& client) const
{
    // The mistake of the teaching mode unscoped_keys: one namespace of keys for everybody.
    return m_modes.unscopedKeys ? std::string("*") : client.id;
}

bool TeachingLesson::ownTransaction() const
{
    // A delay (the delay fault, or fail-before-commit with delay_ms) holds its key row for its own transaction, as it
    // always did: it stays out of a batch (it would hold up everyone in it, and the key row it holds would not be "in
    // progress" to anyone). So does the caught unique violation: on PostgreSQL it aborts the transaction it happens
    // in, which must be the request's own.
    return delays(m_fault) || m_modes.catchUniqueViolation;
}

std::optional<OrderResponse> TeachingLesson::placeInstead(SqlDatabase& db, const KeyClaim& key,
                                                          const CreateOrder& createOrder) const
{
    if (!m_modes.checkThenInsert) {
        return std::nullopt;
    }
    // DELIBERATELY WRONG (teaching mode "check-then-insert"): the look (step 0) and the insert are two steps, and
    // the key row is written last. Two copies of one request, on one instance or two, can both look before either
    // inserts, and both place an order; the second INSERT (on PostgreSQL it waits for the first) then overwrites it.
    delayForFault(m_fault); // widens the window between the look and the insert

    auto tx = db.write();
    OrderResponse response = createOrder(*tx);
    const long long orderId = response.orderId && response.status < 300 ? *response.orderId : 0;
    tx->exec("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, response_code, response_body, "
             "order_id, created_at, expires_at) VALUES (?, ?, ?, 'completed', ?, ?, NULLIF(?, 0), ?, ?) "
             "ON CONFLICT (client_id, idem_key) DO UPDATE SET response_code = excluded.response_code, "
             "response_body = excluded.response_body, order_id = excluded.order_id",
             {key.scope, key.idemKey, key.fingerprint, static_cast<long long>(response.status), response.body, orderId,
              key.now, key.expiresAt});
    tx->commit();
    return response;
}

std::optional<bool> TeachingLesson::claimInstead(SqlTx& tx, const KeyClaim& key) const
{
    if (!m_modes.catchUniqueViolation) {
        return std::nullopt;
    }
    // An expired key counts as absent: forget it first, inside the same transaction.
    tx.exec("DELETE FROM idempotency_keys WHERE client_id = ? AND idem_key = ? AND expires_at <= ?",
            {key.scope, key.idemKey, key.now});
    // DELIBERATELY WRONG (teaching mode "catch_unique_violation"): a plain INSERT, its unique violation caught as if
    // the transaction could go on. On SQLite the error ends only this statement, so the transaction goes on and the
    // stored answer is read. PostgreSQL has aborted the transaction: the stored answer cannot be read in it, and the
    // copy that should have been replayed fails instead.
    try {
        return tx.exec("INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, created_at, "
                       "expires_at, locked_at) VALUES (?, ?, ?, 'started', ?, ?, ?)",
                       {key.scope, key.idemKey, key.fingerprint, key.now, key.expiresAt, key.now}) == 1;
    } catch (...) {
        if (!uniqueViolation(std::current_exception())) {
            throw;
        }
    }
    try {
        // What the mistake goes on to do: read the stored answer (the steps read it again once this returns).
        tx.query("SELECT status FROM idempotency_keys WHERE client_id = ? AND idem_key = ?", {key.scope, key.idemKey});
    } catch (const std::exception& aborted) {
        if (classifyDatabaseFailure(std::current_exception()) == DatabaseFailure::None) {
            throw;
        }
        std::string reason = aborted.what();
        reason = reason.substr(0, reason.find('\n'));
        reason.erase(0, reason.find_first_not_of("ERROR: "));
        throw TransientFailure("catch_unique_violation: the caught unique violation aborted the transaction; "
                               "reading the stored answer failed: " +
                               reason);
    }
    return false;
}

OrderWriter::Rules TeachingLesson::writerRules() const
{
    return {.businessKey = !m_modes.businessKeyOff};
}

OrderResponse TeachingLesson::settle(OrderWriter& writer, const std::variant<long long, Problem>& written,
                                     const OrderCommand& command, std::int64_t nowMs) const
{
    // A delay after the writes, so that the slow transaction holds what a concurrent one waits on: the key's index
    // entry and the products' rows (the window's live dock shows a copy waiting in `UPDATE products`). Check-then-
    // insert has had its delay already, between the look and the insert.
    if (!m_modes.checkThenInsert) {
        delayForFault(m_fault);
    }
    if (std::holds_alternative<long long>(written) && m_fault.kind == FaultKind::FailBeforeCommit) {
        if (!m_modes.storeTransient) {
            throw TransientFailure(kInjectedFailure); // the transaction rolls back
        }
        // DELIBERATELY WRONG (teaching mode "store_transient"): the transient failure becomes the stored answer for
        // this key, the order undone.
        writer.undo();
        return OrderResponse::fromProblem(problems::transientFailureStored(), "transient-failure-stored");
    }
    return orderSteps::settle(writer, written, command, nowMs);
}

void TeachingLesson::beforeCommit() const
{
    crashAt(m_fault, FaultKind::CrashBeforeCommit);
}

void TeachingLesson::afterCommit() const
{
    crashAt(m_fault, FaultKind::CrashAfterCommit);
}

} // namespace onceorder::server
