// The registry: every teaching scenario, in teaching order. Each is data (title, the paragraph shown beside it)
// and a few steps built from ScenarioSteps; every check runs against a fresh server, so ids and counts are exact.
#include "teaching/scenarios/Scenarios.h"

namespace onceorder::core {

namespace {

Scenario onPostgres(Scenario scenario)
{
    scenario.needsPostgres = true;
    return scenario;
}

} // namespace

QList<Scenario> allScenarios()
{
    using namespace scenarios;
    return {theArticleTable(),
            doubleClick(),
            lostResponse(),
            clientCrash(),
            serverCrash(),
            transientError(),
            unscopedKeys(),
            checkThenInsert(),
            newKeyPerRetry(),
            shortTtl(),
            retryAfterAndOffline(),
            thunderingHerd(),
            paymentGateway(),
            webhooks(),
            webhookRedelivered(),
            declinedCartPaidAgain(),
            onPostgres(postgresInsertWaits()),
            onPostgres(postgresRollbackThenPlaces()),
            onPostgres(postgresCatchTheError()),
            onPostgres(postgresConditionalUpdate()),
            sqliteTwoInstancesLocked(),
            failoverReplication()};
}

} // namespace onceorder::core
