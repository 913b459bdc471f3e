#!/usr/bin/env python3
"""Validate the prompt sets in this folder.

Checks: every line is one JSON object with the expected fields and values,
ids are unique across both files, no prompt is repeated, every kind has
lines in both halves, and every `relevant` path exists under the corpus
root (default ../shared/corpora/large relative to the repository, or the
first argument).

    python3 core/recall/testdata/prompts/check.py [/path/to/corpora/large]
"""
import json
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, '..', '..', '..', '..'))
ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, '..', 'shared', 'corpora', 'large')

UNRELATED_KINDS = {'git', 'test', 'refactor', 'feature', 'docs', 'ui', 'infra', 'db',
                   'code-question', 'ack', 'pasted-error', 'task', 'path-or-url', 'near-miss'}
ANSWERABLE_KINDS = {'how-to', 'pasted-error', 'concept', 'task'}
HALVES = {'tune', 'check'}

errors = []


def fail(msg):
    errors.append(msg)


def load(name, fields, kinds, prefix):
    rows = []
    with open(os.path.join(HERE, name), encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            where = f'{name}:{n}'
            if not line.strip():
                fail(f'{where}: empty line')
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                fail(f'{where}: invalid JSON: {e}')
                continue
            if not isinstance(row, dict) or set(row) != fields:
                fail(f'{where}: fields {sorted(row) if isinstance(row, dict) else type(row)}, want {sorted(fields)}')
                continue
            if not str(row['id']).startswith(prefix):
                fail(f'{where}: id {row["id"]!r} does not start with {prefix!r}')
            if row['kind'] not in kinds:
                fail(f'{where}: unknown kind {row["kind"]!r}')
            if row['half'] not in HALVES:
                fail(f'{where}: half {row["half"]!r}')
            if not isinstance(row['prompt'], str) or not row['prompt'].strip():
                fail(f'{where}: empty prompt')
            row['_where'] = where
            rows.append(row)
    return rows


unrelated = load('unrelated.jsonl', {'id', 'kind', 'half', 'prompt'}, UNRELATED_KINDS, 'u-')
answerable = load('answerable.jsonl', {'id', 'kind', 'half', 'prompt', 'relevant'}, ANSWERABLE_KINDS, 'a-')
everything = unrelated + answerable

for key in ('id', 'prompt'):
    for value, count in Counter(r[key] for r in everything).items():
        if count > 1:
            fail(f'{key} repeated {count} times: {value[:60]!r}')

if not os.path.isdir(ROOT):
    fail(f'corpus root {ROOT} not found')
for r in answerable:
    rel = r['relevant']
    if not isinstance(rel, list) or not rel:
        fail(f'{r["_where"]}: relevant must be a non-empty list')
        continue
    if len(set(rel)) != len(rel):
        fail(f'{r["_where"]}: relevant lists a path twice')
    for p in rel:
        if not isinstance(p, str) or os.path.isabs(p) or '..' in p.split('/') or '#' in p:
            fail(f'{r["_where"]}: bad path {p!r}')
        elif not os.path.isfile(os.path.join(ROOT, p)):
            fail(f'{r["_where"]}: {p} does not exist under {ROOT}')

for name, rows in (('unrelated', unrelated), ('answerable', answerable)):
    table = Counter((r['kind'], r['half']) for r in rows)
    print(f'{name}: {len(rows)} prompts')
    for kind in sorted({k for k, _ in table}):
        t, c = table[(kind, 'tune')], table[(kind, 'check')]
        print(f'  {kind:14s} tune {t:3d}  check {c:3d}')
        if not t or not c:
            fail(f'{name}: kind {kind} is missing from one half')
    print(f'  {"total":14s} tune {sum(v for (k, h), v in table.items() if h == "tune"):3d}  '
          f'check {sum(v for (k, h), v in table.items() if h == "check"):3d}')

if errors:
    for e in errors:
        print('ERROR', e, file=sys.stderr)
    sys.exit(1)
print('ok')
