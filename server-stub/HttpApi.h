// HttpApi: the HTTP face of the server. Turns requests into commands, answers JSON or problem+json, logs one
// structured line per request and counts it. Every handler catches everything: no exception reaches httplib.
#pragma once

#include "Faults.h"
#include "Metrics.h"
#include "OrderQueries.h"
#include "OrderService.h"
#include "Problem.h"
#include "Store.h"

#include <functional>
#include <mutex>
#include <string>

namespace httplib {
class Server;
struct Request;
struct Response;
} // namespace httplib

namespace onceorder::server {

inline constexpr std::size_t kMaxBodyBytes = 64 * 1024;

class HttpApi
{
public:
    HttpApi(Store& store, OrderService& orders, OrderQueries& queries, Faults& faults, Metrics& metrics,
            bool debugEndpoints);

    void registerRoutes(httplib::Server& server);

private:
    // What a handler tells the request log besides the status.
    struct Exchange
    {
        std::string client = "-";
        std::string key = "-";
        std::string outcome;
    };
    using Handler = std::function<void(const httplib::Request&, httplib::Response&, Exchange&)>;

    std::function<void(const httplib::Request&, httplib::Response&)> route(std::string name, Handler handler);
    std::function<void(const httplib::Request&, httplib::Response&)> debugRoute(std::string name, Handler handler);

    void postOrder(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void getOrders(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void getOrder(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void putStock(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postFaults(const httplib::Request& req, httplib::Response& res, Exchange& exchange);
    void postMode(const httplib::Request& req, httplib::Response& res, Exchange& exchange);

    // The client behind the bearer API key, or a 401 already written to res.
    std::optional<Client> authenticate(const httplib::Request& req, httplib::Response& res, Exchange& exchange);

    static void answer(httplib::Response& res, int status, const std::string& json);
    static void answer(httplib::Response& res, const Problem& problem, Exchange& exchange);
    void log(const httplib::Request& req, const httplib::Response& res, const Exchange& exchange, double seconds);

    Store& m_store;
    OrderService& m_orders;
    OrderQueries& m_queries;
    Faults& m_faults;
    Metrics& m_metrics;
    bool m_debugEndpoints;
    std::mutex m_logLock;
};

} // namespace onceorder::server
