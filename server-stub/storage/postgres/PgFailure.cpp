#include "storage/postgres/PgFailure.h"

#include <pqxx/except>

#include <string>

namespace onceorder::server {

namespace {

// SQLSTATE classes a retry can get past (PostgreSQL, Appendix A): connection exceptions, transaction rollbacks
// (serialization failures, deadlocks), insufficient resources, operator intervention (shutdown, a starting server, a
// statement cancelled: 57014 is also what statement_timeout raises), system errors; a read-only transaction (connected
// to a standby after a failover); a lock not available (55P03, lock_timeout ran out while another transaction, or an
// administrator's LOCK TABLE, held it); a session ended by idle_in_transaction_session_timeout (25P03); and a named
// prepared statement missing (26000) or already there (42P05) on the connection a transaction pooler gave this
// transaction: PgWorkTx sends its statements unnamed from then on, so the retry gets through.
bool transientState(const std::string& state)
{
    const std::string kind = state.substr(0, 2);
    return kind == "08" || kind == "40" || kind == "53" || kind == "57" || kind == "58" || state == "25006" ||
        state == "25P03" || state == "55P03" || state == "26000" || state == "42P05";
}

// A named prepared statement missing (26000) or already there (42P05) on the connection a transaction pooler gave
// this transaction: PgWorkTx sends its statements unnamed from then on, so the same work run at once gets through.
bool pooledAway(const std::string& state)
{
    return state == "26000" || state == "42P05";
}

NativeFailure transient()
{
    return NativeFailure {.kind = DatabaseFailure::Transient};
}

} // namespace

std::optional<NativeFailure> readPostgresFailure(const std::exception_ptr& error)
{
    try {
        std::rethrow_exception(error);
    } catch (const pqxx::broken_connection&) {
        NativeFailure failure = transient();
        failure.commitOutcomeUnknown = true;
        return failure;
    } catch (const pqxx::in_doubt_error&) {
        NativeFailure failure = transient(); // the commit's outcome was lost: a retry replays it or places it once
        failure.commitOutcomeUnknown = true;
        return failure;
    } catch (const pqxx::transaction_rollback&) {
        NativeFailure failure = transient(); // a deadlock's victim, a serialization failure: rolled back, run again
        failure.rolledBackAsVictim = true;
        return failure;
    } catch (const pqxx::unique_violation&) {
        return NativeFailure {.kind = DatabaseFailure::Permanent, .uniqueViolation = true};
    } catch (const pqxx::sql_error& sql) {
        NativeFailure failure {.kind = transientState(sql.sqlstate()) ? DatabaseFailure::Transient
                                                                      : DatabaseFailure::Permanent};
        failure.rerunnable = pooledAway(sql.sqlstate());
        return failure;
    } catch (const pqxx::failure&) {
        return transient();
    } catch (...) {
        return std::nullopt;
    }
}

} // namespace onceorder::server
