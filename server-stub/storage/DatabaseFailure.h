// DatabaseFailure: what an exception from either database means for the request that met it. Transient: the
// database is down, restarting, failing over, out of room or locked, or the transaction lost a conflict; nothing was
// committed that a retry with the same key would not replay, so the request is answered 503 with Retry-After.
// Permanent: a database error that a retry would meet again (a bug in our SQL, a missing table): 500. Neither kind's
// answer quotes the database's words, which name its host, port and SQL; they go to the server's log.
#pragma once

#include <exception>

namespace onceorder::server {

enum class DatabaseFailure
{
    None, // not a database's exception
    Transient,
    Permanent,
};

DatabaseFailure classifyDatabaseFailure(const std::exception_ptr& error);

} // namespace onceorder::server
