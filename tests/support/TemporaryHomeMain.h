// runWithTemporaryHome: the main() of a Qt Test binary whose code reads QSettings (the window remembers its zoom).
// QSettings reads HOME and XDG_CONFIG_HOME once, so they point at a temporary folder before the QApplication
// exists: a test binary run by hand (not only through ctest, which sets a home of its own) never sees nor changes
// the developer's own settings.
#pragma once

#include <QApplication>
#include <QTemporaryDir>
#include <QTest>

namespace onceorder::test {

template<typename TestObject>
int runWithTemporaryHome(int argc, char** argv)
{
    QTemporaryDir home;
    if (!home.isValid()) {
        return 2;
    }
    qputenv("HOME", home.path().toUtf8());
    qputenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/.config")).toUtf8());
    QApplication app(argc, argv);
    TestObject test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace onceorder::test
