// PgPrimaryCheck: which PostgreSQL node is the primary now, as a pg_auto_failover monitor sees it (--db-monitor), so
// that no transaction starts on an old primary. target_session_attrs=read-write is checked by libpq only when a
// connection opens, and asks the node itself: an old primary that was frozen (SIGSTOP, a stalled VM) while its standby
// was promoted still says "read-write" when it resumes, until its keeper demotes it, and with asynchronous
// replication every write it takes in that window is acknowledged and then lost. The monitor knows better at once:
// it gave the old node a goal of demotion before it promoted the standby.
//
// A thread of its own keeps a connection to the monitor, LISTENs on its `state` channel (the monitor notifies every
// state change) and asks pgautofailover.get_primary() on each notification and at least every kRefresh. PgPool asks:
// - allows(host, port) before it lends a pooled connection: one to any other node is closed, not used;
// - target(uri) before it opens one: the URI with host= and port= of the primary, so libpq connects to that node
//   only (target_session_attrs still applies), never first to the first host of the list, which may be the zombie.
// While the monitor names no writable node (a failover is in progress) no connection is lent or opened: the request
// is answered 503 with Retry-After. Until the monitor first answers, and whenever it cannot be reached, the last view
// holds (none at start: the URI as given); without the monitor pg_auto_failover makes no failover either.
#pragma once

#include <pqxx/connection>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace onceorder::server {

class PgPrimaryCheck
{
public:
    // `monitorUri`: the monitor's database (postgres://autoctl_node@host:port/pg_auto_failover); its connection keeps
    // to `budget` as a pool's does. `formation` and `group`: pg_auto_failover's (default, 0).
    PgPrimaryCheck(const std::string& monitorUri, std::chrono::milliseconds budget, std::string formation = "default",
                   int group = 0);
    ~PgPrimaryCheck();
    PgPrimaryCheck(const PgPrimaryCheck&) = delete;
    PgPrimaryCheck& operator=(const PgPrimaryCheck&) = delete;

    // Whether a connection to this node may start a transaction now.
    bool allows(const char* host, const char* port) const;
    // The URI pointed at the primary; throws pqxx::broken_connection (a transient failure: 503) while the monitor
    // names no writable node.
    std::string target(const std::string& uri) const;
    // How often the monitor's answer changed since the start (for the log and tests).
    std::uint64_t changes() const;

    // `uri` with host= and port= appended (percent-encoded): libpq takes the last value of a parameter.
    static std::string pointedAt(const std::string& uri, const std::string& host, const std::string& port);

private:
    enum class View
    {
        Unknown, // the monitor has not answered yet: the URI as given
        Primary, // m_host:m_port is the writable node
        None, // the monitor names no writable node: a failover is in progress
    };
    void loop();
    // One session with the monitor, until it fails or the check stops.
    void session(pqxx::connection& monitor);
    void refresh(pqxx::connection& monitor);
    void see(View view, const std::string& host, const std::string& port);

    std::string m_uri;
    std::chrono::milliseconds m_budget;
    std::string m_formation;
    int m_group;
    mutable std::mutex m_lock;
    std::condition_variable m_wake;
    View m_view = View::Unknown;
    std::string m_host;
    std::string m_port;
    std::uint64_t m_changes = 0;
    bool m_stopping = false;
    std::thread m_thread; // last: started once everything it uses is there
};

} // namespace onceorder::server
