#!/usr/bin/env bash
# package-test.sh [DEB]: checks the .deb made by scripts/package: its contents (dpkg-deb -c), its control fields
# (dpkg-deb -I: Depends, a real Homepage), /usr/share/doc/onceorder as Debian wants it (the lessons as in docs/, the
# README, a machine-readable copyright, changelog.gz made with gzip -9n), and that the installed layout works: extracted into a temporary folder, its onceorder lists the scenarios and plays one on
# the onceorder-server found next to itself (offscreen, no display). Exits 77 (skipped) when no package was built.
set -euo pipefail

deb="${1:-}"
if [ -z "$deb" ]; then
    build_dir="${ONCEORDER_BUILD_DIR:-$(cd "$(dirname "$0")/.." && pwd)/build}"
    deb="$(ls -t "$build_dir"/onceorder_*.deb 2>/dev/null | head -1 || true)"
fi
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
    echo "no package built (run scripts/package); skipped"
    exit 77
fi

fail() {
    echo "package-test: $*" >&2
    exit 1
}

contents="$(dpkg-deb -c "$deb")"
for path in ./usr/bin/onceorder ./usr/bin/onceorder-cli ./usr/bin/onceorder-server \
    ./usr/share/applications/onceorder.desktop \
    ./usr/share/icons/hicolor/128x128/apps/onceorder.png \
    ./usr/share/icons/hicolor/scalable/apps/onceorder.svg \
    ./usr/share/doc/onceorder/teaching.md ./usr/share/doc/onceorder/teaching.cs.md \
    ./usr/share/doc/onceorder/README.md ./usr/share/doc/onceorder/copyright \
    ./usr/share/doc/onceorder/changelog.gz; do
    grep -qE " $path\$" <<<"$contents" || fail "$path is missing from $deb"
done
# Nothing of the build may leak in: no tests, no static libraries, no headers.
if grep -qE '\.(a|h)$|Test$' <<<"$contents"; then
    fail "unexpected files in $deb: $(grep -E '\.(a|h)$|Test$' <<<"$contents" | head -3)"
fi

depends="$(dpkg-deb -f "$deb" Depends)"
for library in libqt6widgets6 libqt6network6 libqt6charts6 libqt6svg6 libsqlite3-0; do
    grep -q "$library" <<<"$depends" || fail "Depends lacks $library: $depends"
done

info="$(dpkg-deb -I "$deb")"
homepage="$(dpkg-deb -f "$deb" Homepage)"
grep -q "^ Homepage: $homepage\$" <<<"$info" || fail "dpkg-deb -I shows no Homepage"
# The project's home, the same as the copyright's Source; no placeholder domain.
[ "$homepage" = "https://github.com/onceorder/onceorder" ] || fail "Homepage is \"$homepage\", not the project's home"

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
if command -v desktop-file-validate >/dev/null 2>&1; then
    desktop-file-validate "$root/usr/share/applications/onceorder.desktop" || fail "the .desktop entry is invalid"
fi
grep -q '^Exec=onceorder$' "$root/usr/share/applications/onceorder.desktop" || fail "the menu entry does not start onceorder"

doc="$root/usr/share/doc/onceorder"
# The lessons a teacher reads are today's, from this tree (when the test runs from one).
source_tree="$(cd "$(dirname "$0")/.." && pwd)"
for lesson in teaching.md teaching.cs.md; do
    if [ -f "$source_tree/docs/$lesson" ]; then
        cmp -s "$doc/$lesson" "$source_tree/docs/$lesson" || fail "$lesson in the package differs from docs/$lesson"
    fi
    grep -q '^# ' "$doc/$lesson" || fail "$lesson has no title"
done
# copyright: the machine-readable format (DEP-5): the Format line, a Files paragraph with Copyright and License, and
# the text of every licence it names.
copyright="$doc/copyright"
head -1 "$copyright" | grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
    fail "copyright is not in the machine-readable format (first line: $(head -1 "$copyright"))"
grep -qx 'Files: \*' "$copyright" || fail "copyright has no 'Files: *' paragraph"
grep -q '^Copyright: ' "$copyright" || fail "copyright has no Copyright field"
grep -qx "Source: $homepage" "$copyright" || fail "copyright's Source is not the Homepage ($homepage)"
for license in $(sed -n 's/^License: //p' "$copyright" | sort -u); do
    [ "$(grep -c "^License: $license\$" "$copyright")" -ge 2 ] || fail "copyright names $license without its text"
done
# changelog.gz: valid gzip, made with -n (no file name, no time: flags byte 0, mtime 0), its first entry this version.
gzip -t "$doc/changelog.gz" || fail "changelog.gz is not valid gzip"
header="$(od -An -tu1 -j3 -N5 "$doc/changelog.gz" | tr -s ' ')"
[ "$header" = " 0 0 0 0 0" ] || fail "changelog.gz keeps a name or a time (gzip -9n wanted; header bytes:$header)"
version="$(dpkg-deb -f "$deb" Version)"
zcat "$doc/changelog.gz" | head -1 | grep -q "^onceorder ($version) " ||
    fail "changelog.gz does not begin with onceorder ($version): $(zcat "$doc/changelog.gz" | head -1)"

export QT_QPA_PLATFORM=offscreen HOME="$root/home" XDG_CONFIG_HOME="$root/home/.config" XDG_DATA_HOME="$root/home/.local/share"
mkdir -p "$HOME"
list="$("$root/usr/bin/onceorder" --scenario list)" || fail "onceorder --scenario list failed"
grep -q '^the-article-table' <<<"$list" || fail "onceorder --scenario list does not name the-article-table: $list"
# A scenario starts the installed onceorder-server from the installed onceorder's folder, as the window does.
play="$("$root/usr/bin/onceorder" --scenario the-article-table)" || fail "the-article-table failed from the package: $play"
"$root/usr/bin/onceorder-server" --version >/dev/null || fail "onceorder-server --version failed"
"$root/usr/bin/onceorder-cli" --help >/dev/null || fail "onceorder-cli --help failed"
echo "package-test: $(basename "$deb") ok ($(grep -c '' <<<"$contents") entries; Depends: $depends)"
