#include "storage/postgres/PgPrimaryCheck.h"

#include "storage/postgres/PgPool.h"

#include <pqxx/connection>
#include <pqxx/except>
#include <pqxx/nontransaction>

#include <cctype>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace onceorder::server {

namespace {

// How often the monitor is asked even without a notification (one was missed while reconnecting, or never sent).
constexpr std::chrono::milliseconds kRefresh {250};
// After the monitor's connection failed: wait this long before connecting again.
constexpr std::chrono::milliseconds kReconnect {500};

std::string percentEncoded(const std::string& text)
{
    std::string out;
    for (const unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            out += static_cast<char>(c);
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return out;
}

} // namespace

PgPrimaryCheck::PgPrimaryCheck(const std::string& monitorUri, std::chrono::milliseconds budget, std::string formation,
                               int group)
    : m_uri(PgPool::withTimeBudget(monitorUri, budget))
    , m_budget(budget)
    , m_formation(std::move(formation))
    , m_group(group)
{
    // Asked once before the first connection opens, so that it opens on the node the monitor names.
    try {
        pqxx::connection monitor(m_uri);
        refresh(monitor);
    } catch (const pqxx::undefined_function&) {
        throw std::runtime_error("--db-monitor names no pg_auto_failover monitor (no pgautofailover.get_primary)");
    } catch (const pqxx::broken_connection& error) {
        throw std::runtime_error("cannot connect to the pg_auto_failover monitor given by --db-monitor: " +
                                 std::string(error.what()));
    }
    m_thread = std::thread([this] { loop(); });
}

PgPrimaryCheck::~PgPrimaryCheck()
{
    {
        std::lock_guard lock(m_lock);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

bool PgPrimaryCheck::allows(const char* host, const char* port) const
{
    std::lock_guard lock(m_lock);
    switch (m_view) {
    case View::Unknown:
        return true;
    case View::None:
        return false;
    case View::Primary:
        return host && port && m_host == host && m_port == port;
    }
    return false;
}

std::string PgPrimaryCheck::target(const std::string& uri) const
{
    std::lock_guard lock(m_lock);
    switch (m_view) {
    case View::Unknown:
        return uri;
    case View::None:
        break;
    case View::Primary:
        return pointedAt(uri, m_host, m_port);
    }
    throw pqxx::broken_connection(
        "the pg_auto_failover monitor names no writable node now (a failover is in progress)");
}

std::uint64_t PgPrimaryCheck::changes() const
{
    std::lock_guard lock(m_lock);
    return m_changes;
}

std::string PgPrimaryCheck::pointedAt(const std::string& uri, const std::string& host, const std::string& port)
{
    return uri + (uri.find('?') == std::string::npos ? "?" : "&") + "host=" + percentEncoded(host) +
        "&port=" + percentEncoded(port);
}

void PgPrimaryCheck::loop()
{
    std::unique_lock lock(m_lock);
    while (!m_stopping) {
        lock.unlock();
        try {
            pqxx::connection monitor(m_uri);
            session(monitor);
        } catch (const std::exception&) {
            // The monitor is away: the last view holds (see the header); connect again in a moment.
        }
        lock.lock();
        m_wake.wait_for(lock, kReconnect, [this] { return m_stopping; });
    }
}

void PgPrimaryCheck::session(pqxx::connection& monitor)
{
    {
        pqxx::nontransaction listen(monitor);
        listen.exec("SET statement_timeout = " + std::to_string(m_budget.count()) + "; LISTEN state");
    }
    const long refreshUs = static_cast<long>(std::chrono::microseconds(kRefresh).count());
    while (true) {
        {
            std::lock_guard lock(m_lock);
            if (m_stopping) {
                return;
            }
        }
        refresh(monitor);
        // Wakes at once on the monitor's notification of a state change; either way asks again.
        monitor.await_notification(0, refreshUs);
    }
}

void PgPrimaryCheck::refresh(pqxx::connection& monitor)
{
    try {
        pqxx::nontransaction ask(monitor);
        const auto row = ask.exec_params(
            "SELECT primary_host, primary_port::text FROM pgautofailover.get_primary($1, $2)", m_formation, m_group);
        if (row.empty() || row[0][0].is_null() || row[0][1].is_null()) {
            see(View::None, {}, {});
            return;
        }
        see(View::Primary, row[0][0].as<std::string>(), row[0][1].as<std::string>());
    } catch (const pqxx::sql_error& error) {
        // "couldn't find the primary node": the monitor names no writable node while a failover is in progress. Any
        // other error (a statement timeout on a slow monitor) says nothing about the nodes: the last view holds, and
        // the session is opened again.
        if (std::string_view(error.what()).find("find the primary node") == std::string_view::npos) {
            throw;
        }
        see(View::None, {}, {});
    }
}

void PgPrimaryCheck::see(View view, const std::string& host, const std::string& port)
{
    std::lock_guard lock(m_lock);
    if (view == m_view && host == m_host && port == m_port) {
        return;
    }
    if (m_view != View::Unknown) {
        ++m_changes;
    }
    m_view = view;
    m_host = host;
    m_port = port;
    std::cerr << "onceorder-server: the pg_auto_failover monitor names "
              << (view == View::Primary ? host + ":" + port + " the primary" : std::string("no writable node"))
              << std::endl;
}

} // namespace onceorder::server
