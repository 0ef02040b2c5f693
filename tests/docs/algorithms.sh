#!/usr/bin/env bash
# The catalog tables of docs/algorithms.md are generated: each algorithm
# file defines its cost formula once (COST_FORMULA, src/coll/algorithm.h),
# and the lines between
#   <!-- catalog:begin <collective>... -->   and   <!-- catalog:end -->
# must be exactly `colibri-info --markdown <collective>...`.  Every collective
# of the catalog must be in one such table.  On a difference this prints the
# diff and the command that regenerates the tables:
#   bash tests/docs/algorithms.sh --update
# (after `make`; COLIBRI_INFO=path picks another colibri-info build).
set -u
cd "$(dirname "$0")/../.."
DOC=docs/algorithms.md
INFO=${COLIBRI_INFO:-build/bin/colibri-info}
REGEN="make && bash tests/docs/algorithms.sh --update"
update=0
[ "${1:-}" = "--update" ] && update=1

[ -x "$INFO" ] || { echo "$INFO is missing: run make first"; exit 1; }
new=$(mktemp)
trap 'rm -f "$new"' EXIT

# The document with every marked table replaced by colibri-info's output.
in_table=0
covered=()
while IFS= read -r line; do
    if [[ $line =~ ^'<!-- catalog:begin '([a-z_ ]+)' -->'$ ]]; then
        ((in_table)) && { echo "$DOC: catalog:begin inside a table: $line" >&2; exit 1; }
        read -ra colls <<<"${BASH_REMATCH[1]}"
        printf '%s\n' "$line"
        "$INFO" --markdown "${colls[@]}" || { echo "$INFO --markdown ${colls[*]} failed" >&2; exit 1; }
        covered+=("${colls[@]}")
        in_table=1
    elif [[ $line == '<!-- catalog:end -->' ]]; then
        ((in_table)) || { echo "$DOC: catalog:end without catalog:begin" >&2; exit 1; }
        printf '%s\n' "$line"
        in_table=0
    elif ((!in_table)); then
        printf '%s\n' "$line"
    fi
done <"$DOC" >"$new"
((in_table)) && { echo "$DOC: catalog:begin without catalog:end" >&2; exit 1; }

# Every collective in exactly one table.
all=$("$INFO" --markdown | sed -n 's/^| \([a-z_]*\) | `.*/\1/p' | sort -u)
listed=$(printf '%s\n' "${covered[@]}" | sort)
if [ "$all" != "$listed" ]; then
    echo "$DOC: the catalog tables must list every collective once;"
    echo "  the catalog has:  $(echo $all)"
    echo "  the tables list:  $(echo $listed)"
    exit 1
fi

if cmp -s "$DOC" "$new"; then
    echo "$DOC: catalog tables match colibri-info --markdown (${#covered[@]} collectives)"
    exit 0
fi
if ((update)); then
    cp "$new" "$DOC"
    echo "$DOC: catalog tables regenerated"
    exit 0
fi
diff -u --label "$DOC" --label "$DOC as generated" "$DOC" "$new"
echo
echo "$DOC differs from the cost formulas the algorithm files define (COST_FORMULA)."
echo "Regenerate its tables with:  $REGEN"
exit 1
