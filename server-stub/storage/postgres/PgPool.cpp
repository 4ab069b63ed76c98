#include "storage/postgres/PgPool.h"

#include <algorithm>
#include <utility>

namespace onceorder::server {

PgPool::PgPool(std::string uri, int size)
    : m_uri(std::move(uri))
    , m_size(std::max(1, size))
{
    m_idle.push_back(std::make_unique<pqxx::connection>(m_uri));
    m_open = 1;
}

PgPool::~PgPool() = default;

PgPool::Lease::Lease(PgPool& pool, std::unique_ptr<pqxx::connection> connection)
    : m_pool(&pool)
    , m_connection(std::move(connection))
{
}

PgPool::Lease::Lease(Lease&& other) noexcept
    : m_pool(other.m_pool)
    , m_connection(std::move(other.m_connection))
    , m_discard(other.m_discard)
{
}

PgPool::Lease::~Lease()
{
    if (!m_connection) { // moved from
        return;
    }
    if (m_discard || !m_connection->is_open()) {
        m_connection.reset();
    }
    m_pool->release(std::move(m_connection));
}

PgPool::Lease PgPool::lease()
{
    std::unique_lock lock(m_lock);
    m_available.wait(lock, [this] { return !m_idle.empty() || m_open < m_size; });
    if (!m_idle.empty()) {
        auto connection = std::move(m_idle.back());
        m_idle.pop_back();
        return Lease(*this, std::move(connection));
    }
    ++m_open; // counted before connecting, so that no other thread overfills the pool meanwhile
    lock.unlock();
    try {
        return Lease(*this, std::make_unique<pqxx::connection>(m_uri));
    } catch (...) {
        release(nullptr);
        throw;
    }
}

void PgPool::release(std::unique_ptr<pqxx::connection> connection)
{
    {
        std::lock_guard lock(m_lock);
        if (connection) {
            m_idle.push_back(std::move(connection));
        } else {
            --m_open;
        }
    }
    m_available.notify_one();
}

} // namespace onceorder::server
