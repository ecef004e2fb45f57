#!/usr/bin/env python3
"""Import graph of the crate's `src/` files, and its circles.

Usage: python3 tools/import_graph.py [--edges] [--root src]

An edge A -> B means that file A names an item of file B through a `crate::`, `super::` or
`self::` path (in a `use` tree or inline), outside comments and outside the `#[cfg(test)]`
module at the end of a file. Names re-exported by a module (`crate::GpuScalar` of `lib.rs`,
`crate::layout::vector` of `layout.rs`, ...) are followed to the file that defines them; a
re-export itself (`pub use x::Y;`) is an edge only when written from `crate::`/`super::`/`self::`. A circle is a strongly
connected component of more than one file (A uses B and B uses A, directly or around a loop);
for each, the script prints the component and its shortest loops through each edge.
"""

import argparse
import os
import re
import sys
from collections import defaultdict, deque


def module_files(root):
    """Map module path tuples to files: () -> lib.rs, ('a',) -> a.rs or a/mod.rs, ..."""
    out = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), root)
            parts = rel[:-3].split(os.sep)
            if parts == ["lib"] or parts == ["main"]:
                mod = ()
            elif parts[-1] == "mod":
                mod = tuple(parts[:-1])
            else:
                mod = tuple(parts)
            out[mod] = rel
    return out


def strip(text):
    """Drop comments and the trailing `#[cfg(test)] mod tests` block."""
    m = re.search(r"#\[cfg\(test\)\]\s*mod tests\b", text)
    if m:
        text = text[: m.start()]
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return text


TOKEN = re.compile(r"::|[A-Za-z_][A-Za-z0-9_]*|[{},;*]|\S")


def paths(text):
    """Every path starting with crate/super/self, use-tree braces expanded, each with the names of
    the inline modules it stands in."""
    toks = TOKEN.findall(text)
    out, found = [], []

    def tree(i, prefix):
        # toks[i] starts a use-tree after `prefix::`; returns the index after it.
        if toks[i] == "{":
            i += 1
            while toks[i] != "}":
                i = tree(i, prefix)
                if toks[i] == ",":
                    i += 1
            return i + 1
        if toks[i] == "*":
            found.append(prefix)
            return i + 1
        path = prefix + [toks[i]]
        i += 1
        while i + 1 < len(toks) and toks[i] == "::":
            if toks[i + 1] in ("{", "*"):
                return tree(i + 1, path)
            path.append(toks[i + 1])
            i += 2
        found.append(path)
        return i

    # Inline modules (`mod name { ... }`): a path inside one is relative to it.
    inline, depth = [], 0
    i = 0
    while i < len(toks):
        t = toks[i]
        prev = toks[i - 1] if i else ""
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if inline and inline[-1][1] == depth:
                inline.pop()
        elif t == "mod" and i + 2 < len(toks) and toks[i + 2] == "{":
            inline.append((toks[i + 1], depth))
            depth += 1
            i += 3
            continue
        if t in ("crate", "super", "self") and prev != "::" and i + 1 < len(toks) and toks[i + 1] == "::":
            path = [t]
            j = i + 2
            while j < len(toks):
                if toks[j] in ("{", "*"):
                    j = tree(j, path)
                    break
                if toks[j] in ("super", "self") or re.match(r"[A-Za-z_]", toks[j]):
                    path.append(toks[j])
                    if j + 1 < len(toks) and toks[j + 1] == "::":
                        j += 2
                        continue
                    j += 1
                found.append(path)
                break
            out.extend((tuple(n for n, _ in inline), p) for p in found)
            found.clear()
            i = j
        else:
            i += 1
    return out


def use_tree(text):
    """The paths of a use-tree (`a::{b, c::d as e}`): (segments, name it is known by)."""
    toks = TOKEN.findall(text)
    out = []

    def tree(i, prefix):
        if toks[i] == "{":
            i += 1
            while toks[i] != "}":
                i = tree(i, prefix)
                if toks[i] == ",":
                    i += 1
            return i + 1
        if toks[i] == "*":
            return i + 1
        path = prefix + [toks[i]]
        i += 1
        while i + 1 < len(toks) and toks[i] == "::":
            if toks[i + 1] in ("{", "*"):
                return tree(i + 1, path)
            path.append(toks[i + 1])
            i += 2
        name = path[-1]
        if i + 1 < len(toks) and toks[i] == "as":
            name = toks[i + 1]
            i += 2
        out.append((path, name))
        return i

    tree(0, [])
    return out


def reexports(root, mods):
    """Every module's re-exports (`pub use ...;`, `pub(crate) use ...;`): module path -> {name:
    absolute module path + item of the definition}. A path written from the module itself
    (`pub use batch::X` in layout.rs) is a child module's."""
    out = {}
    for mod, rel in mods.items():
        text = strip(open(os.path.join(root, rel)).read())
        names = {}
        for m in re.finditer(r"\bpub(?:\([a-z]+\))?\s+use\s+([^;]+);", text):
            for path, name in use_tree(m.group(1)):
                cur = list(mod)
                segs = list(path)
                if segs[0] == "crate":
                    cur, segs = [], segs[1:]
                elif segs[0] not in ("super", "self") and tuple(cur + segs[:1]) not in mods:
                    continue  # an external crate (`pub use wgpu;`)
                while segs and segs[0] in ("super", "self"):
                    if segs[0] == "super":
                        cur = cur[:-1]
                    segs = segs[1:]
                names[name] = tuple(cur + segs)
        out[mod] = names
    return out


