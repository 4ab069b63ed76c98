#include "storage/SqlTx.h"

#include <string>

namespace onceorder::server {

void SqlTx::emptyTables(std::initializer_list<std::string_view> tables)
{
    switch (dialect()) {
    case Dialect::Postgres: {
        std::string truncate = "TRUNCATE ";
        for (const std::string_view table : tables) {
            truncate.append(table).append(", ");
        }
        truncate.resize(truncate.size() - 2);
        exec(truncate + " RESTART IDENTITY");
        return;
    }
    case Dialect::Sqlite:
        for (const std::string_view table : tables) {
            exec("DELETE FROM " + std::string(table));
        }
        for (const std::string_view table : tables) {
            exec("DELETE FROM sqlite_sequence WHERE name = ?", {std::string(table)});
        }
        return;
    }
}

std::string numberedPlaceholders(std::string_view sql)
{
    std::string numbered;
    numbered.reserve(sql.size() + 16);
    int next = 1;
    for (const char c : sql) {
        if (c == '?') {
            numbered += '$' + std::to_string(next++);
        } else {
            numbered += c;
        }
    }
    return numbered;
}

} // namespace onceorder::server
