#include "session/Translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace onceorder::core {

QString Translations::install(QCoreApplication& app, const QString& language)
{
    const QString chosen = !language.isEmpty()           ? language
        : QLocale::system().language() == QLocale::Czech ? QStringLiteral("cs")
                                                         : QStringLiteral("en");
    const QLocale locale(chosen == u"cs" ? QLocale::Czech : QLocale::English,
                         chosen == u"cs" ? QLocale::CzechRepublic : QLocale::UnitedKingdom);
    QLocale::setDefault(locale);

    auto* ours = new QTranslator(&app);
    if (ours->load(QStringLiteral(":/onceorder/i18n/onceorder_%1.qm").arg(chosen))) {
        QCoreApplication::installTranslator(ours);
    }
    // Qt's own strings (the buttons of standard dialogs); present only when the distribution ships them.
    auto* qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
    }
    return chosen;
}

} // namespace onceorder::core
