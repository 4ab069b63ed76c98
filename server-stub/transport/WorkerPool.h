// WorkerPool: the --threads request workers. Handlers that block (SQLite, the gateway) run here, never on the I/O
// threads, so a slow database costs a worker and a slow client costs nothing but its socket.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace onceorder::server {

class WorkerPool
{
public:
    explicit WorkerPool(int threads);
    // Runs every job already posted, then joins.
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    void post(std::function<void()> job);

private:
    void work();

    std::mutex m_lock;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
};

} // namespace onceorder::server
