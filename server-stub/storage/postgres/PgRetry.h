// rerunWhenRolledBack: for work that may simply run again (a reset, a read), on PostgreSQL's word that it rolled the
// transaction back as a deadlock's victim or for a serialization failure (pqxx::transaction_rollback).
#pragma once

#include <pqxx/except>

namespace onceorder::server {

// Runs fn() (which opens, does and commits its own transaction), at most `attempts` times in all, and returns what
// it returned; the last rollback is rethrown. Any other failure is not retried.
template<typename Fn>
auto rerunWhenRolledBack(Fn&& fn, int attempts = 3) -> decltype(fn())
{
    for (int attempt = 1;; ++attempt) {
        try {
            return fn();
        } catch (const pqxx::transaction_rollback&) {
            if (attempt >= attempts) {
                throw;
            }
        }
    }
}

} // namespace onceorder::server
