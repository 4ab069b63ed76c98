#include "transport/WorkerPool.h"

namespace onceorder::server {

WorkerPool::WorkerPool(int threads)
{
    m_threads.reserve(static_cast<std::size_t>(threads));
    for (int i = 0; i < threads; ++i) {
        m_threads.emplace_back([this] { work(); });
    }
}

WorkerPool::~WorkerPool()
{
    {
        std::lock_guard lock(m_lock);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (auto& thread : m_threads) {
        thread.join();
    }
}

void WorkerPool::post(std::function<void()> job)
{
    {
        std::lock_guard lock(m_lock);
        m_jobs.push_back(std::move(job));
    }
    m_wake.notify_one();
}

void WorkerPool::work()
{
    while (true) {
        std::function<void()> job;
        {
            std::unique_lock lock(m_lock);
            m_wake.wait(lock, [this] { return m_stopping || !m_jobs.empty(); });
            if (m_jobs.empty()) {
                return; // stopping, and nothing left to run
            }
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
        }
        job(); // jobs catch their own exceptions (HttpApi answers problem+json)
    }
}

} // namespace onceorder::server
