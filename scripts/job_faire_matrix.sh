#!/bin/bash
# usage: scripts/job_faire_matrix.sh   (from the repository root, with the venv active)
# for 2..5 players, seeds 1..20: play twice (same JSON?), rescore table (same totals?)
fail=0; n=0
for p in 2 3 4 5; do
  seats=$(python -c "print(','.join(['greedy','random'][i%2] for i in range($p)))")
  for s in $(seq 1 20); do
    n=$((n+1))
    python -m exlibris play --variant job-faire --seats $seats --seed $s --json --table-out ${TMPDIR:-/tmp}/t.yaml > ${TMPDIR:-/tmp}/a.json 2>/dev/null || { echo "FAIL play $p $s"; fail=$((fail+1)); continue; }
    python -m exlibris play --variant job-faire --seats $seats --seed $s --json > ${TMPDIR:-/tmp}/b.json 2>/dev/null
    cmp -s ${TMPDIR:-/tmp}/a.json ${TMPDIR:-/tmp}/b.json || { echo "NONDET $p $s"; fail=$((fail+1)); }
    python -m exlibris score --json ${TMPDIR:-/tmp}/t.yaml > ${TMPDIR:-/tmp}/c.json 2>/dev/null || { echo "FAIL score $p $s"; fail=$((fail+1)); continue; }
    python - <<'PY' || { echo "TOTALS $p $s"; fail=$((fail+1)); }
import json
a=json.load(open('${TMPDIR:-/tmp}/a.json')); c=json.load(open('${TMPDIR:-/tmp}/c.json'))
ta=[(f['name'],f['total']) for f in a['players']] if 'players' in a else None
tc=[(f['name'],f['total']) for f in c['players']] if 'players' in c else None
assert ta is not None and ta==tc, (ta,tc)
PY
  done
done
echo "$n games, $fail failures"
