#!/usr/bin/env bash
# Instructions per delivered packet of the link benchmark's runs, counted by callgrind (valgrind), which a shared
# host's 2x scatter of wall-clock time does not move; and, given a revision, whether 400 random link runs and 300 random
# transfers give results identical to that revision's, byte for byte (docs/performance.md).
#
#   bash benchmarks/instructions.sh            # the counts at the working tree
#   bash benchmarks/instructions.sh 85d3ce7    # the same, and both digests against 85d3ce7's
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
cargo build --release -q -p tcpfade-core --features tools --examples
for case in cubic+sack+prr+rack newreno loss_free/cubic+sack+prr+rack loss_free/newreno; do
    out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/link_instructions "$case" 2000 2>&1)
    refs=$(echo "$out" | awk '/refs:/ {gsub(",", "", $4); print $4}')
    delivered=$(echo "$out" | awk '/delivered/ {print $NF}')
    echo "$case: $refs instructions, $delivered packets delivered, $((refs / delivered)) per packet (2000 simulated s)"
done
if [ $# -ge 1 ]; then
    rev=$1
    tree=$(mktemp -d)
    trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || true' EXIT
    git worktree add -f -q "$tree" "$rev"
    # The same generators at both revisions (they use only the drivers' public API).
    mkdir -p "$tree/crates/tcpfade-core/examples/digest"
    cp crates/tcpfade-core/examples/{link,transfer}_digest.rs "$tree/crates/tcpfade-core/examples/"
    cp crates/tcpfade-core/examples/digest/*.rs "$tree/crates/tcpfade-core/examples/digest/"
    # A revision from before the examples needed the `tools` feature builds them without it.
    features=$(grep -q '^tools = ' "$tree/crates/tcpfade-core/Cargo.toml" && echo "--features tools" || true)
    (cd "$tree" && CARGO_TARGET_DIR="$PWD/target" cargo build --release -q -p tcpfade-core $features --example link_digest \
        --example transfer_digest)
    for what in "400 link runs:link_digest" "300 transfers:transfer_digest"; do
        if cmp -s <(target/release/examples/${what#*:}) <("$tree/target/release/examples/${what#*:}"); then
            echo "${what%%:*}: identical to $rev"
        else
            echo "${what%%:*}: DIFFERENT from $rev (diff the two programs' outputs)"
            exit 1
        fi
    done
fi
