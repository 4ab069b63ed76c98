// PgPool: this process's connections to PostgreSQL, one per request worker at most, opened when first needed and
// kept. A connection that broke (the server restarted, the network dropped) is not given back: the next lease opens
// a fresh one, so one lost connection costs one 503, not every request after it.
#pragma once

#include <pqxx/connection>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace onceorder::server {

class PgPool
{
public:
    // Opens the first connection at once: an unreachable database throws pqxx::broken_connection here, at start.
    PgPool(std::string uri, int size);
    ~PgPool();
    PgPool(const PgPool&) = delete;
    PgPool& operator=(const PgPool&) = delete;

    // A connection borrowed for one request.
    class Lease
    {
    public:
        Lease(PgPool& pool, std::unique_ptr<pqxx::connection> connection);
        ~Lease();
        Lease(Lease&& other) noexcept;
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Lease& operator=(Lease&&) = delete;
        pqxx::connection& operator*() const { return *m_connection; }
        pqxx::connection* operator->() const { return m_connection.get(); }
        // The connection is not to be reused (it broke mid-request): closed instead of given back.
        void discard() { m_discard = true; }

    private:
        PgPool* m_pool;
        std::unique_ptr<pqxx::connection> m_connection;
        bool m_discard = false;
    };

    // Waits while every connection is lent out; opens one when the pool has room. Throws if it cannot connect.
    Lease lease();

private:
    void release(std::unique_ptr<pqxx::connection> connection);

    std::string m_uri;
    int m_size;
    std::mutex m_lock;
    std::condition_variable m_available;
    std::vector<std::unique_ptr<pqxx::connection>> m_idle;
    int m_open = 0; // idle and lent out
};

} // namespace onceorder::server
