// The teaching scenarios by theme, one file each; allScenarios() (Scenarios.cpp) lists them in teaching order.
#pragma once

#include "teaching/Scenario.h"

namespace onceorder::core::scenarios {

// Basics.cpp: the server's rules, and the failures the scheme survives.
Scenario theArticleTable();
Scenario doubleClick();
Scenario lostResponse();
Scenario clientCrash();
Scenario serverCrash();

// ServerMistakes.cpp: what goes wrong when the server gets it wrong, then the fix.
Scenario transientError();
Scenario unscopedKeys();
Scenario checkThenInsert();
Scenario shortTtl();

// ClientRetries.cpp: how the client retries.
Scenario newKeyPerRetry();
Scenario retryAfterAndOffline();
Scenario thunderingHerd();

// Checkout.cpp: a payment gateway in the middle, and its webhooks.
Scenario paymentGateway();
Scenario webhooks();
Scenario webhookRedelivered();
Scenario declinedCartPaidAgain();

// Postgres.cpp: the article's PostgreSQL claims on PostgreSQL (two instances on one database), and SQLite's contrast.
Scenario postgresInsertWaits();
Scenario postgresRollbackThenPlaces();
Scenario postgresCatchTheError();
Scenario postgresConditionalUpdate();
Scenario sqliteTwoInstancesLocked();

// Failover.cpp: what the key can promise when the database forgets: a failover with asynchronous and with synchronous
// replication.
Scenario failoverReplication();

} // namespace onceorder::core::scenarios
