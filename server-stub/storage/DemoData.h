// DemoData: the clients and products every new database starts with (SPEC §3), for SQLite and PostgreSQL alike.
#pragma once

namespace onceorder::server::demo {

struct DemoClient
{
    const char* id;
    const char* apiKey;
    const char* role; // 'client' or 'operator'
};

struct DemoProduct
{
    const char* id;
    const char* name;
    int stock;
};

inline constexpr DemoClient kClients[] = {
    {"A", "demo-key-A", "client"},
    {"B", "demo-key-B", "client"},
    {"admin", "demo-key-admin", "operator"},
};

inline constexpr DemoProduct kProducts[] = {
    {"kniha", "Kniha: Idempotence v praxi", 100},
    {"hrnek", "Hrnek OnceOrder", 50},
    {"propiska", "Propiska", 500},
};

} // namespace onceorder::server::demo