def resolve(path, here, mods, reexp, depth=0):
    """The file a path lands in: the longest module prefix that is a file, or, where the next
    segment is a name that module re-exports, the file that defines it."""
    cur = list(here)
    segs = list(path)
    if segs[0] == "crate":
        cur, segs = [], segs[1:]
    while segs and segs[0] in ("super", "self"):
        if segs[0] == "super":
            cur = cur[:-1]
        segs = segs[1:]
    full = cur + segs
    for n in range(len(full), -1, -1):
        prefix = tuple(full[:n])
        if prefix in mods:
            if n < len(full) and depth < 8:
                target = reexp.get(prefix, {}).get(full[n])
                if target is not None and target != prefix + (full[n],):
                    return resolve(("crate",) + target, (), mods, reexp, depth + 1)
            return mods[prefix]
    return None


def graph(root):
    mods = module_files(root)
    reexp = reexports(root, mods)
    edges = defaultdict(set)
    for mod, rel in mods.items():
        text = strip(open(os.path.join(root, rel)).read())
        # A file's own module for `super::` is its module path (mod.rs: the folder's module).
        for inline, p in paths(text):
            target = resolve(p, mod + inline, mods, reexp)
            if target and target != rel:
                edges[rel].add(target)
    return sorted(mods.values()), edges


def sccs(nodes, edges):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def shortest_loop(a, b, edges, comp):
    """Shortest loop a -> b -> ... -> a inside comp."""
    prev = {b: None}
    q = deque([b])
    while q:
        v = q.popleft()
        if v == a:
            break
        for w in sorted(edges.get(v, ())):
            if w in comp and w not in prev:
                prev[w] = v
                q.append(w)
    if a not in prev:
        return None
    path, v = [], a
    while v is not None:
        path.append(v)
        v = prev[v]
    return [a] + list(reversed(path))


# The parts of docs/ARCHITECTURE.md: (part, file-path prefixes), first match wins. Listed from
# the top down: each part may use only parts listed after it (see ALLOWED).
PARTS = [
    ("face", ["ext.rs", "ext/", "lib.rs", "resident/forms.rs"]),
    ("blas", ["blas/"]),
    ("drivers", ["drivers/"]),
    ("resident", ["resident.rs", "resident/"]),
    ("layout", ["layout.rs", "layout/"]),
    ("launch", ["launch.rs", "launch/", "context.rs", "context/", "pool.rs", "transfer.rs", "lab.rs"]),
    ("metrics", ["metrics/", "metrics.rs"]),
    ("errors", ["error.rs", "flags.rs"]),
]

# The arrows allowed between parts (besides arrows inside a part).
ALLOWED = {
    "face": {"blas", "resident", "layout", "launch", "errors"},
    "blas": {"drivers", "resident", "layout", "launch", "errors"},
    "drivers": {"resident", "layout", "launch", "errors"},
    "resident": {"layout", "launch", "errors"},
    "layout": {"launch", "errors"},
    "launch": {"errors"},
    "metrics": {"errors"},
    "errors": set(),
}

# Single edges allowed against the arrows, each with its reason.
EXCEPTIONS = {
    # `wgblas::tuning` re-exports the tile engine's choices for tuning experiments.
    ("lib.rs", "drivers/gemm/tile.rs"),
}


def part(rel):
    for name, prefixes in PARTS:
        if any(rel == p or (p.endswith("/") and rel.startswith(p)) for p in prefixes):
            return name
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default="src")
    ap.add_argument("--edges", action="store_true", help="print every edge")
    ap.add_argument("--check", action="store_true", help="list edges against the allowed arrows")
    args = ap.parse_args()
    nodes, edges = graph(args.root)
    if args.edges:
        for a in nodes:
            for b in sorted(edges.get(a, ())):
                print(f"{a} -> {b}")
    circles = [c for c in sccs(nodes, edges) if len(c) > 1]
    if args.check:
        bad = []
        for a in nodes:
            for b in sorted(edges.get(a, ())):
                pa, pb = part(a), part(b)
                if pa is None or pb is None:
                    bad.append(f"{a} -> {b} (file not in a part)")
                elif pa != pb and pb not in ALLOWED[pa] and (a, b) not in EXCEPTIONS:
                    bad.append(f"{a} -> {b} ({pa} -> {pb})")
        print(f"{len(bad)} edges against the allowed arrows")
        for line in bad:
            print("  " + line)
    print(f"{len(nodes)} files, {sum(len(v) for v in edges.values())} edges, {len(circles)} circles")
    for c in circles:
        print(f"circle of {len(c)} files: {', '.join(c)}")
        seen = set()
        comp = set(c)
        for a in c:
            for b in sorted(edges.get(a, ())):
                if b in comp:
                    loop = shortest_loop(a, b, edges, comp)
                    key = tuple(sorted(set(loop)))
                    if loop and key not in seen:
                        seen.add(key)
                        print("  " + " -> ".join(loop))


if __name__ == "__main__":
    main()
