#include "http/Exchange.h"

#include <httplib.h>

namespace onceorder::server {

void answer(httplib::Response& res, int status, const std::string& json)
{
    res.status = status;
    res.set_content(json, "application/json");
}

void answer(httplib::Response& res, const Problem& problem, Exchange& exchange)
{
    res.status = problem.status;
    res.set_content(problem.body(), kProblemContentType);
    if (problem.retryAfterSeconds) {
        res.set_header("Retry-After", std::to_string(*problem.retryAfterSeconds));
    }
    exchange.outcome = problem.slug;
}

} // namespace onceorder::server
