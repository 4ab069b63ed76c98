#!/usr/bin/env bash
# package-test.sh [DEB]: checks the .deb made by scripts/package: its contents (dpkg-deb -c), its Depends, and that
# the installed layout works: extracted into a temporary folder, its onceorder lists the scenarios and plays one on
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
    ./usr/share/icons/hicolor/scalable/apps/onceorder.svg; do
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

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
if command -v desktop-file-validate >/dev/null 2>&1; then
    desktop-file-validate "$root/usr/share/applications/onceorder.desktop" || fail "the .desktop entry is invalid"
fi
grep -q '^Exec=onceorder$' "$root/usr/share/applications/onceorder.desktop" || fail "the menu entry does not start onceorder"

export QT_QPA_PLATFORM=offscreen HOME="$root/home" XDG_CONFIG_HOME="$root/home/.config" XDG_DATA_HOME="$root/home/.local/share"
mkdir -p "$HOME"
list="$("$root/usr/bin/onceorder" --scenario list)" || fail "onceorder --scenario list failed"
grep -q '^the-article-table' <<<"$list" || fail "onceorder --scenario list does not name the-article-table: $list"
# A scenario starts the installed onceorder-server from the installed onceorder's folder, as the window does.
play="$("$root/usr/bin/onceorder" --scenario the-article-table)" || fail "the-article-table failed from the package: $play"
"$root/usr/bin/onceorder-server" --version >/dev/null || fail "onceorder-server --version failed"
"$root/usr/bin/onceorder-cli" --help >/dev/null || fail "onceorder-cli --help failed"
echo "package-test: $(basename "$deb") ok ($(grep -c '' <<<"$contents") entries; Depends: $depends)"
