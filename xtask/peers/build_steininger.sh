#!/bin/sh
# Builds xtask/peers/steininger_driver.cpp against a checkout of Christophe
# Steininger's Connect Four solver (github.com/ChristopheSteininger/c4), for
# `cargo xtask bench connect4 --steininger PATH`:
#
#   xtask/peers/build_steininger.sh C4_CHECKOUT OUT_DIR
#
# writes OUT_DIR/steininger-64m (8,388,617 table entries, 64 MiB) and
# OUT_DIR/steininger-1g (134,217,757 entries, 1 GiB), both with one search
# thread. The table size and the thread count are constants of the solver's
# src/solver/settings.h, so each build compiles a copy of its src/ with those
# two lines changed. The flags are those of its CMakeLists.txt in its default
# (OPTIMISE) mode: C++20 without extensions, -Wall -O3 -flto, NDEBUG.
set -eu
if [ $# -ne 2 ] || [ ! -f "$1/src/solver/settings.h" ]; then
    echo "usage: $0 C4_CHECKOUT OUT_DIR (C4_CHECKOUT/src/solver/settings.h must exist)" >&2
    exit 2
fi
c4=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
driver=$(cd "$(dirname "$0")" && pwd)/steininger_driver.cpp
CXX=${CXX:-g++}
for size in 64m:8388617 1g:134217757; do
    name=${size%%:*}
    entries=${size#*:}
    src=$out/src-$name
    rm -rf "$src"
    cp -r "$c4/src" "$src"
    sed -i \
        -e "s/^inline constexpr uint64_t NUM_TABLE_ENTRIES = .*/inline constexpr uint64_t NUM_TABLE_ENTRIES = $entries;/" \
        -e "s/^inline constexpr int NUM_THREADS = .*/inline constexpr int NUM_THREADS = 1;/" \
        "$src/solver/settings.h"
    grep -q "NUM_TABLE_ENTRIES = $entries;" "$src/solver/settings.h"
    grep -q "NUM_THREADS = 1;" "$src/solver/settings.h"
    echo "building $out/steininger-$name" >&2
    # shellcheck disable=SC2046
    "$CXX" -std=c++20 -Wall -O3 -flto -DNDEBUG -pthread -I "$src" \
        "$driver" $(find "$src/solver" -name '*.cpp' | sort) \
        -o "$out/steininger-$name"
done
