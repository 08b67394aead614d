#!/usr/bin/python3
"""Writes kernels/cf-nonlin-med5.h: the comparators of the 5x5 median of the
fast CPU backend (src/cpu/cf-nonlin-rows.c) and of the CUDA whole-row kernel
(kernels/cf-nonlin-bytes.cu) as min/max statements, and proves them on
every 0/1 input (a min/max network that selects rank 12 of every 0/1
window selects it of every window).

The window's five columns are sorted first (shared by the five windows
that hold a column); two pairs of neighbouring columns are merged
(Batcher's odd-even merge, each pair shared by two windows); of the merge
of the two pairs only ranks 7..12 matter, and the median is the smallest
of q[12] and max (q[12 - i], e[i - 1]), i = 1..5, e the fifth column.
Comparators whose output the median never reads are dropped.  The last
step is also written in two halves: ranks 7..12 of the two pairs' merge
(shared by the two windows that hold both pairs, the fifth column on
either side), then the median from those and the fifth column.

  tools/median-network.py > kernels/cf-nonlin-med5.h
"""
import itertools


class Net:
    def __init__(self):
        self.ops = []                   # (name, 'MIN' | 'MAX', a, b)

    def op(self, kind, a, b):
        name = 't%d' % len(self.ops)
        self.ops.append((name, kind, a, b))
        return name

    def cs(self, a, b):
        return self.op('MIN', a, b), self.op('MAX', a, b)


def batcher(lo, n, r):
    step = r * 2
    if step < n:
        yield from batcher(lo, n, step)
        yield from batcher(lo + r, n, step)
        for i in range(lo + r, lo + n - r, step):
            yield i, i + r
    else:
        yield lo, lo + r


def merge(net, a, b, pad):
    """Odd-even merge of sorted a and b, each padded to pad with +inf."""
    w = list(a) + [None] * (pad - len(a)) + list(b) + [None] * (pad - len(b))
    for i, j in batcher(0, 2 * pad, 1):
        if w[j] is None:
            continue
        if w[i] is None:
            w[i], w[j] = w[j], w[i]
            continue
        w[i], w[j] = net.cs(w[i], w[j])
    return [v for v in w if v is not None]


def prune(net, outs):
    live, keep = set(outs), []
    for op in reversed(net.ops):
        if op[0] in live:
            keep.append(op)
            live.update(op[2:])
    return keep[::-1]


def run(ops, env):
    env = dict(env)
    for name, kind, a, b in ops:
        env[name] = (min if kind == 'MIN' else max)(env[a], env[b])
    return env


def emit(macro, args, ops, stores):
    """ops as statements, then stores: (lvalue, value) pairs."""
    lines = ['const T %s = %s (%s, %s);' % op for op in ops]
    lines += ['%s = %s;' % st for st in stores]
    print('#define %s(T, %s) do { \\' % (macro, ', '.join(args)))
    for i in range(0, len(lines), 2):
        print('    %s \\' % ' '.join(lines[i:i + 2]))
    print('  } while (0)')
    print()


def main():
    cols = [['%s[%d]' % (c, i) for i in range(5)] for c in 'abcde']

    # Sorting one column in place (9 comparators).
    sort = Net()
    w = list(cols[0])
    for i, j in [(0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4),
                 (1, 3), (1, 2)]:
        w[i], w[j] = sort.cs(w[i], w[j])
    for z in itertools.product((0, 1), repeat=5):
        env = run(sort.ops, {'a[%d]' % i: z[i] for i in range(5)})
        assert [env.get(v, v) for v in w] == sorted(z)

    # Merging a pair of sorted columns a, b into m[0..9].
    pair = Net()
    m = merge(pair, cols[0], cols[1], 8)
    # The median from the merged pairs m, p and the sorted column e.
    fin = Net()
    q = merge(fin, ['m[%d]' % i for i in range(10)],
              ['p[%d]' % i for i in range(10)], 16)
    med = q[12]
    for i in range(1, 6):
        med = fin.op('MIN', med, fin.op('MAX', q[12 - i], 'e[%d]' % (i - 1)))
    fops = prune(fin, [med])
    # The same median in two halves: the merge's ranks 7..12, q[0..5]...
    core = prune(fin, q[7:13])
    # ... then with the fifth column.
    edge = Net()
    emed = 'q[5]'
    for i in range(1, 6):
        emed = edge.op('MIN', emed,
                       edge.op('MAX', 'q[%d]' % (5 - i), 'e[%d]' % (i - 1)))

    # Every 0/1 window (columns sorted: z zeros on top of 5 - z ones).
    for zs in itertools.product(range(6), repeat=5):
        env = {'%s[%d]' % (c, i): int(i >= z) for c, z in zip('abcde', zs)
               for i in range(5)}
        env = run(pair.ops, env)
        mp = {'m[%d]' % i: env[m[i]] for i in range(10)}
        env2 = run(pair.ops, {('a[%d]' % i): env['c[%d]' % i] for i in
                              range(5)} | {('b[%d]' % i): env['d[%d]' % i]
                                           for i in range(5)})
        mp |= {'p[%d]' % i: env2[m[i]] for i in range(10)}
        mp |= {'e[%d]' % i: env['e[%d]' % i] for i in range(5)}
        ones = sum(5 - z for z in zs)
        assert run(fops, mp)[med] == int(25 - ones <= 12), zs
        env3 = run(core, mp)
        qe = {'q[%d]' % i: env3[q[7 + i]] for i in range(6)}
        qe |= {'e[%d]' % i: mp['e[%d]' % i] for i in range(5)}
        assert run(edge.ops, qe)[emed] == int(25 - ones <= 12), zs

    print('''/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the 5x5 median's comparators, for the fast CPU backend (gcc)
 * and the CUDA kernels (nvcc) alike, given MIN and MAX (written by
 * tools/median-network.py, which proves them on every 0/1 window). */
#ifndef CF_NONLIN_MED5_H
#define CF_NONLIN_MED5_H
''')
    print('/* s[0..4] = a[0..4] sorted (%d comparators). */' % (len(sort.ops) // 2))
    emit('CF_MED5_SORT', ['a', 's'], sort.ops,
         [('s[%d]' % i, w[i]) for i in range(5)])
    print('/* m[0..9] = sorted a[0..4] and b[0..4] merged (%d comparators). */'
          % (len(pair.ops) // 2))
    emit('CF_MED5_PAIR', ['a', 'b', 'm'], pair.ops,
         [('m[%d]' % i, m[i]) for i in range(10)])
    print('/* med = the median of merged pairs m, p and sorted e (%d min or max). */'
          % len(fops))
    emit('CF_MED5_FINAL', ['m', 'p', 'e', 'med'], fops, [('med', med)])
    print('/* q[0..5] = ranks 7..12 of merged pairs m and p (%d min or max): '
          'the\n * part of CF_MED5_FINAL shared by the windows on either '
          'side. */' % len(core))
    emit('CF_MED5_CORE', ['m', 'p', 'q'], core,
         [('q[%d]' % i, q[7 + i]) for i in range(6)])
    print('/* med = the median of ranks q[0..5] and sorted e (%d min or max). */'
          % len(edge.ops))
    emit('CF_MED5_EDGE', ['q', 'e', 'med'], edge.ops, [('med', emed)])
    print('#endif /* CF_NONLIN_MED5_H */')


main()
