# Shared by scripts/demo and scripts/test: find the project, install what is missing, configure and build.
# shellcheck shell=bash

ONCEORDER_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Debian/Ubuntu packages the build, the tests and the demo need.
ONCEORDER_PACKAGES=(
    build-essential cmake ninja-build pkg-config clang-format
    clang libclang-rt-14-dev
    qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-l10n-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
    libcpp-httplib-dev libboost-dev libsqlitecpp-dev libsqlite3-dev prometheus-cpp-dev libssl-dev libcurl4-openssl-dev
    libpqxx-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    qt6-translations-l10n xvfb xauth imagemagick wrk
)

# Only scripts/test needs these: a PostgreSQL server and pg_virtualenv (postgresql-common) for the PostgreSQL suites,
# PgBouncer to run them through a transaction pooler, pg_auto_failover for the failover job (scripts/test --ha) and
# RapidCheck for the property-based tests; python3 and curl for the failover job; libfaketime for a server whose clock
# is off (PostgresEndToEndTest).
ONCEORDER_TEST_PACKAGES=(postgresql postgresql-common pgbouncer postgresql-15-auto-failover librapidcheck-dev python3 curl libfaketime)

# Only scripts/coverage needs these; scripts/test and scripts/demo do not install them.
ONCEORDER_COVERAGE_PACKAGES=(gcovr)

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# ensure_packages [PACKAGE...]: installs whichever of them (default: ONCEORDER_PACKAGES) is missing.
ensure_packages() {
    local wanted=("$@")
    if [ ${#wanted[@]} -eq 0 ]; then
        wanted=("${ONCEORDER_PACKAGES[@]}")
    fi
    local missing=()
    local package
    for package in "${wanted[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "OnceOrder needs these packages, and this machine has no apt-get to install them:" >&2
        echo "  ${missing[*]}" >&2
        echo "Install their equivalents (Qt 6.4+, cpp-httplib, SQLiteCpp, libpqxx, prometheus-cpp, libcurl, GoogleTest), then re-run." >&2
        exit 3
    fi
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "Missing packages (${missing[*]}) and neither root nor sudo is available; install them and re-run." >&2
            exit 3
        fi
        sudo=(sudo)
    fi
    log "Installing ${#missing[@]} missing packages: ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The npm tools that check docs/openapi.yaml (@redocly/cli, @stoplight/prism-cli, js-yaml), pinned in
# tests/contract/package.json and package-lock.json, installed into tests/contract/node_modules (never globally).
# `npm ci` runs only when the lock file is newer than what is installed.
ensure_contract_tools() {
    local dir="$ONCEORDER_ROOT/tests/contract"
    # Node.js and npm: Debian's packages when there are none. Not in ONCEORDER_PACKAGES: a machine whose Node.js
    # came from elsewhere (with its own npm) has no package "npm", and Debian's would conflict with it.
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        local saved=("${ONCEORDER_PACKAGES[@]}") status=0
        ONCEORDER_PACKAGES=(nodejs npm)
        ensure_packages || status=$?
        ONCEORDER_PACKAGES=("${saved[@]}")
        [ "$status" -eq 0 ] || return "$status"
    fi
    if [ -f "$dir/node_modules/.package-lock.json" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
        return 0
    fi
    log "Installing the contract tools (npm ci in tests/contract)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

# configure_and_build PRESET: incremental after the first run.
configure_and_build() {
    local preset="$1"
    cd "$ONCEORDER_ROOT"
    if [ ! -f "$(preset_dir "$preset")/build.ninja" ]; then
        log "Configuring ($preset)"
        cmake --preset "$preset" >/dev/null
    fi
    log "Building ($preset)"
    cmake --build --preset "$preset" -- -j"$(nproc)"
}

preset_dir() {
    case "$1" in
        default) echo "$ONCEORDER_ROOT/build" ;;
        sanitize) echo "$ONCEORDER_ROOT/build-sanitize" ;;
        coverage) echo "$ONCEORDER_ROOT/build-coverage" ;;
        bench) echo "$ONCEORDER_ROOT/build-bench" ;;
        fuzz) echo "$ONCEORDER_ROOT/build-fuzz" ;;
    esac
}
