#include "teaching/Scenario.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>

namespace onceorder::core {

namespace {

QString markdownCell(QString text)
{
    return text.replace(u'|', QStringLiteral("\\|")).replace(u'\n', u' ');
}

// The list separator a spreadsheet in this language expects: where the decimal point is a comma (Czech), a cell
// holding "0,6 s" must not be split, and Excel reads `;`.
QChar csvSeparator()
{
    return QLocale().decimalPoint() == u',' ? u';' : u',';
}

QString csvCell(const QString& text)
{
    if (!text.contains(csvSeparator()) && !text.contains(u'"') && !text.contains(u'\n')) {
        return text;
    }
    return u'"' + QString(text).replace(u'"', QStringLiteral("\"\"")) + u'"';
}

QString ordersText(int orders)
{
    return orders < 0 ? QStringLiteral("–") : QString::number(orders);
}

QString verdictText(const VerdictRow& row)
{
    if (row.expected.isEmpty()) {
        return QStringLiteral("–"); // a set-up row is narrated, not judged
    }
    return ScenarioResult::verdictName(row.pass);
}

} // namespace

bool ScenarioResult::passed() const
{
    return error.isEmpty() && !rows.isEmpty() &&
        std::all_of(rows.begin(), rows.end(), [](const VerdictRow& row) { return row.pass; });
}

QString ScenarioResult::verdictName(bool pass)
{
    return pass ? tr("PASS") : tr("FAIL");
}

QStringList ScenarioResult::columnNames()
{
    return {tr("step"), tr("response"), tr("orders"), tr("expected"), tr("verdict")};
}

QString ScenarioResult::toMarkdown() const
{
    // The id stays as it is in every language: it is what `--scenario` takes.
    QString text = QStringLiteral("## %1 (`%2`)\n\n%3\n\n").arg(title, id, explanation);
    text += QStringLiteral("| # | %1 |\n|---|---|---|---|---|---|\n").arg(columnNames().join(QStringLiteral(" | ")));
    for (int i = 0; i < rows.size(); ++i) {
        const VerdictRow& row = rows.at(i);
        text += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                    .arg(i + 1)
                    .arg(markdownCell(row.step), markdownCell(row.response), ordersText(row.orders),
                         markdownCell(row.expected), verdictText(row));
    }
    if (!error.isEmpty()) {
        text += QStringLiteral("\n**%1** %2\n").arg(tr("Could not finish:"), error);
    }
    text += u'\n' +
        tr("**%1** in %2 s")
            .arg(verdictName(passed()))
            .arg(QLocale().toString(static_cast<double>(elapsedMs) / 1000.0, 'f', 1)) +
        u'\n';
    return text;
}

QString ScenarioResult::toCsv() const
{
    // A byte order mark first: without it a spreadsheet reads the UTF-8 of "–" or "odpověď" as its own code page.
    const QChar separator = csvSeparator();
    QString text = QChar(0xfeff) + columnNames().join(separator) + u'\n';
    for (const VerdictRow& row : rows) {
        text += QStringList {csvCell(row.step), csvCell(row.response), ordersText(row.orders), csvCell(row.expected),
                             verdictText(row)}
                    .join(separator) +
            u'\n';
    }
    if (!error.isEmpty()) {
        text += QStringList {csvCell(error), {}, {}, {}, verdictName(false)}.join(separator) + u'\n';
    }
    return text;
}

} // namespace onceorder::core
