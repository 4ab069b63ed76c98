// rerunWhenRolledBack: for work that may simply run again (a reset), on PostgreSQL's word that it rolled the
// transaction back as a deadlock's victim or for a serialization failure (pqxx::transaction_rollback).
#pragma once

#include <pqxx/except>

namespace onceorder::server {

// Runs fn() (which opens, does and commits its own transaction), at most `attempts` times in all; the last
// rollback is rethrown. Any other failure is not retried.
template<typename Fn>
void rerunWhenRolledBack(Fn&& fn, int attempts = 3)
{
    for (int attempt = 1;; ++attempt) {
        try {
            fn();
            return;
        } catch (const pqxx::transaction_rollback&) {
            if (attempt >= attempts) {
                throw;
            }
        }
    }
}

} // namespace onceorder::server
