// PgDialect: PostgreSQL's differences as data (storage/SqlDialect.h), its row in PgDialect.cpp.
#pragma once

#include "storage/SqlDialect.h"

namespace onceorder::server {

const SqlDialect& postgresDialect();

} // namespace onceorder::server
