#include "storage/postgres/PgPool.h"

#include <pqxx/nontransaction>

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace onceorder::server {

namespace {

// After PostgreSQL refused a connection for want of slots, lease() tries again after this, doubling up to the cap,
// unless one of this pool's own connections comes back first.
constexpr std::chrono::milliseconds kFirstSlotRetry {20};
constexpr std::chrono::milliseconds kSlotRetryCap {250};

// A URI parameter is named already (`name=` right after `?` or `&`).
bool names(const std::string& uri, std::string_view name)
{
    const auto query = uri.find('?');
    if (query == std::string::npos) {
        return false;
    }
    for (auto at = query; at != std::string::npos; at = uri.find('&', at + 1)) {
        if (uri.compare(at + 1, name.size(), name) == 0 && uri.compare(at + 1 + name.size(), 1, "=") == 0) {
            return true;
        }
    }
    return false;
}

} // namespace

std::string PgPool::withTimeBudget(const std::string& uri, std::chrono::milliseconds budget)
{
    if (budget.count() <= 0) {
        return uri;
    }
    const long long seconds = std::max<long long>(2, (budget.count() + 999) / 1000);
    const std::pair<std::string_view, std::string> parameters[] = {
        {"connect_timeout", std::to_string(seconds)},
        {"keepalives", "1"},
        {"keepalives_idle", "1"},
        {"keepalives_interval", "1"},
        {"keepalives_count", std::to_string(std::max<long long>(1, seconds))},
        {"tcp_user_timeout", std::to_string(budget.count())},
    };
    std::string bounded = uri;
    for (const auto& [name, value] : parameters) {
        if (!names(bounded, name)) {
            bounded += (bounded.find('?') == std::string::npos ? "?" : "&") + std::string(name) + "=" + value;
        }
    }
    return bounded;
}

std::string PgPool::sessionSettings(std::chrono::milliseconds budget)
{
    if (budget.count() <= 0) {
        return {};
    }
    const std::string once = std::to_string(budget.count());
    const std::string twice = std::to_string(budget.count() * 2);
    return "SET lock_timeout = " + once + "; SET idle_in_transaction_session_timeout = " + twice +
        "; SET statement_timeout = " + twice;
}

std::chrono::milliseconds PgPool::clientDeadline(std::chrono::milliseconds budget)
{
    return budget + std::max(std::chrono::milliseconds(250), budget / 10);
}

PgPool::PgPool(std::string uri, Settings settings)
    : m_uri(std::move(uri))
    , m_settings(settings)
{
    m_settings.size = std::max(1, m_settings.size);
    {
        Lease first = lease(); // given back at once: the pool starts with one idle connection
    }
    m_closer = std::thread([this] { closeIdleLoop(); });
}

PgPool::~PgPool()
{
    {
        std::lock_guard lock(m_lock);
        m_stopping = true;
    }
    m_closerWake.notify_all();
    if (m_closer.joinable()) {
        m_closer.join();
    }
}

PgPool::Lease::Lease(PgPool& pool, std::unique_ptr<pqxx::connection> connection, std::uint64_t watch)
    : m_pool(&pool)
    , m_connection(std::move(connection))
    , m_watch(watch)
{
}

PgPool::Lease::Lease(Lease&& other) noexcept
    : m_pool(other.m_pool)
    , m_connection(std::move(other.m_connection))
    , m_watch(std::exchange(other.m_watch, 0))
    , m_discard(other.m_discard)
{
}

PgPool::Lease::~Lease()
{
    if (!m_connection) { // moved from
        return;
    }
    if (m_watch != 0 && m_pool->m_watchdog.disarm(m_watch)) {
        m_discard = true; // its socket was shut down: the budget was spent
    }
    if (m_discard || !m_connection->is_open()) {
        m_connection.reset();
        m_pool->release(nullptr);
        m_pool->closeIdle();
        return;
    }
    m_pool->release(std::move(m_connection));
}

void PgPool::Lease::unwatch()
{
    if (m_watch != 0 && m_pool->m_watchdog.disarm(std::exchange(m_watch, 0))) {
        m_discard = true;
    }
}

bool PgPool::outOfSlots(const std::exception& error)
{
    const std::string_view message = error.what();
    return message.find("too many clients") != std::string_view::npos ||
        message.find("too many connections") != std::string_view::npos ||
        message.find("remaining connection slots are reserved") != std::string_view::npos;
}

PgPool::Lease PgPool::lease()
{
    return lease(m_settings.wait);
}

PgPool::Lease PgPool::lease(std::chrono::milliseconds wait)
{
    const auto deadline = SteadyClock::now() + wait;
    auto slotRetry = kFirstSlotRetry;
    auto openAgainAt = SteadyClock::time_point::min(); // after a refusal for want of slots: not before this
    std::unique_lock lock(m_lock);
    while (true) {
        if (!m_idle.empty()) {
            auto connection = std::move(m_idle.back().connection);
            m_idle.pop_back();
            lock.unlock();
            if (onPrimary(*connection)) {
                return lent(std::move(connection));
            }
            connection.reset(); // to an old primary (a zombie once it resumes): closed, never lent
            release(nullptr);
            lock.lock();
            continue;
        }
        const auto now = SteadyClock::now();
        if (m_open < m_settings.size && now >= openAgainAt) {
            ++m_open; // counted before connecting, so that no other thread overfills the pool meanwhile
            lock.unlock();
            try {
                return lent(open());
            } catch (const std::exception& error) {
                release(nullptr);
                if (!outOfSlots(error)) {
                    throw;
                }
                if (SteadyClock::now() >= deadline) {
                    throw Exhausted("no PostgreSQL connection within " + std::to_string(wait.count()) +
                                    " ms: the server has no free connection slot (" + error.what() + ")");
                }
            }
            lock.lock();
            openAgainAt = SteadyClock::now() + slotRetry;
            slotRetry = std::min(slotRetry * 2, kSlotRetryCap);
            continue;
        }
        if (now >= deadline) {
            throw Exhausted("no PostgreSQL connection within " + std::to_string(wait.count()) + " ms: all " +
                            std::to_string(m_settings.size) + " of the pool's are in use");
        }
        // Woken by a connection given back (or closed, which makes room); a refused open is tried again meanwhile.
        m_available.wait_until(lock, m_open < m_settings.size ? std::min(deadline, openAgainAt) : deadline);
    }
}

std::unique_ptr<pqxx::connection> PgPool::open()
{
    auto connection =
        std::make_unique<pqxx::connection>(m_settings.primary ? m_settings.primary->target(m_uri) : m_uri);
    if (!onPrimary(*connection)) {
        throw pqxx::broken_connection("the primary changed while connecting");
    }
    if (const std::string settings = sessionSettings(m_settings.budget); !settings.empty()) {
        // Watched as a lent connection is: connect_timeout bounds only the connecting.
        const auto watch = m_watchdog.arm(connection->sock(), SteadyClock::now() + clientDeadline(m_settings.budget));
        try {
            pqxx::nontransaction set(*connection);
            set.exec(settings);
        } catch (...) {
            m_watchdog.disarm(watch);
            throw;
        }
        if (m_watchdog.disarm(watch)) {
            throw pqxx::broken_connection("no answer from PostgreSQL within the time budget (--db-timeout-ms)");
        }
    }
    return connection;
}

bool PgPool::onPrimary(pqxx::connection& connection) const
{
    return !m_settings.primary || m_settings.primary->allows(connection.hostname(), connection.port());
}

PgPool::Lease PgPool::lent(std::unique_ptr<pqxx::connection> connection)
{
    std::uint64_t watch = 0;
    if (m_settings.budget.count() > 0) {
        watch = m_watchdog.arm(connection->sock(), SteadyClock::now() + clientDeadline(m_settings.budget));
    }
    return Lease(*this, std::move(connection), watch);
}

void PgPool::release(std::unique_ptr<pqxx::connection> connection)
{
    const bool room = !connection;
    {
        std::lock_guard lock(m_lock);
        if (connection) {
            m_idle.push_back({std::move(connection), SteadyClock::now()});
        } else {
            --m_open;
        }
    }
    // A connection given back serves one waiter. Room to open one is for whichever waiter may open now: the first
    // woken may still be holding off after a refusal for want of slots.
    if (room) {
        m_available.notify_all();
    } else {
        m_available.notify_one();
    }
}

void PgPool::closeIdle()
{
    std::vector<std::unique_ptr<pqxx::connection>> closing;
    {
        std::lock_guard lock(m_lock);
        for (auto& idle : m_idle) {
            closing.push_back(std::move(idle.connection));
        }
        m_open -= static_cast<int>(m_idle.size());
        m_idle.clear();
    }
    closing.clear(); // closing talks to the server: not under the lock
    m_available.notify_all(); // room for waiters to open new ones
}

void PgPool::closeIdleLoop()
{
    std::unique_lock lock(m_lock);
    while (!m_stopping) {
        const auto now = SteadyClock::now();
        std::vector<std::unique_ptr<pqxx::connection>> expired;
        while (!m_idle.empty() && now - m_idle.front().since >= m_settings.idle) {
            expired.push_back(std::move(m_idle.front().connection));
            m_idle.pop_front();
            --m_open;
        }
        if (!expired.empty()) {
            lock.unlock();
            expired.clear(); // closing talks to the server: not under the lock
            m_available.notify_all(); // room for a waiter to open one
            lock.lock();
            continue;
        }
        const auto next = m_idle.empty() ? now + m_settings.idle : m_idle.front().since + m_settings.idle;
        m_closerWake.wait_until(lock, next, [this] { return m_stopping; });
    }
}

} // namespace onceorder::server
