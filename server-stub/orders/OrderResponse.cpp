#include "orders/OrderResponse.h"

#include "support/Problems.h"

namespace onceorder::server {

OrderResponse OrderResponse::fromProblem(const Problem& problem, std::string outcome)
{
    OrderResponse response;
    response.status = problem.status;
    response.body = problem.body();
    response.outcome = std::move(outcome);
    response.retryAfterSeconds = problem.retryAfterSeconds;
    response.orderId = problem.orderId;
    response.rerunnable = problem.rerunnable;
    return response;
}

OrderResponse OrderResponse::fromProblem(const Problem& problem)
{
    return fromProblem(problem, problem.slug);
}

OrderResponse OrderResponse::inProgress()
{
    return fromProblem(problems::requestInProgress(), "in-progress");
}

OrderResponse OrderResponse::replay(int status, std::string body)
{
    OrderResponse response;
    response.status = status;
    response.body = std::move(body);
    response.replayed = true;
    response.outcome = "replayed";
    return response;
}

} // namespace onceorder::server
