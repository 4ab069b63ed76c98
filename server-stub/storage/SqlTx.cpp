#include "storage/SqlTx.h"

#include <algorithm>
#include <string>

namespace onceorder::server {

namespace {

// `statement` with its `{}` replaced by `names`.
std::string naming(std::string_view statement, std::string_view names)
{
    std::string sql(statement);
    return sql.replace(sql.find("{}"), 2, names);
}

} // namespace

void SqlTx::emptyTables(std::initializer_list<std::string_view> tables)
{
    emptyTables(tables, tables);
}

void SqlTx::emptyTables(std::initializer_list<std::string_view> tables, std::initializer_list<std::string_view> restart)
{
    const SqlDialect& differences = sqlDialect();
    const bool restartedAtOnce = !differences.restartEveryIssuedKey.empty() &&
        std::equal(tables.begin(), tables.end(), restart.begin(), restart.end());
    if (!differences.checkReferencesAtEnd.empty()) {
        exec(differences.checkReferencesAtEnd);
    }
    if (!differences.emptyTables.empty()) {
        std::string names;
        for (const std::string_view table : tables) {
            names.append(names.empty() ? "" : ", ").append(table);
        }
        exec(naming(differences.emptyTables, names).append(restartedAtOnce ? differences.restartEveryIssuedKey : ""));
    }
    for (const std::string_view table : tables) {
        if (!differences.emptyTable.empty()) {
            exec(naming(differences.emptyTable, table));
        }
    }
    for (const std::string_view table : restart) {
        if (!restartedAtOnce && !differences.forgetIssuedKeys.empty()) {
            exec(differences.forgetIssuedKeys, {std::string(table)});
        }
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
