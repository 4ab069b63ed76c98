// PgBackend: PostgreSQL, several server processes on one database (docs/postgresql.md). Registered in
// storage/Backends.cpp; takes a postgresql:// or postgres:// URI.
#pragma once

#include "storage/Backend.h"

namespace onceorder::server {

const Backend& postgresBackend();

} // namespace onceorder::server
